"""The game: the public engine API and the core turn logic (rules.md §1).

``Game`` plays one game of one variant. The core knows the base game only:
the card draw, claiming routes, tickets, the end of the game and scoring.
Stations, tunnels and ferries (and later families) are rule modules that
plug into the hooks documented in ``rules/modules/base.py``.
"""

from __future__ import annotations

import itertools
import random
import secrets
from typing import Any

from ttr_desktop.maps import get_map
from ttr_desktop.maps.model import GameMap
from ttr_desktop.rules import scoring
from ttr_desktop.rules.actions import (
    Action, ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets, Pass, cards_text,
)
from ttr_desktop.rules.board import LOCO, Board
from ttr_desktop.rules.errors import IllegalAction
from ttr_desktop.rules.events import Event
from ttr_desktop.rules.modules import make_modules
from ttr_desktop.rules.modules.base import RuleModule
from ttr_desktop.rules.ruleset import Ruleset, get_ruleset
from ttr_desktop.rules.state import GameState, Phase
from ttr_desktop.rules.view import PlayerView

DRAW_BLIND = DrawBlind()
DRAW_TICKETS = DrawTickets()
PASS = Pass()

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
        return _explain(self, action)

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
        return _claim_problem(self, route_id, None)

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
    # Move generation
    def _generate(self) -> list[Action]:
        s = self.state
        phase = s.phase
        if phase is Phase.TURN:
            return self._turn_actions()
        if phase is Phase.SECOND_CARD:
            return self._draw_actions(second=True)
        if phase is Phase.KEEP_TICKETS or phase is Phase.CHOOSE_INITIAL_TICKETS:
            return self._keep_actions()
        if phase is Phase.GAME_OVER:
            return []
        module = self._module_by_phase.get(phase.value)
        if module is None:
            return []
        return module.phase_actions(self, phase.value) or []

    def _turn_actions(self) -> list[Action]:
        s, b, rs = self.state, self.board, self.ruleset
        seat = s.current
        acts = self._draw_actions(second=False)
        # Claims (rules.md §1.5): only routes the hand could pay for are examined.
        hand = s.hands[seat]
        owner = s.owner
        trains = s.trains[seat]
        closed_doubles = self.num_players < rs.doubles_min_players
        r_len, r_color, r_min, sib = b.r_len, b.r_color, b.r_min_locos, b.r_siblings
        n_colors = b.n_colors
        locos = hand[LOCO]
        affordable, top_len = b.affordable, b.max_len
        cands: list[int] = []
        best = 0
        for c in range(n_colors):
            have = hand[c] + locos
            if have:
                if have > best:
                    best = have
                cands.extend(affordable[c][have if have < top_len else top_len])
        if locos > best:
            best = locos
        if best:
            cands.extend(affordable[n_colors][best if best < top_len else top_len])
        if cands:
            cands.sort()
            pay_table, all_locos = b.pay_table, b.all_locos
            held = [c for c in range(n_colors) if hand[c]]
            for r in cands:
                if owner[r] >= 0:
                    continue
                length = r_len[r]
                if length > trains or r_min[r] > locos:
                    continue
                if sib[r]:
                    blocked = False
                    for o in sib[r]:
                        w = owner[o]
                        if w == seat or (w >= 0 and closed_doubles):
                            blocked = True
                            break
                    if blocked:
                        continue
                # Payments: k cards of one colour (1 <= k) plus locomotives (see Board).
                lo = length - locos
                if lo < 1:
                    lo = 1
                top = length - r_min[r]
                table = pay_table[r]
                col = r_color[r]
                for c in ((col,) if col >= 0 else held):
                    hi = hand[c]
                    if hi > top:
                        hi = top
                    if hi >= lo:
                        acts.extend(table[c][lo:hi + 1])
                if locos >= length:
                    acts.append(all_locos[r])
        # Tickets (rules.md §1.6, A-05).
        if s.ticket_decks["regular"] or not rs.ticket_draw_needs_tickets:
            if s.ticket_decks["regular"]:
                acts.append(DRAW_TICKETS)
        for module in self.modules:
            acts.extend(module.turn_actions(self, seat))
        if not acts and rs.pass_when_stuck:
            acts.append(PASS)
        return acts

    def _draw_actions(self, second: bool) -> list[Action]:
        s, b = self.state, self.board
        acts: list[Action] = []
        can_blind = bool(s.deck) or bool(s.discard)
        if can_blind:
            acts.append(DRAW_BLIND)
        if can_blind or self.ruleset.face_up_when_deck_empty or second:
            only_first = b.first_pick_only
            table = b.face_up_actions
            for slot, card in enumerate(s.face_up):
                if card < 0 or (second and card in only_first):
                    continue
                acts.append(table[slot][card])
        return acts

    def _keep_actions(self) -> list[Action]:
        s, b, rs = self.state, self.board, self.ruleset
        pending = s.pending[s.current]
        initial = s.phase is Phase.CHOOSE_INITIAL_TICKETS
        need = rs.initial_keep_min if initial else rs.ticket_keep_min
        need = min(need, len(pending))
        ordered = (rs.returned_ticket_order == "player"
                   and not (initial and rs.initial_returns == "box"))
        key = (tuple(pending), need, ordered)
        acts = b.keep_cache.get(key)
        if acts is None:
            if len(b.keep_cache) > 20000:  # bounded: long tournaments see many draws
                b.keep_cache.clear()
            acts = b.keep_cache[key] = _keep_choices([b.ticket_ids[t] for t in pending], need,
                                                     ordered)
        return list(acts)

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


