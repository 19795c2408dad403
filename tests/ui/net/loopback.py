"""An in-process table for window tests: a real engine ``Game`` and, per seat, a link
with the ``TableLink`` interface that carries only what that seat may see, encoded with
the network codec (``view(seat)``, ``visible_to(seat)`` events) — the transport is a
queue instead of a socket. Seats without a link are played by a bot on ``pump()``.
"""

from __future__ import annotations

import json
from dataclasses import asdict

from ttr_desktop.bots import make_bot
from ttr_desktop.net import codec
from ttr_desktop.rules import IllegalAction, new_game


class LoopLink:
    """One seat's end of the loopback table (the ``TableLink`` interface)."""

    def __init__(self, table: LoopTable, seat: int) -> None:
        self.table = table
        self.seat = seat
        self.token = f"token-{seat}"
        self.status = "open"
        self.problem: str | None = None
        self.inbox: list[dict] = []
        self.sent: list[dict] = []
        #: While True, messages wait in ``held`` (a slow network) until ``release()``.
        self.hold = False
        self.held: list[dict] = []

    def deliver(self, msg: dict) -> None:
        if self.status != "closed":
            msg = json.loads(json.dumps(msg))   # only plain JSON crosses
            (self.held if self.hold else self.inbox).append(msg)

    def release(self) -> None:
        self.hold = False
        self.inbox.extend(self.held)
        self.held = []

    def poll(self) -> list[dict]:
        out, self.inbox = self.inbox, []
        return out

    def send(self, msg: dict) -> None:
        msg = json.loads(json.dumps(msg))
        self.sent.append(msg)
        self.table.receive(self, msg)

    def close(self) -> None:
        self.status = "closed"


class LoopTable:
    """A table of ``players`` seats; ``people`` the seats with a link, the rest bots."""

    def __init__(self, variant: str, players: list[str], people: list[int],
                 seed: int = 5, options: dict | None = None) -> None:
        self.game = new_game(variant, players, seed=seed, options=options or {})
        self.links = {seat: LoopLink(self, seat) for seat in people}
        self.ended = False
        self.bots = {s: make_bot("greedy", seed=s) for s in range(len(players))
                     if s not in self.links}
        for seat, link in self.links.items():
            link.deliver({"type": "welcome", "protocol": 1, "table": "t1", "seat": seat,
                          "token": link.token, "variant": self.game.variant,
                          "options": dict(self.game.options), "players": players,
                          "host": seat == min(self.links)})
            link.deliver(self.lobby())
            link.deliver(self.state(seat))

    def lobby(self) -> dict:
        return {"type": "lobby", "started": True,
                "seats": [{"name": n, "kind": "remote" if i in self.links else "bot",
                           "connected": True} for i, n in enumerate(self.game.players)]}

    def state(self, seat: int) -> dict:
        g = self.game
        mine = g.current_seat == seat
        return {"type": "state", "version": g.version, "seat": seat,
                "view": codec.view_to_json(g.view(seat)),
                "legal": [codec.action_to_json(a) for a in g.legal_actions()] if mine else [],
                "prompt": g.prompt() if mine else "", "phase": g.phase,
                "current_seat": g.current_seat, "turn": g.state.turn,
                "final_round": g.final_round, "final_turns_left": g.state.final_turns_left,
                "is_over": g.is_over}

    def receive(self, link: LoopLink, msg: dict) -> None:
        if msg["type"] == "chat":
            for other in self.links.values():
                other.deliver({"type": "chat", "seat": link.seat,
                               "name": self.game.players[link.seat], "text": msg["text"],
                               "time": 0})
            return
        if msg["type"] != "action":
            return
        if self.game.current_seat != link.seat:
            link.deliver({"type": "error", "code": "not_your_turn",
                          "message": "It is not your turn."})
            return
        if msg.get("version") != self.game.version:
            link.deliver({"type": "illegal", "action": msg["action"],
                          "reason": "That move was for an earlier position of the game."})
            return
        action = codec.action_from_json(msg["action"])
        try:
            events = self.game.apply(action)
        except IllegalAction as exc:
            link.deliver({"type": "illegal", "reason": str(exc), "action": msg["action"]})
            return
        self.broadcast(events)

    def broadcast(self, events) -> None:
        for seat, link in self.links.items():
            seen = [e.visible_to(seat) for e in events]
            link.deliver({"type": "events", "version": self.game.version,
                          "events": [codec.event_to_json(e) for e in seen if e is not None]})
            link.deliver(self.state(seat))

    def pump(self, limit: int = 50, also: tuple[int, ...] = ()) -> int:
        """Let the bots play while it is their turn (and for the seats in ``also``, as the
        host's "a bot plays Ann's seat"); returns how many moves they made. At the end
        every seat gets the ``over`` message, as the server sends it."""
        moves = 0
        g = self.game
        for seat in also:
            self.bots.setdefault(seat, make_bot("greedy", seed=seat))
        while not g.is_over and moves < limit and (
                g.current_seat not in self.links or g.current_seat in also):
            seat = g.current_seat
            action = self.bots[seat].choose(g.view(seat), g.legal_actions())
            self.broadcast(g.apply(action))
            moves += 1
        if g.is_over and not self.ended:
            self.ended = True
            result = g.result()
            over = {"type": "over", "scores": [b.total for b in result.scores],
                    "winners": list(result.winners), "places": list(result.places),
                    "tie_break": result.tie_break,
                    "breakdown": [codec.value_to_json(asdict(b)) for b in result.scores]}
            for link in self.links.values():
                link.deliver(over)
        return moves
