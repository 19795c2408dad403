"""The game: the public engine API and the core turn logic (rules.md §1).

``Game`` plays one game of one variant. The core knows the base game only:
the card draw, claiming routes, tickets, the end of the game and scoring.
Stations, tunnels and ferries (and later families) are rule modules that
plug into the hooks documented in ``rules/modules/base.py``.
"""

from __future__ import annotations

import random
import secrets
from typing import Any

from ttr_desktop.maps import get_map
from ttr_desktop.maps.model import GameMap
from ttr_desktop.rules import movegen, scoring
from ttr_desktop.rules.actions import (
    Action, ClaimRoute, KeepTickets, cards_text,
)
from ttr_desktop.rules.board import Board
from ttr_desktop.rules.errors import IllegalAction
from ttr_desktop.rules.explain import claim_problem, explain_action
from ttr_desktop.rules.events import Event
from ttr_desktop.rules.modules import make_modules
from ttr_desktop.rules.modules.base import RuleModule
from ttr_desktop.rules.ruleset import Ruleset, get_ruleset
from ttr_desktop.rules.state import GameState, Phase
from ttr_desktop.rules.view import PlayerView

_BOARDS: dict[tuple[int, str, tuple[str, ...]], tuple[Board, list[RuleModule]]] = {}
_RULESET_KEYS: dict[int, tuple[Ruleset, str]] = {}


def _ruleset_key(ruleset: Ruleset) -> str:
    """repr(ruleset), computed once per ruleset object (it keeps the object alive)."""
    hit = _RULESET_KEYS.get(id(ruleset))
    if hit is None or hit[0] is not ruleset:
        if len(_RULESET_KEYS) > 256:
            _RULESET_KEYS.clear()
        hit = _RULESET_KEYS[id(ruleset)] = (ruleset, repr(ruleset))
    return hit[1]


def _compiled(game_map: GameMap, ruleset: Ruleset) -> tuple[Board, list[RuleModule]]:
    """The shared Board and module objects for this map and ruleset."""
    key = (id(game_map), _ruleset_key(ruleset), ruleset.modules)
    hit = _BOARDS.get(key)
    if hit is None:
        board = Board(game_map, ruleset)
        modules = make_modules(ruleset.modules)
        for module in modules:
            module.compile(board)
        board.finalize()
        hit = _BOARDS[key] = (board, modules)
    return hit


def new_game(variant: str = "usa", players: list[str] | int = 2, seed: int | None = None,
             options: dict[str, Any] | None = None, game_map: GameMap | None = None) -> "Game":
    """Start a game of ``variant`` for ``players`` (names, or a count).

    ``options`` switches optional rules (``stations`` for usa), sets §7 knobs
    by name, and ``first_player`` (a seat, or "random"; default seat 0).
    Raises ValueError for an unknown variant, option or player count.
    """
    options = dict(options or {})
    ruleset = get_ruleset(variant, options)
    if isinstance(players, int):
        players = [f"Player {i + 1}" for i in range(players)]
    players = [str(p) for p in players]
    if not ruleset.min_players <= len(players) <= ruleset.max_players:
        raise ValueError(f"{variant} is for {ruleset.min_players}-{ruleset.max_players} "
                         f"players, not {len(players)}")
    if seed is None:
        seed = secrets.randbits(63)
    game_map = game_map or get_map(ruleset.map_id)
    board, modules = _compiled(game_map, ruleset)
    game = Game(variant, ruleset, board, modules, players, int(seed), options)
    game._setup()
    return game


