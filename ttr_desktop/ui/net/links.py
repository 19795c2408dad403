"""Opening a link to a table from what a person typed, and hosting a table from the
window (a server on a background thread of this program).

Nothing here waits for the network on the window's thread: the server starts on its own
thread, the links run on theirs (``ttr_desktop.net.client.TableLink``), and the host's
screen advances a step each time it looks (``Hosting.step``).
"""

from __future__ import annotations

import re
import socket
import threading
from pathlib import Path
from typing import Any

#: The port a table is hosted on (the next free one is tried when it is taken).
DEFAULT_PORT = 8765
#: Where a table listens unless the host lets the local network in.
LOOPBACK = "127.0.0.1"
LAN = "0.0.0.0"

_CODE = re.compile(r"^[A-Za-z0-9-]{4,64}$")
_HOST = re.compile(r"^[A-Za-z0-9.\-\[\]:]+:[0-9]{1,5}$")


def normalise_invite(text: str) -> str:
    """The invite as the link wants it ('ws://host:port/join/CODE') from the ways a person
    pastes it ('ws://host:port/join/CODE', 'host:port/join/CODE', 'host:port CODE'...).
    ValueError with a plain reason when it is not an invite."""
    from ttr_desktop.net.client import split_invite
    text = " ".join(text.split())
    problem = ValueError("That is not an invite: it looks like ws://192.168.1.5:8765/join/"
                         "K7QX2-M4P9R (ask your host to copy it again).")
    if not text:
        raise problem
    try:
        url, code = split_invite(text)
    except ValueError:
        raise problem from None
    host = url.split("://", 1)[-1]
    if not code or not _CODE.match(code) or not host or "/" in host or \
            not _HOST.match(host) or not url.startswith(("ws://", "wss://")):
        raise problem
    return f"{url}/join/{code}"


def open_link(invite: str, name: str = ""):
    """A link joining with ``invite`` (ValueError when it is not one, or when this
    installation cannot connect)."""
    try:
        from ttr_desktop.net.client import TableLink
    except ImportError as exc:
        raise ValueError("Joining needs a part this installation lacks "
                         f"({exc.name}).") from None
    return TableLink(normalise_invite(invite), name=name)


def lan_address() -> str | None:
    """This computer's address on its local network as its own name resolves (no packet
    is sent); None when only the loopback is known."""
    try:
        addresses = socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        return None
    for address in addresses:
        if not address.startswith("127."):
            return address
    return None


def tables_dir(paths) -> Path:
    """Where the window's own server keeps its tables (and their saves, in ``saves``)."""
    return Path(paths.data_dir) / "tables"


def remember_hosted(paths, file: str, seat: int, name: str,
                    others: list[tuple[int, str]] | tuple = ()) -> None:
    """Which seat this window played at a saved table (so loading it seats the host
    there again), and ``others``, the more seats played here (hot-seat): (seat, name);
    a failure only loses that convenience."""
    import json
    path = tables_dir(paths) / "hosted.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
        if not isinstance(data, dict):
            data = {}
        data[file] = {"seat": seat, "name": name,
                      "others": [[s, n] for s, n in others]}
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    except (OSError, ValueError):
        pass


def hosted_others(paths, file: str) -> list[tuple[int, str]]:
    """The more seats (and names) played at this window at the saved table ``file``."""
    import json
    try:
        info = json.loads((tables_dir(paths) / "hosted.json").read_text(encoding="utf-8"))
        entry = info.get(file) if isinstance(info, dict) else None
        others = entry.get("others") if isinstance(entry, dict) else None
        return [(s, str(n)) for s, n in others or []
                if isinstance(s, int) and isinstance(n, str)]
    except (OSError, ValueError, TypeError, AttributeError):
        return []


def hosted_seat(paths, file: str) -> tuple[int, str] | None:
    """The seat (and name) this window played at the saved table ``file``."""
    import json
    try:
        info = json.loads((tables_dir(paths) / "hosted.json").read_text(encoding="utf-8"))
        entry = info.get(file) if isinstance(info, dict) else None
        if isinstance(entry, dict) and isinstance(entry.get("seat"), int):
            return entry["seat"], str(entry.get("name") or "")
    except (OSError, ValueError):
        pass
    return None


def saved_tables(paths) -> list[Path]:
    """The tables saved on this window's server, newest first."""
    folder = tables_dir(paths) / "saves"
    try:
        files = [p for p in folder.glob("*.toml") if p.is_file()]
    except OSError:
        return []
    return sorted(files, key=lambda p: p.stat().st_mtime, reverse=True)


