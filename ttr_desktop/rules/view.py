"""PlayerView: exactly what one seat may know. Bots only ever receive a view.

A view holds copies of plain data and the public map — never the game, its
state or its board — so nothing hidden is reachable from it, not even through
private attributes, and changing a view changes nothing in the game.

Besides the seat's own hand and tickets and the public counts, a view carries
the public record a person at the table sees (and the game log shows): the
discard pile since the last reshuffle, the cards each seat took face up and
has not been seen to play, each claim's payment, every ticket draw and how
many were kept, the score track's entries, and how many final turns remain.
"""

from __future__ import annotations

import copy
from types import MappingProxyType
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ttr_desktop.maps.model import GameMap, Ticket
from ttr_desktop.rules.graph import RouteGraph, TicketStatus, ticket_status

if TYPE_CHECKING:
    from ttr_desktop.rules.game import Game
    from ttr_desktop.rules.payment import PaySpec
    from ttr_desktop.rules.scoring import RouteTally
    from ttr_desktop.rules.tokens import CityToken

_FIELDS = ("seat", "phase", "current_seat", "hand", "tickets", "pending_tickets", "face_up",
           "deck_size", "discard_size", "ticket_deck_size", "ticket_deck_sizes", "trains_left",
           "hand_sizes", "ticket_counts", "pending_counts", "points", "players", "map",
           "variant", "options", "turn", "first_seat", "final_round", "final_turns_left",
           "passes", "doubles_open", "route_points", "currency", "card_names", "pay", "extra",
           "prompt", "city_tokens", "pipeline")


class _ReadOnly:
    """A read-only table while it is pickled."""

    __slots__ = ("data",)

    def __init__(self, data: dict) -> None:
        self.data = data

    def __getstate__(self):
        return self.data

    def __setstate__(self, data) -> None:
        self.data = data


