"""The window's connection (``TableLink``) against a server hosted on a background thread
(``ServerThread``, as the window hosts): joining with an invite, playing a move, and
taking the seat back by itself after the connection is cut — without ever blocking."""

from __future__ import annotations

import time

from ttr_desktop.net.client import TableLink
from ttr_desktop.net.protocol import PROTOCOL_VERSION
from ttr_desktop.net.server import ServerThread


_READ: dict[int, int] = {}


def _collect(link: TableLink, into: list, until, timeout: float = 15.0, what: str = "") -> dict:
    """The next message (after the last one this returned) that ``until`` accepts; every
    message polled is kept in ``into``."""
    end = time.monotonic() + timeout
    while True:
        into.extend(link.poll())
        while _READ.get(id(into), 0) < len(into):
            msg = into[_READ.get(id(into), 0)]
            _READ[id(into)] = _READ.get(id(into), 0) + 1
            if until(msg):
                return msg
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.01)


def test_a_link_joins_plays_and_comes_back_after_a_cut(tmp_path):
    server = ServerThread("127.0.0.1", 0, tmp_path)
    url = server.start()
    links = []
    try:
        host = TableLink(url)
        links.append(host)
        host.send({"type": "create", "protocol": PROTOCOL_VERSION, "variant": "usa",
                   "seats": ["remote", "remote"], "seed": 31337})
        created = _collect(host, [], lambda m: m["type"] == "created", what="created")
        started = time.monotonic()
        ann = TableLink(created["invites"][0], name="Ann")
        assert time.monotonic() - started < 0.5, "making a link never waits"
        bob = TableLink(url, table=created["table"], token=created["tokens"][1], name="Bob")
        links += [ann, bob]
        ann_got, bob_got = [], []
        welcome = _collect(ann, ann_got, lambda m: m["type"] == "welcome", what="welcome")
        assert welcome["seat"] == 0 and ann.seat == 0 and ann.status == "open"
        assert ann.token and ann.token != created["tokens"][0], "an invite gives a new token"
        _collect(bob, bob_got, lambda m: m["type"] == "state", what="bob's state")
        state = _collect(ann, ann_got, lambda m: m["type"] == "state", what="ann's state")
        lobby = [m for m in ann_got if m["type"] == "lobby"][-1]
        assert [s["name"] for s in lobby["seats"]] == ["Ann", "Bob"]

        # The connection is cut (on the server's side): the link takes the seat back.
        def cut():
            table = server.server.tables[created["table"]]
            table.conns[0].ws.transport.abort()
        server.call(cut)
        again = _collect(ann, ann_got, lambda m: m["type"] == "welcome", what="rejoin")
        assert again["seat"] == 0 and ann.status == "open"
        presence = _collect(bob, bob_got, lambda m: m["type"] == "presence"
                            and m["seat"] == 0 and m["connected"], what="she is back")
        assert presence["name"] == "Ann"

        # Whoever is to move plays through the link.
        mover, got = (ann, ann_got) if state["current_seat"] == 0 else (bob, bob_got)
        last = [m for m in got if m["type"] == "state"][-1]
        mover.send({"type": "action", "action": last["legal"][0], "version": last["version"]})
        moved = _collect(mover, got, lambda m: m["type"] == "state"
                         and m["version"] == last["version"] + 1, what="the move")
        assert moved["version"] == server.call(lambda: server.server.tables[
            created["table"]].game.version)
    finally:
        for link in links:
            link.close()
        end = time.monotonic() + 10
        while any(link.status != "closed" for link in links) and time.monotonic() < end:
            time.sleep(0.02)
        server.stop()
    assert [link.status for link in links] == ["closed"] * 3


def test_a_bad_invite_is_told_in_words_and_not_retried(tmp_path):
    server = ServerThread("127.0.0.1", 0, tmp_path)
    url = server.start()
    try:
        link = TableLink(f"{url}/join/AAAAA-BBBBB")
        end = time.monotonic() + 10
        while link.status != "closed" and time.monotonic() < end:
            time.sleep(0.02)
        assert link.status == "closed"
        assert "invite is not valid" in link.problem
        assert [m["code"] for m in link.poll() if m["type"] == "error"] == ["bad_invite"]
    finally:
        server.stop()


def test_an_invite_is_read_however_it_was_pasted():
    from ttr_desktop.net.client import split_invite

    code = "K7QX2-M4P9R"
    for pasted in (f"ws://192.168.1.5:8765/join/{code}", f"ws://192.168.1.5:8765/{code}",
                   f"192.168.1.5:8765 {code}", f"  ws://192.168.1.5:8765/join/{code}\n"):
        assert split_invite(pasted) == ("ws://192.168.1.5:8765", code), pasted
    assert split_invite("127.0.0.1:5000") == ("ws://127.0.0.1:5000", None)
    assert split_invite("wss://example.org/ttr/join/AB") == ("wss://example.org/ttr", "AB")


def test_run_server_serves_until_its_stop_event_is_set(tmp_path):
    import threading

    from ttr_desktop.net.server import run_server

    urls, stop = [], threading.Event()
    thread = threading.Thread(target=run_server, args=("127.0.0.1", 0, tmp_path),
                              kwargs={"ready": urls.append, "stop": stop}, daemon=True)
    thread.start()
    end = time.monotonic() + 15
    while not urls and time.monotonic() < end:
        time.sleep(0.02)
    assert urls and urls[0].startswith("ws://127.0.0.1:") and int(urls[0].rsplit(":", 1)[1])
    link = TableLink(urls[0])
    link.send({"type": "ping"})
    got = []
    while not got and time.monotonic() < end:
        got = [m for m in link.poll() if m["type"] == "pong"]
        time.sleep(0.02)
    link.close()
    assert got
    stop.set()
    thread.join(10)
    assert not thread.is_alive()