class Hosting:
    """A table hosted from this window: the server, the table, this window's seat.

    ``step(lobby)`` moves it on without waiting: server listening -> ``create`` sent ->
    ``created`` read -> this window's seat taken (the lobby's session gets its link and
    the invites for the friends).

    ``here`` may list several seats (people taking turns at this computer): the first
    is the host's link, each other gets a link of its own (its own seat token)."""

    def __init__(self, data_dir: Path, create: dict[str, Any], here: int | list[int],
                 name: str | list[str], listen: str = LOOPBACK,
                 port: int | None = None) -> None:
        self.data_dir = Path(data_dir)
        self.create = create
        heres = [here] if isinstance(here, int) else list(here)
        names = [name] if isinstance(name, str) else list(name)
        self.here = heres[0]
        self.name = names[0]
        #: More seats played here (hot-seat): (seat, name).
        self.more_here = list(zip(heres[1:], names[1:]))
        self.listen = listen
        self.port = DEFAULT_PORT if port is None else port
        self.url: str | None = None
        self.problem: str | None = None
        self.server = None
        self.control = None
        self.done = False
        self._thread = threading.Thread(target=self._serve, name="ttr-host", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        try:
            from ttr_desktop.net.server import ServerThread
        except ImportError as exc:
            self.problem = f"Hosting needs a part this installation lacks ({exc.name})."
            return
        last: Exception | None = None
        for port in (self.port, 0):          # the usual port, else any free one
            try:
                self.data_dir.mkdir(parents=True, exist_ok=True)
                server = ServerThread(self.listen, port, self.data_dir)
                url = server.start()
            except OSError as exc:
                last = exc
                continue
            self.server, self.url = server, url
            return
        self.problem = f"The table could not be opened on this computer: {last}"

    def words(self) -> str:
        if self.problem:
            return self.problem
        if self.url is None:
            return "Opening the table…"
        return "Setting the table…"

    def local_url(self) -> str | None:
        """The server's address as this computer reaches it."""
        if self.url is None:
            return None
        port = self.url.rsplit(":", 1)[-1].split("/")[0]
        return f"ws://{LOOPBACK}:{port}"

    def address_words(self) -> str:
        url = self.local_url()
        if url is None:
            return ""
        port = url.rsplit(":", 1)[-1]
        if self.listen == LOOPBACK:
            return (f"The table listens on {LOOPBACK}, port {port}: only this computer can "
                    "join (a second window here). Host for your network to invite others.")
        lan = lan_address() or "this computer's address"
        return (f"Friends on your network join at {lan}, port {port} (the invite says so). "
                "A friend further away needs that port forwarded to this computer.")

    def _invite_for_friends(self, invite: str) -> str:
        if self.listen == LOOPBACK:
            return invite
        lan = lan_address()
        return invite.replace(f"//{LOOPBACK}:", f"//{lan}:") if lan else invite

    def step(self, lobby) -> None:
        """One look: on to the next stage when the last one is done."""
        if self.problem or self.done:
            return
        from ttr_desktop.net.client import TableLink
        url = self.local_url()
        if url is None:
            return
        if self.control is None:
            self.control = TableLink(url)
            self.control.send(self.create)
            return
        for msg in self.control.poll():
            if msg.get("type") == "error":
                self.problem = f"The table could not be set: {msg.get('message')}"
                self.control.close()
                return
            if msg.get("type") != "created":
                continue
            seats = msg.get("seats") or self.create.get("seats") or []
            remote = [i for i, s in enumerate(seats) if s.get("kind") == "remote"]
            if not remote:
                self.problem = "The table has no seat for a person."
                self.control.close()
                return
            if self.here not in remote:
                self.here = remote[0]
            k = remote.index(self.here)
            token = msg["tokens"][k] if k < len(msg.get("tokens") or []) else None
            if token:
                link = TableLink(url, table=msg["table"], token=token, name=self.name,
                                 host_token=msg["host_token"])
            else:      # a loaded table kept the seat's old key: take it with its invite
                link = TableLink(msg["invites"][k], name=self.name,
                                 host_token=msg["host_token"])
            local = {self.here}
            for seat, name in self.more_here:
                if seat not in remote or seat == self.here:
                    continue
                j = remote.index(seat)
                token = msg["tokens"][j] if j < len(msg.get("tokens") or []) else None
                if token:
                    more = TableLink(url, table=msg["table"], token=token, name=name)
                else:  # a loaded table kept the seat's old key: take it with its invite
                    more = TableLink(msg["invites"][j], name=name)
                lobby.session.add_seat_link(more)
                local.add(seat)
            invites: list[str] = []
            for j, seat in enumerate(remote):
                invites.append("" if seat in local else
                               self._invite_for_friends(msg["invites"][j]))
            lobby.session.link = link
            lobby.session.host_token = msg["host_token"]
            lobby.set_invites_by_seat(dict(zip(remote, invites)))
            lobby.rebuild()
            self.control.close()
            self.done = True
            return
        if self.control.status == "closed":
            self.problem = self.control.problem or "The table did not answer."

    def stop(self) -> None:
        """Close the table's server (on a thread: the window does not wait)."""
        server, self.server = self.server, None
        if server is not None:
            threading.Thread(target=server.stop, name="ttr-host-stop", daemon=True).start()