class Game:
    """One game in progress. See architecture.md for the contract."""

    def __init__(self, variant: str, ruleset: Ruleset, board: Board, modules: list[RuleModule],
                 players: list[str], seed: int, options: dict[str, Any]) -> None:
        self.variant = variant
        self.ruleset = ruleset
        self.board = board
        self.modules = modules
        self.players = players
        self.seed = seed
        self.options = options
        self.rng = random.Random(seed)
        self.state = GameState()
        #: Every action applied since setup, in order (saves replay it).
        self.log: list[Action] = []
        self._version = 0
        self._legal_cache: tuple[int, list[Action], set[int]] | None = None
        self._module_by_kind = {k: m for m in modules for k in m.action_kinds}
        self._module_by_phase = {p: m for m in modules for p in m.phases}

    # ------------------------------------------------------------------
    # Public API
    @property
    def map(self) -> GameMap:
        """The loaded map (cities, routes, tickets)."""
        return self.board.map

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return len(self.players)

    @property
    def current_seat(self) -> int:
        """The seat that must decide now."""
        return self.state.current

    @property
    def phase(self) -> Phase:
        """The pending decision."""
        return self.state.phase

    @property
    def is_over(self) -> bool:
        """True once the final round has been played."""
        return self.state.phase is Phase.GAME_OVER

    @property
    def final_round(self) -> bool:
        """True once some seat has triggered the final round."""
        return self.state.final_turns_left >= 0

    def has_module(self, name: str) -> bool:
        """Whether the rule module ``name`` is in play."""
        return name in self.ruleset.modules

    def legal_actions(self) -> list[Action]:
        """Every legal action for the current seat, in a deterministic order."""
        cache = self._legal_cache
        if cache is not None and cache[0] == self._version:
            return list(cache[1])
        acts = self._generate()
        self._legal_cache = (self._version, acts, set(map(id, acts)))
        return list(acts)

    def apply(self, action: Action) -> list[Event]:
        """Carry out ``action`` for the current seat and return what happened.

        Raises IllegalAction (and changes nothing) when the action is not legal now.
        """
        if self.state.phase is Phase.GAME_OVER:
            raise IllegalAction("The game is over.")
        cache = self._legal_cache
        if cache is None or cache[0] != self._version:
            self.legal_actions()
            cache = self._legal_cache
        if id(action) not in cache[2] and action not in cache[1]:
            raise IllegalAction(self.explain(action) or f"You cannot {action.describe()} now.")
        events = self._dispatch(action)
        if action.kind != "pass":
            self.state.passes = 0
        self.log.append(action)
        self._version += 1
        return events

    def explain(self, action: Action) -> str | None:
        """Why ``action`` is not legal now (None if it is)."""
        if self.state.phase is Phase.GAME_OVER:
            return "The game is over."
        if action in self.legal_actions():
            return None
        return explain_action(self, action)

    def scores(self) -> list[scoring.ScoreBreakdown]:
        """One breakdown per seat: ``.total`` plus named ``.parts`` (final scoring as of now)."""
        return scoring.score_game(self)

    def result(self) -> scoring.Result:
        """Winners (several on a shared victory), the tie-break used, and the scores."""
        return scoring.decide(self, self.scores())

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know: own hand and tickets, public counts, never the deck order."""
        return PlayerView.build(self, seat)

    def clone(self) -> "Game":
        """An independent copy (same seed, state, log and random state)."""
        g = Game.__new__(Game)
        g.variant = self.variant
        g.ruleset = self.ruleset
        g.board = self.board
        g.modules = self.modules
        g.players = list(self.players)
        g.seed = self.seed
        g.options = dict(self.options)
        g.rng = random.Random()
        g.rng.setstate(self.rng.getstate())
        g.state = self.state.copy(self._copy_ext)
        g.log = list(self.log)
        g._version = self._version
        g._legal_cache = self._legal_cache
        g._module_by_kind = self._module_by_kind
        g._module_by_phase = self._module_by_phase
        return g

    # Helpers for players, the window and bots -------------------------
    def payments_for(self, route_id: str) -> list[ClaimRoute]:
        """The legal ways for the current seat to claim ``route_id`` (empty if none)."""
        return [a for a in self.legal_actions()
                if a.kind == "claim_route" and a.route_id == route_id]

    def claim_problem(self, route_id: str) -> str | None:
        """Why the current seat cannot claim ``route_id`` now, or None if it can."""
        if self.payments_for(route_id):
            return None
        return claim_problem(self, route_id, None)

    def completed_tickets(self, seat: int) -> list[str]:
        """Ids of ``seat``'s kept tickets already connected by its own routes."""
        labels = scoring.components(self, seat, ())
        b = self.board
        return [b.ticket_ids[t] for t in self.state.tickets[seat]
                if labels[b.t_a[t]] == labels[b.t_b[t]]]

    def longest_path(self, seat: int) -> tuple[int, list[str]]:
        """Length and route ids of ``seat``'s longest continuous path (a trail)."""
        length, routes = scoring.longest_trail(self, seat)
        return length, [self.board.route_ids[r] for r in routes]

    def total_cards(self) -> int:
        """Train cards in the deck, discard, display, hands and held by modules."""
        s = self.state
        held = sum(len(m.held_cards(self)) for m in self.modules)
        return (len(s.deck) + len(s.discard) + sum(1 for c in s.face_up if c >= 0)
                + sum(sum(h) for h in s.hands) + held)

    # ------------------------------------------------------------------
    # Setup (rules.md §1.2; Europe §1.10)
    def _setup(self) -> None:
        rs, b, s = self.ruleset, self.board, self.state
        n = self.num_players
        first = self.options.get("first_player", 0)
        if first == "random":
            first = self.rng.randrange(n)
        if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < n:
            raise ValueError(f"first_player must be a seat from 0 to {n - 1} or 'random'")

        deck = []
        for name, count in rs.deck_composition().items():
            deck.extend([b.card_index[name]] * count)
        self.rng.shuffle(deck)
        s.deck = deck
        s.hands = [[0] * b.n_cards for _ in range(n)]
        for seat in range(n):
            for _ in range(rs.initial_hand):
                s.hands[seat][s.deck.pop()] += 1
        s.face_up = [-1] * rs.face_up_slots
        self._fill_display([])

        decks: dict[str, list[int]] = {"regular": [], "long": []}
        for i, kind in enumerate(b.t_deck):
            decks[kind].append(i)
        for cards in decks.values():
            self.rng.shuffle(cards)
        s.ticket_decks = decks
        s.tickets = [[] for _ in range(n)]
        s.pending = [[] for _ in range(n)]
        for seat in range(n):
            for kind, count in rs.initial_tickets:
                for _ in range(min(count, len(decks[kind]))):
                    s.pending[seat].append(decks[kind].pop())

        s.owner = [-1] * b.n_routes
        s.trains = [rs.trains_per_player] * n
        s.points = [0] * n
        s.first_seat = first
        s.current = first
        s.choosing_left = n
        s.phase = Phase.CHOOSE_INITIAL_TICKETS
        for module in self.modules:
            module.setup(self)

    def _copy_ext(self, ext: dict[str, Any]) -> dict[str, Any]:
        if not ext:
            return {}
        by_name = {m.name: m for m in self.modules}
        return {k: (by_name[k].copy_state(v) if k in by_name else v) for k, v in ext.items()}

    # ------------------------------------------------------------------
    # Move generation (rules/movegen.py)
    def _generate(self) -> list[Action]:
        return movegen.generate(self)

    # ------------------------------------------------------------------
    # Carrying out actions
    def _dispatch(self, action: Action) -> list[Event]:
        kind = action.kind
        if kind == "draw_blind":
            return self._do_draw_blind()
        if kind == "draw_face_up":
            return self._do_draw_face_up(action.slot)
        if kind == "claim_route":
            return self._do_claim(action)
        if kind == "draw_tickets":
            return self._do_draw_tickets()
        if kind == "keep_tickets":
            return self._do_keep(action)
        if kind == "pass":
            return self._do_pass()
        return self._module_by_kind[kind].apply(self, action)

    def _do_pass(self) -> list[Event]:
        """Pass (A-01); a whole round of passes ends a game nobody can move in."""
        s = self.state
        s.passes += 1
        ev = [Event("passed", s.current)]
        if self.ruleset.end_on_pass_round and s.passes >= self.num_players:
            s.turn += 1
            ev.append(Event("stalemate", None, {"passes": s.passes}))
            self._game_over(ev)
            return ev
        self.end_turn(ev)
        return ev

    def _game_over(self, ev: list[Event]) -> None:
        self.state.phase = Phase.GAME_OVER
        ev.append(Event("game_over", None, {"totals": [sc.total for sc in self.scores()]}))

    def draw_card(self, ev: list[Event]) -> int:
        """Top card of the deck, reshuffling the discard on demand (A-03); -1 if none."""
        s = self.state
        if not s.deck:
            if not s.discard:
                return -1
            s.deck = s.discard
            s.discard = []
            self.rng.shuffle(s.deck)
            ev.append(Event("deck_reshuffled", None, {"size": len(s.deck)}))
        return s.deck.pop()

    def _fill_display(self, ev: list[Event]) -> None:
        """Fill empty face-up slots, then apply the three-locomotive refresh (§1.4.3, A-02)."""
        s, b = self.state, self.board
        face = s.face_up
        for slot in range(len(face)):
            if face[slot] < 0:
                card = self.draw_card(ev)
                if card < 0:
                    break
                face[slot] = card
                ev.append(Event("face_up_replaced", None,
                                {"slot": slot, "card": b.card_names[card]}))
        refreshes = 0
        need, limit = self.ruleset.refresh_locomotives, self.ruleset.max_consecutive_refreshes
        refresh = b.refresh_cards
        while (refreshes < limit and sum(face.count(c) for c in refresh) >= need
               and (s.deck or s.discard)):
            refreshes += 1
            s.discard.extend(c for c in face if c >= 0)
            for slot in range(len(face)):
                face[slot] = self.draw_card(ev)
            ev.append(Event("face_up_refreshed", None, {
                "cards": [b.card_names[c] for c in face if c >= 0]}))

    def _after_first_pick(self, ev: list[Event], took: int | None) -> None:
        """After the first card: end the draw or wait for the second (§1.4.2)."""
        s, b = self.state, self.board
        if took is not None and took in b.first_pick_only:
            self.end_turn(ev)
            return
        second_possible = bool(s.deck or s.discard) or any(
            c >= 0 and c not in b.first_pick_only for c in s.face_up)
        if second_possible:
            s.phase = Phase.SECOND_CARD
        else:
            self.end_turn(ev)

    def _do_draw_blind(self) -> list[Event]:
        s = self.state
        ev: list[Event] = []
        card = self.draw_card(ev)
        s.hands[s.current][card] += 1
        ev.append(Event("card_drawn", s.current, {"source": "deck",
                                                  "card": self.board.card_names[card]},
                        ("card",)))
        if s.phase is Phase.TURN:
            self._after_first_pick(ev, None)
        else:
            self.end_turn(ev)
        return ev

    def _do_draw_face_up(self, slot: int) -> list[Event]:
        s = self.state
        ev: list[Event] = []
        card = s.face_up[slot]
        s.hands[s.current][card] += 1
        s.face_up[slot] = -1
        ev.append(Event("card_drawn", s.current, {"source": "face_up", "slot": slot,
                                                  "card": self.board.card_names[card]}))
        self._fill_display(ev)
        if s.phase is Phase.TURN:
            self._after_first_pick(ev, card)
        else:
            self.end_turn(ev)
        return ev

    def _do_claim(self, action: ClaimRoute) -> list[Event]:
        s, b = self.state, self.board
        seat = s.current
        r = b.route_index[action.route_id]
        paid = b.hand_from_cards(action.cards)
        for module in self.modules:
            taken = module.before_claim(self, seat, r, paid)
            if taken is not None:
                return taken
        ev = self.complete_claim(seat, r, paid)
        self.end_turn(ev)
        return ev

    def complete_claim(self, seat: int, r: int, paid: list[int]) -> list[Event]:
        """Pay ``paid``, place the trains, score the route (§1.5). Used by modules too."""
        s, b = self.state, self.board
        hand = s.hands[seat]
        # Cities reachable from each end before the claim (own routes only).
        reach_a = scoring.reachable(self, seat, b.r_a[r])
        reach_b = scoring.reachable(self, seat, b.r_b[r])
        for card, n in enumerate(paid):
            if n:
                hand[card] -= n
                s.discard.extend([card] * n)
        s.owner[r] = seat
        s.trains[seat] -= b.r_len[r]
        s.points[seat] += b.r_points[r]
        ev = [Event("route_claimed", seat, {
            "route": b.route_ids[r], "cards": cards_text(b.cards_tuple_from(paid)),
            "points": b.r_points[r]})]
        # A ticket is newly complete when the route joined its two cities' networks.
        if b.r_b[r] not in reach_a:
            for t in s.tickets[seat]:
                ta, tb = b.t_a[t], b.t_b[t]
                if (ta in reach_a and tb in reach_b) or (ta in reach_b and tb in reach_a):
                    ev.append(Event("ticket_completed", seat, {"ticket": b.ticket_ids[t]},
                                    secret=True))
        return ev

    def _do_draw_tickets(self) -> list[Event]:
        s = self.state
        deck = s.ticket_decks["regular"]
        n = min(self.ruleset.ticket_draw, len(deck))
        drawn = [deck.pop() for _ in range(n)]
        s.pending[s.current] = drawn
        s.phase = Phase.KEEP_TICKETS
        return [Event("tickets_drawn", s.current, {
            "count": n, "tickets": [self.board.ticket_ids[t] for t in drawn]}, ("tickets",))]

    def _do_keep(self, action: KeepTickets) -> list[Event]:
        s, b, rs = self.state, self.board, self.ruleset
        seat = s.current
        initial = s.phase is Phase.CHOOSE_INITIAL_TICKETS
        kept = [b.ticket_index[t] for t in action.tickets]
        returned = [b.ticket_index[t] for t in action.returned]
        s.tickets[seat].extend(kept)
        s.pending[seat] = []
        if initial and rs.initial_returns == "box":
            s.boxed_tickets.extend(returned)
        else:
            for t in returned:  # the first returned ends up on top of the later ones
                s.ticket_decks[b.t_deck[t]].insert(0, t)
        ev = [Event("tickets_kept", seat, {"kept": len(kept), "returned": len(returned),
                                           "tickets": list(action.tickets)}, ("tickets",))]
        for t in kept if seat in s.owner else ():   # a kept ticket may be complete already
            if b.t_b[t] in scoring.reachable(self, seat, b.t_a[t]):
                ev.append(Event("ticket_completed", seat, {"ticket": b.ticket_ids[t]},
                                secret=True))
        if initial:
            s.choosing_left -= 1
            if s.choosing_left > 0:
                s.current = (seat + 1) % self.num_players
            else:
                s.current = s.first_seat
                s.phase = Phase.TURN
                ev.append(Event("turn_started", s.current, {"turn": s.turn + 1}))
        else:
            self.end_turn(ev)
        return ev

    def end_turn(self, ev: list[Event]) -> None:
        """Close the current turn: end trigger, final round, next seat (§1.7)."""
        s = self.state
        seat = s.current
        s.turn += 1
        # Empty face-up slots refill once cards are back in the discard (§1.4.4).
        if -1 in s.face_up and (s.deck or s.discard):
            self._fill_display(ev)
        if s.final_turns_left < 0:
            if s.trains[seat] <= self.ruleset.end_trigger_trains:
                s.final_turns_left = self.num_players
                ev.append(Event("final_round", seat, {"trains_left": s.trains[seat]}))
        else:
            s.final_turns_left -= 1
            if s.final_turns_left == 0:
                self._game_over(ev)
                return
        s.current = (seat + 1) % self.num_players
        s.phase = Phase.TURN
        ev.append(Event("turn_started", s.current, {"turn": s.turn + 1}))