def _keep_choices(ids: list[str], need: int, ordered: bool) -> list[Action]:
    """Every legal KeepTickets for these drawn tickets (returns in every order if ``ordered``)."""
    acts: list[Action] = []
    for size in range(need, len(ids) + 1):
        for kept in itertools.combinations(range(len(ids)), size):
            keep = tuple(ids[i] for i in kept)
            rest = [ids[i] for i in range(len(ids)) if i not in kept]
            orders = itertools.permutations(rest) if ordered and len(rest) > 1 else [rest]
            for order in orders:
                acts.append(KeepTickets(keep, tuple(order)))
    return acts


# ----------------------------------------------------------------------
# Explanations for illegal actions, in a player's words.
def _explain(game: Game, action: Action) -> str:
    s, b = game.state, game.board
    phase = s.phase
    kind = getattr(action, "kind", None)
    if not isinstance(action, Action):
        return f"{action!r} is not an action."
    if phase is Phase.CHOOSE_INITIAL_TICKETS and kind != "keep_tickets":
        return (f"{game.players[s.current]} must first choose which starting tickets to keep.")
    if phase is Phase.KEEP_TICKETS and kind != "keep_tickets":
        return "Choose which of the drawn tickets to keep first."
    if phase is Phase.SECOND_CARD and kind not in ("draw_blind", "draw_face_up"):
        return "Take your second card first: from the deck or a face-up card."
    if phase is Phase.PAY_TUNNEL and kind not in ("pay_tunnel", "decline_tunnel"):
        return "Pay the tunnel's extra cards or give it up first."
    if kind in game._module_by_kind:
        text = game._module_by_kind[kind].explain(game, action)
        if text:
            return text
    if kind == "draw_blind":
        return "The deck and the discard pile are both empty: no card can be drawn."
    if kind == "draw_face_up":
        slot = getattr(action, "slot", -1)
        if not isinstance(slot, int) or not 0 <= slot < len(s.face_up) or s.face_up[slot] < 0:
            return "There is no face-up card in that place."
        card = b.card_names[s.face_up[slot]]
        if action.card != card:
            return f"The face-up card there is {card}, not {action.card}."
        if phase is Phase.SECOND_CARD and s.face_up[slot] in b.first_pick_only:
            return "A face-up locomotive can only be taken as your first and only card."
        return "Face-up cards cannot be taken now: the deck and discard pile are empty."
    if kind == "draw_tickets":
        return "The ticket deck is empty."
    if kind == "keep_tickets":
        if phase not in (Phase.KEEP_TICKETS, Phase.CHOOSE_INITIAL_TICKETS):
            return "There are no drawn tickets to keep."
        pending = {b.ticket_ids[t] for t in s.pending[s.current]}
        chosen = list(action.tickets) + list(action.returned)
        if sorted(chosen) != sorted(pending):
            return "Keep or return exactly the tickets you drew, each once."
        initial = phase is Phase.CHOOSE_INITIAL_TICKETS
        need = game.ruleset.initial_keep_min if initial else game.ruleset.ticket_keep_min
        return f"You must keep at least {min(need, len(pending))} of these tickets."
    if kind == "claim_route":
        return _claim_problem(game, action.route_id, action.cards) or (
            "That payment does not fit this route.")
    if kind == "pass":
        return "You can only pass when no other action is possible."
    return f"You cannot {action.describe()} now."


