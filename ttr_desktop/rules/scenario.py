"""Building positions: the one explicit way to set a game up by hand.

Tests, puzzles and tutorials need positions a game reaches only after many turns
("seat 0 holds three red cards and Denver–Omaha, the deck has a locomotive on
top"). ``Scenario`` builds them on a real game, with the game's own rules for
everything it does not set::

    sc = Scenario.start("usa", players=2, seed=3)     # past the initial tickets
    sc.hand(0, red=3, locomotive=1).route(0, "denver-omaha").deck_top(["blue"])
    sc.turn(1)
    game = sc.game

Every step keeps the physical components conserved: cards put into a hand, the
display or on top of the deck come out of the deck or the discard pile (never
made up), tickets move between the decks, the hands and the box; so
``game.total_cards()`` and the ticket count do not change. Points move only
through the score track's one writer, with a reason, as in play. Each step gives
the game a new ``version`` (its caches are per version), so a position is never
read from a stale cache.

This is for building positions before play, never during it: no player, bot or
window uses it (a bot only ever sees a ``PlayerView``). It is not exported from
``ttr_desktop.rules``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ttr_desktop.rules.actions import KeepTickets
from ttr_desktop.rules.state import ModuleState, Phase

if TYPE_CHECKING:
    from ttr_desktop.rules.game import Game


class Scenario:
    """A position under construction on ``game`` (see the module's text). Every
    method returns the scenario, so steps chain."""

    def __init__(self, game: "Game") -> None:
        self.game = game

    @classmethod
    def start(cls, variant: str = "usa", players: int | list[str] = 2, seed: int = 1,
              options: dict[str, Any] | None = None) -> "Scenario":
        """A new game past the initial ticket choice (every seat keeps all of its
        offer, through the engine), the first seat to play."""
        from ttr_desktop.rules.game import new_game
        return cls(new_game(variant, players, seed=seed, options=options)).keep_initial_tickets()

    # The engine side ------------------------------------------------------------
    def _edited(self) -> "Scenario":
        self.game._edited()
        return self

    @property
    def _s(self):
        return self.game.state

    def _card(self, name: str) -> int:
        index = self.game.board.card_index.get(name)
        if index is None:
            raise ValueError(f"no train card {name!r} in {self.game.variant} "
                             f"(cards: {', '.join(self.game.board.card_names)})")
        return index

    def _take(self, index: int, count: int = 1) -> None:
        """Take ``count`` copies of card ``index`` from the deck (bottom first), else
        from the discard pile."""
        s = self._s
        for _ in range(count):
            if index in s.deck:
                s.deck.remove(index)           # the lowest copy: far from the top
            elif index in s.discard:
                s.discard.remove(index)
            else:
                raise ValueError(f"no {self.game.board.card_names[index]} card left in "
                                 "the deck or the discard pile")

    def _under_deck(self, cards: Iterable[int]) -> None:
        self._s.deck[0:0] = list(cards)

    def _pull_ticket(self, index: int) -> None:
        s = self._s
        for deck in s.ticket_decks.values():
            if index in deck:
                deck.remove(index)
                return
        for lists in (s.tickets, s.pending):
            for seat, held in enumerate(lists):
                if index in held:
                    lists[seat] = [t for t in held if t != index]   # replaced, never changed
                    return
        if index in s.boxed_tickets:
            s.boxed_tickets.remove(index)
            return
        raise ValueError(f"ticket {self.game.board.ticket_ids[index]} is nowhere")

    def _ticket(self, ticket_id: str) -> int:
        index = self.game.board.ticket_index.get(ticket_id)
        if index is None:
            raise ValueError(f"no ticket {ticket_id!r} in {self.game.variant}")
        return index

    # Play through the engine -----------------------------------------------------
    def keep_initial_tickets(self) -> "Scenario":
        """Every seat still choosing keeps all of its initial offer (real actions)."""
        g = self.game
        while g.phase == Phase.CHOOSE_INITIAL_TICKETS:
            ids = self.game.board.ticket_ids
            pending = tuple(ids[t] for t in g.state.pending[g.current_seat])
            g.apply(KeepTickets(pending, ()))
        return self

    # Train cards ---------------------------------------------------------------
    def hand(self, seat: int, cards: dict[str, int] | None = None, **counts: int) -> "Scenario":
        """Give ``seat`` exactly these cards, e.g. ``hand(0, red=3, locomotive=1)`` (or a
        dict, for names that are not Python words). The old hand goes under the deck."""
        s = self._s
        want = {**(cards or {}), **counts}
        old = s.hands[seat]
        self._under_deck(c for c, n in enumerate(old) for _ in range(n))
        new = [0] * len(old)
        s.hands[seat] = new
        for name, n in want.items():
            i = self._card(name)
            self._take(i, n)
            new[i] += n
        # Cards known to have been taken face up are only those still in the hand.
        s.known[seat] = [min(k, n) for k, n in zip(s.known[seat], new)]
        return self._edited()

    def deck_top(self, cards: Sequence[str]) -> "Scenario":
        """Put ``cards`` on top of the deck, the first listed on top (drawn first)."""
        idx = [self._card(name) for name in cards]
        for i in idx:
            self._take(i)
        self._s.deck.extend(reversed(idx))
        return self._edited()

    def face_up(self, cards: Sequence[str | None]) -> "Scenario":
        """Lay out exactly this display (None: an empty slot); the old display goes
        under the deck. No refresh is made: the display is as given."""
        s = self._s
        self._under_deck(c for c in s.face_up if c >= 0)
        s.face_up = [-1] * len(cards)
        for slot, name in enumerate(cards):
            if name is not None:
                i = self._card(name)
                self._take(i)
                s.face_up[slot] = i
        return self._edited()

    def discard(self, cards: Sequence[str]) -> "Scenario":
        """Make the discard pile exactly ``cards`` (the old pile goes under the deck)."""
        s = self._s
        self._under_deck(s.discard)
        s.discard = []
        idx = [self._card(name) for name in cards]
        for i in idx:
            self._take(i)
        s.discard = idx
        return self._edited()

    def empty_deck(self, keep_in_deck: Sequence[str] = (), keep_in_discard: Sequence[str] = (),
                   into_seat: int | None = None) -> "Scenario":
        """Empty the deck and the discard pile but for the listed cards (deck: top
        first). The cards taken away go into the hand of ``into_seat`` (default the
        last seat), so every card is still accounted for."""
        s = self._s
        seat = self.game.num_players - 1 if into_seat is None else into_seat
        deck_keep = [self._card(n) for n in keep_in_deck]
        discard_keep = [self._card(n) for n in keep_in_discard]
        pool = s.deck + s.discard
        for i in deck_keep + discard_keep:
            if i not in pool:
                raise ValueError(f"no {self.game.board.card_names[i]} card left in the "
                                 "deck or the discard pile")
            pool.remove(i)
        for i in pool:
            s.hands[seat][i] += 1
        s.deck = list(reversed(deck_keep))
        s.discard = discard_keep
        return self._edited()

    # Tickets -------------------------------------------------------------------
    def tickets(self, seat: int, ticket_ids: Sequence[str]) -> "Scenario":
        """Make ``seat``'s kept tickets exactly these (the old ones go under their deck)."""
        s, b = self._s, self.game.board
        old = s.tickets[seat]
        s.tickets[seat] = []
        for t in old:
            s.ticket_decks[b.t_deck[t]].insert(0, t)
        kept = []
        for tid in ticket_ids:
            t = self._ticket(tid)
            self._pull_ticket(t)
            kept.append(t)
        s.tickets[seat] = kept
        return self._edited()

    def offer(self, seat: int, ticket_ids: Sequence[str]) -> "Scenario":
        """Make these the tickets ``seat`` has drawn and is choosing from (the old
        offer goes under its deck); the phase is left as it is."""
        s, b = self._s, self.game.board
        for t in s.pending[seat]:
            s.ticket_decks[b.t_deck[t]].insert(0, t)
        s.pending[seat] = []
        drawn = []
        for tid in ticket_ids:
            t = self._ticket(tid)
            self._pull_ticket(t)
            drawn.append(t)
        s.pending[seat] = drawn
        return self._edited()

    def ticket_deck_top(self, ticket_ids: Sequence[str], deck: str = "regular") -> "Scenario":
        """Put these tickets on top of the ticket deck ``deck``, the first listed on top."""
        s = self._s
        if deck not in s.ticket_decks:
            raise ValueError(f"no ticket deck {deck!r} (decks: {', '.join(s.ticket_decks)})")
        idx = [self._ticket(t) for t in ticket_ids]
        for t in idx:
            self._pull_ticket(t)
        s.ticket_decks[deck].extend(reversed(idx))
        return self._edited()

    def ticket_deck_size(self, n: int, deck: str = "regular") -> "Scenario":
        """Leave only the top ``n`` tickets in ``deck``; the others go back to the box."""
        s = self._s
        d = s.ticket_decks[deck]
        keep = d[len(d) - n:] if n else []
        s.boxed_tickets.extend(d[:len(d) - n])
        s.ticket_decks[deck] = keep
        return self._edited()

    # The board and the score track ------------------------------------------------
    def route(self, seat: int, route_id: str, score: bool = True) -> "Scenario":
        """``seat`` owns ``route_id`` as if it had claimed it earlier: its trains are on
        the board and (``score``) the route's points are on the score track (no cards
        are paid, no rule module reacts)."""
        s, b = self._s, self.game.board
        r = b.route_index.get(route_id)
        if r is None:
            raise ValueError(f"no route {route_id!r} on {self.game.map.name}")
        if s.owner[r] != -1:
            raise ValueError(f"{route_id} is already owned")
        s.owner[r] = seat
        s.trains[seat] -= b.r_len[r]
        s.route_paid = s.route_paid[:r] + ((),) + s.route_paid[r + 1:]   # replaced, as by a claim
        if score:
            self.game._score(seat, b.r_points[r], "route", route_id)
        return self._edited()

    def score(self, seat: int, amount: int, reason: str = "event", ref: str = "") -> "Scenario":
        """Move ``seat`` on the score track by ``amount`` with a reason, as a rule would
        (``reason`` names the part of the final score it counts in: "route", "event"...)."""
        self.game._score(seat, amount, reason, ref)
        return self._edited()

    def trains(self, seat: int, trains: int) -> "Scenario":
        """Set the trains ``seat`` has left (the rest are in the box)."""
        self._s.trains[seat] = trains
        return self._edited()

    # Whose turn ---------------------------------------------------------------
    def turn(self, seat: int, phase: str = Phase.TURN) -> "Scenario":
        """Make it ``seat``'s decision in ``phase`` (default: the start of a turn)."""
        if not 0 <= seat < self.game.num_players:
            raise ValueError(f"no seat {seat}")
        s = self._s
        s.current = seat
        s.phase = phase
        return self._edited()

    def turns_played(self, turns: int) -> "Scenario":
        """Set how many turns have been completed (the round count shown to players)."""
        self._s.turn = turns
        return self._edited()

    # Rule modules ---------------------------------------------------------------
    def module(self, name: str, **values: Any) -> "Scenario":
        """Set fields of rule module ``name``'s state, e.g. ``module("alvin", holder=0)``.
        A list or table field may be given {index or key: value} to change only those
        entries (``module("marklin", supply={0: 0})``)."""
        state = self.module_state(name)
        for field, value in values.items():
            if not hasattr(state, field):
                raise ValueError(f"{name} has no state field {field!r}")
            current = getattr(state, field)
            if isinstance(value, dict) and isinstance(current, (list, dict)):
                current = current.copy()
                for i, v in value.items():
                    current[i] = v
                value = current
            object.__setattr__(state, field, value)
        return self._edited()

    def module_state(self, name: str) -> ModuleState:
        """Rule module ``name``'s state, to change in ways ``module`` cannot say (call
        ``done()`` after). ValueError if the module is not in play."""
        ext = self._s.ext
        if name not in ext:
            raise ValueError(f"no rule module {name!r} in play (modules: {', '.join(ext)})")
        return ext[name]

    def done(self) -> "Scenario":
        """Tell the game its state was changed through ``module_state``."""
        return self._edited()


__all__ = ["Scenario"]