class PlayerView:
    """Own hand and tickets, the public record and the board; never other hands, other
    tickets or the deck order. Dict-shaped record fields are built on first use."""

    __slots__ = _FIELDS + ("_owner", "_graph", "_route_owners", "_completed", "_discard",
                           "_known", "_paid", "_ticket_log", "_ledger", "_group_open", "_borrow",
                           "_status")

    seat: int
    phase: str
    current_seat: int
    hand: dict[str, int]
    tickets: tuple[Ticket, ...]
    pending_tickets: tuple[Ticket, ...]
    face_up: tuple[str | None, ...]
    deck_size: int
    discard_size: int
    ticket_deck_size: int
    ticket_deck_sizes: dict[str, int]
    trains_left: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    ticket_counts: tuple[int, ...]
    pending_counts: tuple[int, ...]
    points: tuple[int, ...]
    players: tuple[str, ...]
    map: GameMap
    variant: str
    options: dict[str, Any]
    turn: int
    first_seat: int
    final_round: bool
    final_turns_left: int | None
    passes: int
    doubles_open: bool
    route_points: dict[int, int]
    currency: str
    card_names: tuple[str, ...]
    #: The pay items and the payment rule (public): colours, wilds, sources.
    pay: "PaySpec"
    extra: dict[str, Any]
    prompt: str
    city_tokens: dict[str, tuple["CityToken", ...]]
    pipeline: tuple[tuple[str, str, dict[str, Any]], ...]

    def __getstate__(self) -> dict[str, Any]:
        """Plain data for pickling (a bot thinking in another process): read-only tables
        travel as dicts and come back read-only; the cached graph is rebuilt from the map."""
        out: dict[str, Any] = {}
        for name in self.__slots__:
            if name == "_graph" or not hasattr(self, name):
                continue
            value = getattr(self, name)
            if isinstance(value, MappingProxyType):
                value = _ReadOnly(dict(value))
            out[name] = value
        return out

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            if isinstance(value, _ReadOnly):
                value = MappingProxyType(value.data)
            object.__setattr__(self, name, value)
        if "map" in state:
            from ttr_desktop.rules.graph import RouteGraph
            object.__setattr__(self, "_graph", RouteGraph(state["map"]))

    def __repr__(self) -> str:
        return (f"PlayerView(seat={self.seat}, phase={self.phase!r}, "
                f"current_seat={self.current_seat}, hand={self.hand})")

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return len(self.players)

    @property
    def graph(self) -> RouteGraph:
        """The map's route network (public, shared)."""
        return self._graph

    @property
    def route_owners(self) -> dict[str, int]:
        """Route id -> seat, for every claimed route."""
        if self._route_owners is None:
            ids = self._graph.route_ids
            self._route_owners = {ids[r]: o for r, o in enumerate(self._owner) if o >= 0}
        return self._route_owners

    @property
    def owner_list(self) -> tuple[int, ...]:
        """Owner per route in map order (-1 when open)."""
        return self._owner

    @property
    def parallel_open(self) -> tuple[bool, ...]:
        """Per route in map order: whether every track of its group is usable at this
        player count (else only one track of a double or triple can be claimed)."""
        return self._group_open

    @property
    def closed_routes(self) -> frozenset[str]:
        """Ids of the unclaimed tracks nobody may claim any more: another track of their
        double or triple is taken and, at this player count, only one track is used."""
        ids, sib, owner, open_ = (self._graph.route_ids, self._graph.r_siblings, self._owner,
                                  self._group_open)
        return frozenset(ids[r] for r, o in enumerate(owner)
                         if o < 0 and sib[r] and not open_[r]
                         and any(owner[s] >= 0 for s in sib[r]))

    @property
    def completed_tickets(self) -> tuple[str, ...]:
        """Ids of this seat's kept tickets already done: by its own routes and the routes
        its stations would borrow if the game ended now — the final scoring's answer
        (``ticket_status``)."""
        if self._completed is None:
            done = self.ticket_status().done
            self._completed = tuple(t.id for t, d in zip(self.tickets, done) if d)
        return self._completed

    @property
    def borrowed_routes(self) -> tuple[str, ...]:
        """Ids of the opponent routes this seat's stations would borrow for its tickets if
        the game ended now (empty without stations)."""
        ids = self._graph.route_ids
        return tuple(ids[r] for r in self.ticket_status().borrowed)

    def borrow_choices(self, seat: int | None = None) -> tuple[tuple[int, ...], ...]:
        """Per station of ``seat`` (default: this view's): the route indices it may borrow
        for tickets (public: stations and claims are on the board)."""
        seat = self.seat if seat is None else seat
        return self._borrow[seat] if self._borrow else ()

    def ticket_status(self, tickets=None, extra: Iterable[int] = (),
                      seat: int | None = None) -> TicketStatus:
        """``graph.ticket_status`` for ``seat`` (default: this view's) over ``tickets``
        (default: this seat's kept tickets), counting the route indices ``extra`` as its
        own (a claim it considers): the one answer every ticket status comes from."""
        plain = tickets is None and not extra and seat is None
        if plain and self._status is not None:
            return self._status
        seat = self.seat if seat is None else seat
        own = [r for r, o in enumerate(self._owner) if o == seat]
        own.extend(extra)
        status = ticket_status(self._graph, own,
                               [(t.a, t.b, t.points) for t in
                                (self.tickets if tickets is None else tickets)],
                               self.borrow_choices(seat))
        if plain:
            self._status = status
        return status

    @property
    def discard_pile(self) -> dict[str, int]:
        """The discard pile since the last reshuffle: card -> count (public)."""
        names = self.card_names
        out: dict[str, int] = {}
        for c in self._discard:
            out[names[c]] = out.get(names[c], 0) + 1
        return out

    @property
    def known_cards(self) -> tuple[dict[str, int], ...]:
        """Per seat: cards it took face up and has not been seen to play."""
        names = self.card_names
        return tuple({names[c]: n for c, n in enumerate(k) if n} for k in self._known)

    @property
    def route_payments(self) -> dict[str, tuple[tuple[str, int], ...]]:
        """Route id -> the cards its claim was paid with."""
        ids = self._graph.route_ids
        return {ids[r]: p for r, p in enumerate(self._paid) if p}

    @property
    def ticket_draws(self) -> tuple[tuple[int, int, int], ...]:
        """Every ticket draw: (seat, drawn, kept); kept is -1 while still choosing."""
        return self._ticket_log

    @property
    def score_log(self) -> tuple[tuple[int, int, str, str], ...]:
        """The score track's entries: (seat, amount, reason, reference)."""
        return self._ledger

    def route_tally(self, seat: int | None = None) -> "RouteTally":
        """Where ``seat``'s (default: this view's) route points came from so far: its own
        claims, others' claims into its markers, and what its claims paid to others'
        markers (``scoring.route_tally``; public)."""
        from ttr_desktop.rules.scoring import route_tally
        return route_tally(self._ledger, self.route_owners, self.seat if seat is None else seat)

    def as_dict(self) -> dict[str, Any]:
        """Every field by name (for tests and debugging)."""
        out = {name: getattr(self, name) for name in _FIELDS}
        for name in ("route_owners", "completed_tickets", "discard_pile", "known_cards",
                     "route_payments", "ticket_draws", "score_log", "parallel_open"):
            out[name] = getattr(self, name)
        return out

    @staticmethod
    def build(game: "Game", seat: int) -> "PlayerView":
        """The view of ``seat`` in ``game``."""
        s, b, rs = game.state, game.board, game.ruleset
        if not 0 <= seat < game.num_players:
            raise ValueError(f"no seat {seat}")
        names = b.card_names
        ctx = game.ctx
        hooks = game._hooks
        extra: dict[str, Any] = {}
        for module in hooks["view_fields"]:
            extra.update(module.view_fields(ctx, seat))
        tokens = game.city_tokens()
        tickets = b.tickets
        const = game._view_consts
        if const is None:
            const = game._view_consts = (
                tuple(game.players), game.variant, game._options_view,
                rs.group_open(2, game.num_players), MappingProxyType(rs.route_points))
        v = PlayerView.__new__(PlayerView)
        v.seat = seat
        v.phase = s.phase
        v.current_seat = s.current
        v.hand = dict(zip(names, s.hands[seat]))
        v.tickets = tuple([tickets[t] for t in s.tickets[seat]])
        v.pending_tickets = tuple([tickets[t] for t in s.pending[seat]])
        v.face_up = tuple([names[c] if c >= 0 else None for c in s.face_up])
        v.deck_size = len(s.deck)
        v.discard_size = len(s.discard)
        decks = s.ticket_decks
        v.ticket_deck_sizes = {k: len(d) for k, d in decks.items()}
        draw_decks = rs.ticket_draw_decks
        v.ticket_deck_size = (len(decks[draw_decks[0]]) if len(draw_decks) == 1
                              else sum(len(decks[d]) for d in draw_decks))
        v.trains_left = tuple(s.trains)
        v.hand_sizes = tuple(map(sum, s.hands))
        v.ticket_counts = tuple(map(len, s.tickets))
        v.pending_counts = tuple(map(len, s.pending))
        v.points = tuple(s.points)
        v.players, v.variant, v.options, v.doubles_open, v.route_points = const[:5]
        v.map = b.map
        v.turn = s.turn
        v.first_seat = s.first_seat
        v.final_round = s.final_turns_left >= 0
        v.final_turns_left = s.final_turns_left if s.final_turns_left >= 0 else None
        v.passes = s.passes
        v.currency = rs.currency
        v.card_names = names
        v.pay = b.pay
        v.extra = extra
        v.prompt = game.prompt() if s.current == seat else ""
        v.city_tokens = tokens
        v.pipeline = tuple((o, n, copy.deepcopy(d)) for o, n, d in s.pipeline) \
            if s.pipeline else ()
        v._owner = tuple(s.owner)
        v._graph = b.graph
        v._group_open = game._group_open
        v._route_owners = None
        v._completed = None
        v._status = None
        v._borrow = (tuple(tuple(game.borrow_choices(i)) for i in range(game.num_players))
                     if hooks["ticket_borrow_choices"] else ())
        v._discard = tuple(s.discard)
        v._known = tuple(map(tuple, s.known))
        v._paid = s.route_paid
        v._ticket_log = s.ticket_log
        v._ledger = s.ledger
        return v