def _claim_problem(game: Game, route_id: str, cards: Any) -> str | None:
    s, b, rs = game.state, game.board, game.ruleset
    if s.phase is not Phase.TURN:
        return "You can claim a route only at the start of your turn."
    r = b.route_index.get(route_id)
    if r is None:
        return f"There is no route {route_id!r} on this map."
    route = b.routes[r]
    where = f"{game.map.cities[route.a].name}–{game.map.cities[route.b].name}"
    seat = s.current
    if s.owner[r] >= 0:
        return f"{where} already belongs to {game.players[s.owner[r]]}."
    for o in b.r_siblings[r]:
        if s.owner[o] == seat:
            return f"You already own the other track of {where}; nobody may own both."
        if s.owner[o] >= 0 and game.num_players < rs.doubles_min_players:
            return (f"With {game.num_players} players only one track of a double route is "
                    f"used, and {game.players[s.owner[o]]} has taken {where}.")
    if b.r_len[r] > s.trains[seat]:
        return f"{where} needs {b.r_len[r]} trains; you have {s.trains[seat]} left."
    hand = s.hands[seat]
    need = b.r_len[r]
    color = route.color
    locos = hand[LOCO]
    min_locos = b.r_min_locos[r]
    if locos < min_locos:
        return (f"{where} is a ferry: it needs {min_locos} locomotive(s); you have {locos}.")
    if cards is not None:
        paid = b.hand_from_cards(tuple(cards))
        if paid is None:
            return "That payment names a card that does not exist."
        if sum(paid) != need:
            return f"{where} takes exactly {need} cards; that payment has {sum(paid)}."
        for card, n in enumerate(paid):
            if n > hand[card]:
                return (f"To claim {where} with {n} {b.card_names[card]} you need "
                        f"{n - hand[card]} more {b.card_names[card]} card(s): you hold "
                        f"{hand[card]}.")
        colours = [c for c in range(b.n_colors) if paid[c]]
        if len(colours) > 1:
            return "A route is paid in one colour (plus locomotives); colours cannot be mixed."
        if colours and color != "gray" and b.card_names[colours[0]] != color:
            return f"{where} is {color}: pay {color} cards or locomotives."
        if paid[LOCO] < min_locos:
            return f"{where} needs at least {min_locos} locomotive(s)."
        return None
    if color == "gray":
        best = max(hand[c] for c in range(b.n_colors))
        return (f"{where} needs {need} cards of one colour (locomotives are wild); your best "
                f"colour gives {best} and you have {locos} locomotive(s).")
    return (f"{where} needs {need} {color} cards (locomotives are wild); you have "
            f"{hand[b.card_index[color]]} {color} and {locos} locomotive(s).")
