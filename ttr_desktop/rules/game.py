"""The game: the public engine API and the core turn logic (rules.md §1).

``Game`` plays one game of one variant. The core knows the base game only —
card draws, claims, tickets, the end of the game, scoring — and runs a small
pipeline of steps (``state.pipeline``) that rule modules extend through the
hooks in ``rules/modules/base.py``. Modules act through a ``RuleContext``;
only the core ends a turn.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Collection, Sequence
from types import MappingProxyType
from typing import Any

from ttr_desktop.maps import get_map
from ttr_desktop.maps.model import GameMap
from ttr_desktop.rules import movegen, scoring
from ttr_desktop.rules.actions import Action, ClaimRoute, DrawTickets, KeepTickets, cards_text
from ttr_desktop.rules.board import Board
from ttr_desktop.rules.context import ABORT, DONE, OPEN, RuleContext
from ttr_desktop.rules.errors import IllegalAction
from ttr_desktop.rules.events import Event
from ttr_desktop.rules.explain import claim_problem, explain_action
from ttr_desktop.rules.graph import (
    TicketStatus, components, group_open_flags, longest_trail, owned, parallel_block,
    place_reached, reachable, ticket_status,
)
from ttr_desktop.rules.modules import make_modules
from ttr_desktop.rules.modules.base import OPTIONAL_HOOKS, RuleModule
from ttr_desktop.rules.ruleset import Ruleset, check_playable, get_ruleset
from ttr_desktop.rules.state import GameState, Phase
from ttr_desktop.rules.view import PlayerView


class Compiled:
    """What every game of one (map, ruleset) shares: the board, the module objects and,
    per hook, the modules that implement it."""

    def __init__(self, game_map: GameMap, ruleset: Ruleset) -> None:
        self.board = Board(game_map, ruleset)
        self.modules: list[RuleModule] = make_modules(ruleset.modules)
        for module in self.modules:
            module.compile(self.board)
        self.board.finalize([t for t in (m.claim_terms(self.board) for m in self.modules)
                             if t is not None])
        self.hooks: dict[str, list[RuleModule]] = {
            hook: [m for m in self.modules if m.overrides(hook)] for hook in OPTIONAL_HOOKS}
        self.by_kind = {k: m for m in self.modules for k in m.action_kinds}
        self.by_phase = {p: m for m in self.modules for p in m.phases}
        self.by_name = {m.name: m for m in self.modules}
        self.by_source = {}
        for m in self.modules:
            for name in getattr(m, "sources", ()):
                self.by_source[name] = m
        self._group_open: dict[int, list[bool]] = {}

    def group_open(self, ruleset: Ruleset, players: int) -> tuple[bool, ...]:
        """Per route: every track of its group usable at this player count (cached)."""
        flags = self._group_open.get(players)
        if flags is None:
            flags = self._group_open[players] = tuple(
                group_open_flags(self.board.graph, ruleset, players))
        return flags


_COMPILED: dict[tuple[int, str], Compiled] = {}
_RULESET_KEYS: dict[int, tuple[Ruleset, str]] = {}


def _ruleset_key(ruleset: Ruleset) -> str:
    """repr(ruleset), computed once per ruleset object (it keeps the object alive)."""
    hit = _RULESET_KEYS.get(id(ruleset))
    if hit is None or hit[0] is not ruleset:
        if len(_RULESET_KEYS) > 256:
            _RULESET_KEYS.clear()
        hit = _RULESET_KEYS[id(ruleset)] = (ruleset, repr(ruleset))
    return hit[1]


def compiled(game_map: GameMap, ruleset: Ruleset) -> Compiled:
    """The shared compiled board and modules for this map and ruleset."""
    key = (id(game_map), _ruleset_key(ruleset))
    hit = _COMPILED.get(key)
    if hit is None or hit.board.map is not game_map:
        if len(_COMPILED) > 128:
            _COMPILED.clear()
        hit = _COMPILED[key] = Compiled(game_map, ruleset)
    return hit


def new_game(variant: str = "usa", players: list[str] | int = 2, seed: int | None = None,
             options: dict[str, Any] | None = None, game_map: GameMap | None = None) -> "Game":
    """Start a game of ``variant`` for ``players`` (names, or a count).

    ``options`` switches optional rules (``stations`` for usa), sets §7 knobs
    (``KNOB_FIELDS``) and module knobs by name, and ``first_player`` (a seat, or
    "random" for a seat drawn from the game's seed; default seat 0, the seat of the
    first player name). ``game_options(variant)`` lists every option with its default.
    Raises ValueError for an unknown variant, option or player count, and MapError
    (a ValueError naming the map file and field) for a map that cannot seat that many
    players under the variant's rules (``ruleset.check_playable``).
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
    game_map = game_map or get_map(ruleset.map_id, ruleset.ticket_sets)
    check_playable(ruleset, game_map, len(players))
    game = Game(variant, ruleset, compiled(game_map, ruleset), players, int(seed), options)
    game._setup()
    return game


class _MadeOnFirstUse:
    """A game's rule context when the game has none yet (a clone): made on first use
    and kept in the game's own fields, which later reads find first (a non-data
    descriptor, so reading any other field of a game stays as fast as before)."""

    def __get__(self, game: "Game | None", owner: type | None = None):
        if game is None:
            return self
        ctx = game.__dict__["ctx"] = RuleContext(game)
        return ctx


class Game:
    """One game in progress. See architecture.md for the contract."""

    #: The rule context; a clone makes its own when first asked (a search's copy in a
    #: family without rule modules may never need one).
    ctx = _MadeOnFirstUse()

    def __init__(self, variant: str, ruleset: Ruleset, shared: Compiled, players: list[str],
                 seed: int, options: dict[str, Any]) -> None:
        self.variant = variant
        self.ruleset = ruleset
        self._shared = shared
        self.board = shared.board
        self.modules = shared.modules
        self.players = players
        self.seed = seed
        self.options = options
        self._rng = random.Random(seed)
        self._rng_shared = False
        self.state = GameState()
        #: Every action applied since setup, in order (saves replay it).
        self.log: list[Action] = []
        self._log_shared = False
        #: Quiet: no events are built (search playouts); see ``quiet()``.
        self._quiet = False
        self._version = 0
        self._legal_cache: tuple[int, list[Action]] | None = None
        self._ev: list[Event] = []
        self.ctx = RuleContext(self)
        self._hooks = shared.hooks
        self._module_by_kind = shared.by_kind
        self._module_by_phase = shared.by_phase
        self._group_open = shared.group_open(ruleset, len(players))
        self._veto_draw = shared.hooks["veto_draw"]
        self._options_view = MappingProxyType(dict(options))
        self._view_consts: tuple | None = None
        #: The last claim's pay vector and the payment as its action named it.
        self._claim_cards: tuple[list[int], tuple] | None = None

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
    def phase(self) -> str:
        """The pending decision (a phase name: ``Phase`` or a module's)."""
        return self.state.phase

    @property
    def version(self) -> int:
        """Counts applied actions: changes whenever the game changes."""
        return self._version

    @property
    def is_over(self) -> bool:
        """True once the final round has been played."""
        return self.state.phase == _GAME_OVER

    @property
    def final_round(self) -> bool:
        """True once some seat has triggered the final round."""
        return self.state.final_turns_left >= 0

    @property
    def rng(self) -> random.Random:
        """The game's own random generator."""
        return self._random()

    def has_module(self, name: str) -> bool:
        """Whether the rule module ``name`` is in play."""
        return name in self.ruleset.modules

    def legal_actions(self, canonical: bool = False) -> list[Action]:
        """Every legal action for the current seat, in a deterministic order.

        ``canonical=True``: one payment per claimable route (the one a player is offered
        first), so search branches over tens of moves, not hundreds; every other kind of
        action as usual. Each is legal; the payments left out are legal too."""
        if canonical:
            return movegen.generate(self, True)
        cache = self._legal_cache
        if cache is not None and cache[0] == self._version:
            return list(cache[1])
        acts = movegen.generate(self)
        self._legal_cache = (self._version, acts)
        return list(acts)

    def canonical_claim(self, route: int | str) -> ClaimRoute | None:
        """For search: the claim of one route (index or id) that ``legal_actions(
        canonical=True)`` would list — the payment a player is offered first — or None
        when the current seat cannot claim it now."""
        r = self.board.route_index.get(route) if isinstance(route, str) else route
        if r is None:
            return None
        return movegen.canonical_claim(self, r)

    def first_claim(self, routes: Sequence[int]) -> ClaimRoute | None:
        """For search: ``canonical_claim`` of the first route (by index) in ``routes``
        the current seat can claim now, or None — a policy's "the best route I can pay
        for", without asking route by route."""
        return movegen.first_claim(self, routes)

    def first_draw(self, cards: Collection[int]) -> Action | None:
        """For search: the first face-up draw (in slot order) of a card whose index is
        in ``cards`` that is legal now, else the blind draw if legal, else None — a
        policy's "take a card I want, else draw blind", without listing the draws."""
        return movegen.first_draw(self, cards)

    def draw_choices(self) -> list[Action]:
        """For search: only the card draws legal now (blind and face-up), in
        ``legal_actions()`` order."""
        phase = self.state.phase
        if phase == _TURN_PHASE:
            return movegen.draw_actions(self, False)
        if phase == _SECOND_PHASE:
            return movegen.draw_actions(self, True)
        return []

    def module_choices(self) -> list[Action]:
        """For search: only the rule modules' own turn actions legal now (a station, a
        passenger move), in ``legal_actions()`` order; [] outside the TURN phase."""
        if self.state.phase != _TURN_PHASE:
            return []
        seat = self.state.current
        out: list[Action] = []
        for module in self._hooks["turn_actions"]:
            out.extend(module.turn_actions(self.ctx, seat))
        return out

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is legal now — the same answer as ``action in
        legal_actions()``, without listing every legal action (constant time for the
        core's actions)."""
        if self.state.phase == _GAME_OVER:
            return False
        verdict = movegen.check(self, action)
        if verdict is None:  # an action the quick check does not know: ask the list
            cache = self._legal_cache
            if cache is None or cache[0] != self._version:
                self.legal_actions()
                cache = self._legal_cache
            return action in cache[1]
        return verdict

    def quiet(self, on: bool = True) -> "Game":
        """Stop (or resume) building events — for search playouts, where nobody reads
        them. A quiet game plays exactly the same moves; ``apply`` returns []."""
        self._quiet = on
        return self

    def apply(self, action: Action, check: bool = True) -> list[Event]:
        """Carry out ``action`` for the current seat and return what happened.

        Raises IllegalAction (and changes nothing) when the action is not legal now.
        ``check=False`` skips that check, for search that already knows the action is
        legal (an illegal one then leaves the game in an undefined state).
        """
        if check and not self.is_legal(action):
            if self.state.phase == _GAME_OVER:
                raise IllegalAction("The game is over.")
            raise IllegalAction(self.explain(action) or f"You cannot {action.describe()} now.")
        self._ev = events = []
        self._dispatch(action)
        if action.kind != "pass":
            self.state.passes = 0
        if self._log_shared:
            self.log = list(self.log)
            self._log_shared = False
        self.log.append(action)
        self._version += 1
        return [] if self._quiet else events

    def explain(self, action: Action) -> str | None:
        """Why ``action`` is not legal now (None if it is)."""
        if self.state.phase == Phase.GAME_OVER:
            return "The game is over."
        if self.is_legal(action):
            return None
        return explain_action(self, action)

    def scores(self) -> list[scoring.ScoreBreakdown]:
        """One breakdown per seat: ``.total`` plus named ``.parts`` (final scoring as of now)."""
        return scoring.score_game(self)

    def score_totals(self) -> list[int]:
        """Each seat's ``scores()[seat].total``, without the breakdowns (quicker: a
        search asks it at the end of every rollout)."""
        return scoring.score_totals(self)

    def result(self) -> scoring.Result:
        """Winners (several on a shared victory), the tie-break used, the ranking, the scores."""
        return scoring.decide(self, self.scores())

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know: own hand and tickets, the public record, never the deck
        order or another seat's secrets."""
        return PlayerView.build(self, seat)

    def clone(self, rng: random.Random | None = None) -> "Game":
        """An independent copy (same seed, state, log and random state).

        ``rng`` gives the copy a generator of its own instead of the same random
        state (search: the copy's future shuffles differ). Copying the random
        state is deferred until either game shuffles, and making the copy's rule
        context until something asks for it, so a clone costs a few microseconds."""
        g = Game.__new__(Game)
        g.__dict__ = fields = self.__dict__.copy()   # the shared, read-only parts in one go
        fields.pop("ctx", None)   # the copy makes its own context when first asked
        if rng is None:
            g._rng_shared = self._rng_shared = True
        else:
            g._rng = rng
            g._rng_shared = False
        g.state = self.state.copy()
        g._log_shared = self._log_shared = True   # copied when either game appends
        g._ev = []
        return g

    # Helpers for players, the window and bots -------------------------
    def payments_for(self, route_id: str, player_order: bool = True) -> list[ClaimRoute]:
        """The legal ways for the current seat to claim ``route_id`` (empty if none), in
        the order a player wants them offered: fewest wild cards first, then the colour
        the player holds most of (``player_order=False``: the legal-action order)."""
        pays = [a for a in self.legal_actions()
                if a.kind == "claim_route" and a.route_id == route_id]
        if player_order and len(pays) > 1:
            b = self.board
            vecs = [b.hand_from_cards(a.cards) for a in pays]
            pays = [pays[i] for i in b.claim_rule.order(
                vecs, self._pay_vector(self.state.current), b.route_index[route_id])]
        return pays

    def claim_problem(self, route_id: str) -> str | None:
        """Why the current seat cannot claim ``route_id`` now, or None if it can."""
        if self.payments_for(route_id, player_order=False):
            return None
        return claim_problem(self, route_id, None)

    def claim_effects(self, route_id: str, seat: int | None = None) -> list[str]:
        """What claiming ``route_id`` would do for ``seat`` (default: the current seat)
        under the rule modules, before it happens, in a player's words: one sentence each
        (Alvin captured, the coal taken, a passenger placed, Legacy's company bonus...).
        Empty when the route is claimed already or the rules add nothing. Reads only."""
        r = self.board.route_index.get(route_id)
        if r is None or self.state.owner[r] >= 0:
            return []
        seat = self.state.current if seat is None else seat
        if parallel_block(self.state.owner, self.board.r_siblings[r], seat,
                          self._group_open[r]):
            return []      # a closed track, or the other track of the seat's own double
        out: list[str] = []
        for module in self._hooks["claim_effects"]:
            out.extend(module.claim_effects(self.ctx, seat, r))
        return out

    def borrow_choices(self, seat: int) -> list[tuple[int, ...]]:
        """Per station (or other borrowing piece) of ``seat``: the route indices it may
        borrow for tickets (rules.md §1.9); empty without such pieces."""
        out: list[tuple[int, ...]] = []
        for module in self._hooks["ticket_borrow_choices"]:
            out.extend(module.ticket_borrow_choices(self.ctx, seat))
        return out

    def ticket_status(self, seat: int) -> TicketStatus:
        """Which of ``seat``'s kept tickets are done (in holding order) and the routes its
        stations borrow for that: the final scoring's choice, as if the game ended now
        (``graph.ticket_status``)."""
        b = self.board
        tickets = [(b.tickets[t].a, b.tickets[t].b, b.tickets[t].points)
                   for t in self.state.tickets[seat]]
        return ticket_status(b.graph, owned(self.state.owner, seat), tickets,
                             self.borrow_choices(seat))

    def completed_tickets(self, seat: int) -> list[str]:
        """Ids of ``seat``'s kept tickets already done: by its own routes and the routes
        its stations would borrow if the game ended now (``ticket_status``)."""
        b = self.board
        if self._hooks["ticket_borrow_choices"]:
            done = self.ticket_status(seat).done
            return [b.ticket_ids[t] for t, d in zip(self.state.tickets[seat], done) if d]
        comp = components(b.graph, owned(self.state.owner, seat))
        return [b.ticket_ids[t] for t in self.state.tickets[seat]
                if comp.joined(b.graph, b.t_a_place[t], b.t_b_place[t])]

    def longest_path(self, seat: int) -> tuple[int, list[str]]:
        """Length and route ids of ``seat``'s longest continuous path (a trail)."""
        length, routes = longest_trail(self.board.graph, owned(self.state.owner, seat))
        return length, [self.board.route_ids[r] for r in routes]

    def total_cards(self) -> int:
        """Train cards in the deck, discard, display, hands and held by modules."""
        s = self.state
        held = sum(len(m.held_cards(self.ctx)) for m in self._hooks["held_cards"])
        return (len(s.deck) + len(s.discard) + sum(1 for c in s.face_up if c >= 0)
                + sum(sum(h) for h in s.hands) + held)

    def statistics(self, seat: int) -> dict[str, float]:
        """Figures about how ``seat`` played the modules' rules (markers placed, coal...)."""
        out: dict[str, float] = {}
        for module in self._hooks["statistics"]:
            out.update(module.statistics(self.ctx, seat))
        return out

    def city_tokens(self) -> dict[str, tuple]:
        """The tokens on the board's cities (homes, markers, passengers...) by city id, as
        every view shows them."""
        tokens: dict[str, tuple] = {}
        ctx = self.ctx
        for module in self._hooks["city_tokens"]:
            for city, items in module.city_tokens(ctx).items():
                tokens[city] = tokens.get(city, ()) + tuple(items)
        return tokens

    def prompt(self) -> str:
        """Words for the pending decision."""
        phase = self.state.phase
        module = self._module_by_phase.get(phase)
        if module is not None:
            return module.prompt(self.ctx, phase) or phase.replace("_", " ")
        return _CORE_PROMPTS.get(phase, phase.replace("_", " "))

    # ------------------------------------------------------------------
    # Internals shared with the context
    def _random(self) -> random.Random:
        if self._rng_shared:
            r = random.Random()
            r.setstate(self._rng.getstate())
            self._rng = r
            self._rng_shared = False
        return self._rng

    def _edited(self) -> None:
        """A ``Scenario`` changed the state by hand: a new version, so nothing cached
        for the old one (the legal actions) is read again."""
        self._version += 1
        self._legal_cache = None

    def _score(self, seat: int, amount: int, reason: str, ref: str = "") -> None:
        """Move ``seat`` on the score track: the one writer of ``state.points`` and its
        ledger, for every change (routes, the modules' scores, bonuses, Legacy coins)."""
        s = self.state
        s.points[seat] += amount
        s.ledger += ((seat, amount, reason, ref),)

    def pay_vector(self, seat: int) -> list[int]:
        """What ``seat`` can pay with: its hand plus its rule modules' pay sources, a
        count per pay item (``board.pay``'s order). Read only."""
        return list(self._pay_vector(seat))

    def _pay_vector(self, seat: int) -> list[int]:
        """``seat``'s hand plus its module pay sources, indexed like a pay vector."""
        hand = self.state.hands[seat]
        hooks = self._hooks["pay_sources"]
        if not hooks:
            return hand
        b = self.board
        vec = hand + [0] * (b.n_pay - b.n_cards)
        for m in hooks:
            for name, n in m.pay_sources(self.ctx, seat).items():
                vec[b.pay_index[name]] = n
        return vec

    def _pay(self, seat: int, vec) -> None:
        """Spend a pay vector (cards to the discard pile, sources to their modules)."""
        s, b = self.state, self.board
        hand = s.hands[seat]
        known = s.known[seat]
        discard = s.discard
        for card in range(b.n_cards):
            n = vec[card]
            if n:
                hand[card] -= n
                discard.extend([card] * n)
                if known[card]:
                    known[card] = known[card] - n if known[card] > n else 0
        for i in range(b.n_cards, b.n_pay):
            if vec[i]:
                name = b.source_names[i]
                self._shared.by_source[name].spend_source(self.ctx, seat, name, vec[i])

    def _draw_card(self, ev: list[Event], reason: str) -> int:
        """Top card of the deck, reshuffling the discard on demand (A-03), through the
        modules' ``on_deck_card``; -1 if none."""
        s = self.state
        hooks = self._hooks["on_deck_card"]
        while True:
            if not s.deck:
                if not s.discard:
                    return -1
                s.deck = s.discard
                s.discard = []
                self._random().shuffle(s.deck)
                ev.append(Event("deck_reshuffled", None, {"size": len(s.deck)}, reveals=True))
            card = s.deck.pop()
            if hooks and self._deck_card_taken(hooks, card, reason):
                continue
            return card

    def _deck_card_taken(self, hooks, card: int, reason: str) -> bool:
        """Whether a module takes the card just drawn (``on_deck_card``: the first that
        does; the rest are not asked)."""
        ctx = self.ctx
        for m in hooks:
            if m.on_deck_card(ctx, card, reason):
                return True
        return False

    def _deal_card(self) -> int:
        """A card dealt at setup (no module hook); cards that are redealt at setup
        (Legacy newspapers) are shuffled back and replaced."""
        s = self.state
        redeal = self.board.setup_redeal
        while True:
            if not s.deck:
                if not s.discard:
                    return -1
                s.deck, s.discard = s.discard, []
                self._random().shuffle(s.deck)
            card = s.deck.pop()
            if card in redeal and any(c not in redeal for c in s.deck):
                s.deck.append(card)
                self._random().shuffle(s.deck)
                continue
            return card

    # ------------------------------------------------------------------
    # Setup (rules.md §1.2; each family's setup section)
    def _setup(self) -> None:
        rs, b, s = self.ruleset, self.board, self.state
        n = self.num_players
        first = self.options.get("first_player", 0)
        if first == "random":
            first = self._random().randrange(n)
        if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < n:
            raise ValueError(f"first_player must be a seat from 0 to {n - 1} or 'random'")

        deck = []
        for name, count in rs.deck_composition(n).items():
            deck.extend([b.card_index[name]] * count)
        self._random().shuffle(deck)
        s.deck = deck
        s.hands = [[0] * b.n_cards for _ in range(n)]
        deal = self._deal_card if b.setup_redeal else s.deck.pop
        for seat in range(n):
            hand = s.hands[seat]
            for _ in range(rs.initial_hand):
                hand[deal()] += 1
        s.face_up = [-1] * rs.face_up_slots
        self._ev = []
        self._fill_display(self._ev, setup=True)

        decks: dict[str, list[int]] = {name: [] for name in rs.ticket_decks}
        for i, kind in enumerate(b.t_deck):
            decks[kind].append(i)
        for cards in decks.values():
            self._random().shuffle(cards)
        s.ticket_decks = decks
        s.tickets = [[] for _ in range(n)]
        s.pending = [[] for _ in range(n)]
        if not rs.initial_announced:
            for seat in range(n):
                dealt = []
                for kind, count in rs.initial_tickets:
                    for _ in range(min(count, len(decks[kind]))):
                        dealt.append(decks[kind].pop())
                s.pending[seat] = dealt
                s.ticket_log += ((seat, len(dealt), -1),)

        s.owner = [-1] * b.n_routes
        s.route_paid = ((),) * b.n_routes
        s.trains = [rs.trains_per_player] * n
        s.points = [0] * n
        s.known = [[0] * b.n_cards for _ in range(n)]
        s.first_seat = first
        s.current = first
        if rs.start_score:
            for seat in range(n):
                self.ctx.score(seat, rs.start_score, "start")
        for module in self.modules:
            module.setup(self.ctx)
        pipeline = [("core", "initial_tickets", {"seat": (first + k) % n}) for k in range(n)]
        pipeline.append(("core", "initial_returns", {}))
        for module in self._hooks["setup_steps"]:
            pipeline.extend(module.setup_steps(self.ctx))
        pipeline.append(("core", "begin_play", {}))
        s.pipeline = pipeline
        self._run_pipeline()
        self._ev = []

    # ------------------------------------------------------------------
    # The pipeline of steps
    def _run_pipeline(self) -> None:
        """Run pending steps until one opens a decision (or none is left). (A claim's
        core steps run here directly: they run on every claim, in search's playouts.)"""
        s = self.state
        while s.pipeline:
            owner, step, data = s.pipeline.pop(0)
            if owner != "core":
                out = self._shared.by_name[owner].run_stage(self.ctx, step, data)
            elif step == "complete_claim":
                self._complete_claim(data["seat"], data["route"], data["paid"])
                continue
            elif step == "after_claim":
                hooks = self._hooks["after_claim"]
                if hooks:
                    self._after_claim(hooks, data["seat"], data["route"])
                continue
            else:
                out = self._core_step(step, data)
            if out == OPEN:
                return
            if out == ABORT:
                self._abort_claim()

    def _after_claim(self, hooks: list[RuleModule], seat: int, r: int) -> None:
        """Schedule the modules' steps after a claim (in module order), next in line."""
        stages = []
        for module in hooks:
            stages.extend(module.after_claim(self.ctx, seat, r))
        self.state.pipeline[0:0] = stages

    def _resolve(self, out: str | None) -> None:
        """Carry on after a module's action or step answered ``out``."""
        if out == OPEN:
            return
        if out == ABORT:
            self._abort_claim()
        self._run_pipeline()

    def _abort_claim(self) -> None:
        """Drop the rest of a claim (its completion and after-claim steps)."""
        pipe = self.state.pipeline
        while pipe and pipe[0][:2] != ("core", "end_turn"):
            pipe.pop(0)

    def _core_step(self, step: str, data: dict[str, Any]) -> str:
        """The core's other steps (a claim's own run in ``_run_pipeline``)."""
        s = self.state
        if step == "end_turn":
            self._end_turn(self._ev)
            return OPEN
        if step == "initial_tickets":
            s.current = data["seat"]
            s.phase = Phase.CHOOSE_INITIAL_TICKETS
            return OPEN
        if step == "initial_returns":
            self._initial_returns()
            return DONE
        if step == "begin_play":
            s.current = s.first_seat
            s.phase = Phase.TURN
            self._ev.append(Event("turn_started", s.current, {"turn": s.turn + 1}))
            return OPEN
        raise ValueError(f"unknown core step {step!r}")

    def _initial_returns(self) -> None:
        """Old West: all returns shuffled together under the deck; Märklin: back into
        their own decks, both decks reshuffled (rules.md §2.2, §4.2)."""
        s, b, rs = self.state, self.board, self.ruleset
        held = s.held_returns
        if not held:
            return
        s.held_returns = []
        if rs.initial_returns == "under_shuffled":
            self._random().shuffle(held)
            for t in held:
                s.ticket_decks[b.t_deck[t]].insert(0, t)
        elif rs.initial_returns == "reshuffle":
            for t in held:
                s.ticket_decks[b.t_deck[t]].append(t)
            for deck in s.ticket_decks.values():
                self._random().shuffle(deck)

    # ------------------------------------------------------------------
    # Carrying out actions
    def _dispatch(self, action: Action) -> None:
        kind = action.kind
        if kind == "draw_blind":
            self._do_draw_blind()
        elif kind == "draw_face_up":
            self._do_draw_face_up(action.slot)
        elif kind == "claim_route":
            self._do_claim(action)
        elif kind == "draw_tickets":
            self._do_draw_tickets(action)
        elif kind == "keep_tickets":
            self._do_keep(action)
        elif kind == "pass":
            self._do_pass()
        else:
            s = self.state
            if s.phase == Phase.TURN:
                s.pipeline = [("core", "end_turn", {})]
            # A module's own action, or the generic Decline of the phase a module opened.
            module = self._module_by_kind.get(kind) or self._module_by_phase[s.phase]
            # A station may finish a ticket through a route it can borrow (§1.9).
            watch = self._hooks["ticket_borrow_choices"] and not self._quiet
            before = self._completed_all() if watch else None
            self._resolve(module.apply(self.ctx, action))
            if before is not None:
                self._ticket_events(before)

    def _do_pass(self) -> None:
        """Pass (A-01); a whole round of passes ends a game nobody can move in."""
        s = self.state
        ev = self._ev
        s.passes += 1
        ev.append(Event("passed", s.current))
        if self.ruleset.end_on_pass_round and s.passes >= self.num_players:
            s.turn += 1
            ev.append(Event("stalemate", None, {"passes": s.passes}))
            self._game_over(ev)
            return
        self._end_turn(ev)

    def _game_over(self, ev: list[Event]) -> None:
        self.state.phase = Phase.GAME_OVER
        self.state.pipeline = []
        if not self._quiet:
            ev.append(Event("game_over", None, {"totals": [sc.total for sc in self.scores()]}))

    def _needs_refresh(self, face: list[int]) -> bool:
        need = self.ruleset.refresh_count
        single = self.board.refresh_single
        if single >= 0:
            return face.count(single) >= need
        for group in self.board.refresh_groups:
            n = 0
            for c in face:
                if c in group:
                    n += 1
            if n >= need:
                return True
        return False

    def _fill_display(self, ev: list[Event], setup: bool = False) -> None:
        """Fill empty face-up slots, then apply the three-locomotive refresh (§1.4.3, A-02)."""
        s, b = self.state, self.board
        face = s.face_up
        for slot in range(len(face)):
            if face[slot] < 0:
                card = self._deal_card() if setup else self._draw_card(ev, "replace")
                if card < 0:
                    break
                face[slot] = card
                if not self._quiet:
                    ev.append(Event("face_up_replaced", None,
                                    {"slot": slot, "card": b.card_names[card]}, reveals=True))
        refreshes = 0
        limit = self.ruleset.max_consecutive_refreshes
        while refreshes < limit and self._needs_refresh(face) and (s.deck or s.discard):
            refreshes += 1
            s.discard.extend(c for c in face if c >= 0)
            for slot in range(len(face)):
                face[slot] = self._deal_card() if setup else self._draw_card(ev, "refresh")
            ev.append(Event("face_up_refreshed", None, {
                "cards": [b.card_names[c] for c in face if c >= 0]}, reveals=True))

    def _draw_vetoed(self, seat: int) -> str | None:
        for module in self._hooks["veto_draw"]:
            reason = module.veto_draw(self.ctx, seat)
            if reason:
                return reason
        return None

    def _after_first_pick(self, ev: list[Event], took: int | None) -> None:
        """After the first card: end the draw or wait for the second (§1.4.2)."""
        s, b = self.state, self.board
        if took is not None and took in b.first_pick_only:
            self._end_turn(ev)
            return
        second_possible = bool(s.deck or s.discard) or any(
            c >= 0 and c not in b.first_pick_only for c in s.face_up)
        if second_possible and self._hooks["veto_draw"] and self._draw_vetoed(s.current):
            second_possible = False
        if second_possible:
            s.phase = Phase.SECOND_CARD
        else:
            self._end_turn(ev)

    def _do_draw_blind(self) -> None:
        s = self.state
        ev = self._ev
        card = self._draw_card(ev, "blind")
        if card >= 0:
            s.hands[s.current][card] += 1
            if not self._quiet:
                ev.append(Event("card_drawn", s.current, {
                    "source": "deck", "card": self.board.card_names[card]}, ("card",),
                    reveals=True))
        if s.phase == _TURN and card >= 0:
            self._after_first_pick(ev, None)
        else:
            self._end_turn(ev)

    def _do_draw_face_up(self, slot: int) -> None:
        s = self.state
        ev = self._ev
        card = s.face_up[slot]
        s.hands[s.current][card] += 1
        s.known[s.current][card] += 1
        s.face_up[slot] = -1
        if not self._quiet:
            ev.append(Event("card_drawn", s.current, {"source": "face_up", "slot": slot,
                                                      "card": self.board.card_names[card]}))
        self._fill_display(ev)
        if s.phase == _TURN:
            self._after_first_pick(ev, card)
        else:
            self._end_turn(ev)

    def _do_claim(self, action: ClaimRoute) -> None:
        """A claim, the same steps whatever the rule modules (§1.5): the modules'
        ``before_claim`` (which may open a decision or call the claim off), then
        completing it, their ``after_claim`` steps, and the end of the turn — always
        through the pipeline, so a claim a module pauses resumes where it stopped."""
        s, b = self.state, self.board
        seat = s.current
        r = b.route_index[action.route_id]
        paid = b.hand_from_cards(action.cards)
        # The payment as chosen, for the record while nothing is added to it.
        self._claim_cards = (paid, action.cards)
        s.pipeline = [("core", "complete_claim", {"seat": seat, "route": r, "paid": paid}),
                      ("core", "after_claim", {"seat": seat, "route": r}),
                      _END_TURN_STEP]
        before = self._hooks["before_claim"]
        if before:
            paid = tuple(paid)
            for module in before:
                out = module.before_claim(self.ctx, seat, r, paid)
                if out == OPEN:
                    return
                if out == ABORT:
                    self._abort_claim()
                    break
        self._run_pipeline()

    def _complete_claim(self, seat: int, r: int, paid: list[int]) -> None:
        """Pay, place the trains, score the route (§1.5), report newly completed tickets."""
        s, b = self.state, self.board
        g = b.graph
        ev = self._ev
        quiet = self._quiet
        borrowing = bool(self._hooks["ticket_borrow_choices"])
        simple = not g.has_sinks and not borrowing
        if quiet:
            pass
        elif borrowing:  # a claim may finish anyone's ticket through their station
            before_all = self._completed_all()
        elif simple:
            # Cities reachable from each end before the claim (own routes only).
            reach_a = reachable(g, s.owner, seat, b.r_a[r])
            reach_b = reachable(g, s.owner, seat, b.r_b[r])
        else:
            before = set(self.completed_tickets(seat))
        self._pay(seat, paid)
        s.owner[r] = seat
        s.trains[seat] -= b.r_len[r]
        chosen = self._claim_cards
        cards = chosen[1] if chosen is not None and chosen[0] is paid else \
            b.cards_tuple_from(paid)    # a tunnel's extra cards, a claim resumed from a save
        paid_all = s.route_paid
        s.route_paid = paid_all[:r] + (cards,) + paid_all[r + 1:]
        rid = b.route_ids[r]
        scorers = None
        for module in self._shared.hooks["route_scorers"]:
            scorers = module.route_scorers(self.ctx, seat, r)
            if scorers is not None:
                break
        if scorers is None:
            self._score(seat, b.r_points[r], "route", rid)
        else:
            for who, pts in scorers:
                if pts:
                    self._score(who, pts, "route", rid)
        if quiet:
            return
        data = {"route": rid, "cards": cards_text(cards)}
        if scorers is None:
            data["points"] = b.r_points[r]
        else:
            data["points"] = sum(p for w, p in scorers if w == seat)
            data["scorers"] = [[w, p] for w, p in scorers]
        ev.append(Event("route_claimed", seat, data))
        # A ticket is newly complete when the route joined its two cities' networks.
        if simple:
            if b.r_b[r] not in reach_a:
                t_simple = b.t_simple
                for t in s.tickets[seat]:
                    if t_simple[t]:
                        ta, tb = b.t_a[t], b.t_b[t]
                        hit = (ta in reach_a and tb in reach_b) or (ta in reach_b and tb in reach_a)
                    else:
                        pa, pb = b.t_a_place[t], b.t_b_place[t]
                        hit = ((place_reached(g, reach_a, pa) and place_reached(g, reach_b, pb))
                               or (place_reached(g, reach_b, pa)
                                   and place_reached(g, reach_a, pb)))
                    if hit:
                        ev.append(Event("ticket_completed", seat, {"ticket": b.ticket_ids[t]},
                                        secret=True))
        elif borrowing:
            self._ticket_events(before_all)
        else:
            for tid in self.completed_tickets(seat):
                if tid not in before:
                    ev.append(Event("ticket_completed", seat, {"ticket": tid}, secret=True))

    def _completed_all(self) -> list[set[str]]:
        """Every seat's done tickets (``completed_tickets``)."""
        return [set(self.completed_tickets(i)) for i in range(self.num_players)]

    def _ticket_events(self, before: list[set[str]]) -> None:
        """A ``ticket_completed`` event for each ticket done now and not in ``before``."""
        for i, was in enumerate(before):
            for tid in self.completed_tickets(i):
                if tid not in was:
                    self._ev.append(Event("ticket_completed", i, {"ticket": tid}, secret=True))

    def _draw_ticket_cards(self, seat: int, mix: tuple[tuple[str, int], ...]) -> list[int]:
        s, rs = self.state, self.ruleset
        if mix:
            drawn = []
            for deck, n in mix:
                pile = s.ticket_decks[deck]
                drawn.extend(pile.pop() for _ in range(min(n, len(pile))))
            return drawn
        deck = s.ticket_decks[rs.ticket_draw_decks[0]]
        n = min(rs.ticket_draw, len(deck))
        return [deck.pop() for _ in range(n)]

    def _do_draw_tickets(self, action: DrawTickets) -> None:
        s = self.state
        ev = self._ev
        seat = s.current
        drawn = self._draw_ticket_cards(seat, action.mix)
        ev.append(Event("tickets_drawn", seat, {
            "count": len(drawn), "tickets": [self.board.ticket_ids[t] for t in drawn]},
            ("tickets",), reveals=bool(drawn)))
        if action.mix:
            ev[-1].data["mix"] = [[d, n] for d, n in action.mix]
        s.ticket_log += ((seat, len(drawn), -1 if drawn else 0),)
        if not drawn:  # A-05 knob off: an empty deck gives nothing, the turn is spent
            self._end_turn(ev)
            return
        s.pending[seat] = drawn
        if s.phase != Phase.CHOOSE_INITIAL_TICKETS:
            s.phase = Phase.KEEP_TICKETS

    def _do_keep(self, action: KeepTickets) -> None:
        s, b, rs = self.state, self.board, self.ruleset
        ev = self._ev
        seat = s.current
        initial = s.phase == Phase.CHOOSE_INITIAL_TICKETS
        kept = [b.ticket_index[t] for t in action.tickets]
        returned = [b.ticket_index[t] for t in action.returned]
        s.tickets[seat] = s.tickets[seat] + kept      # replaced: copies share the old list
        s.pending[seat] = []
        if (rs.initial_returns if initial else rs.later_returns) == "box":
            s.boxed_tickets.extend(returned)
        elif initial and rs.initial_returns in ("reshuffle", "under_shuffled"):
            s.held_returns.extend(returned)
        else:
            for t in returned:  # the first returned ends up on top of the later ones
                s.ticket_decks[b.t_deck[t]].insert(0, t)
        log = s.ticket_log
        for i in range(len(log) - 1, -1, -1):
            if log[i][0] == seat and log[i][2] < 0:
                s.ticket_log = log[:i] + ((seat, log[i][1], len(kept)),) + log[i + 1:]
                break
        ev.append(Event("tickets_kept", seat, {"kept": len(kept), "returned": len(returned),
                                               "tickets": list(action.tickets)}, ("tickets",)))
        if self._hooks["ticket_borrow_choices"] and not self._quiet:
            done_now = set(self.completed_tickets(seat))   # stations may borrow a route
            for t in kept:
                if b.ticket_ids[t] in done_now:
                    ev.append(Event("ticket_completed", seat, {"ticket": b.ticket_ids[t]},
                                    secret=True))
        elif seat in s.owner and not self._quiet:  # a kept ticket may be complete already
            g = b.graph
            comp = None
            for t in kept:
                if b.t_simple[t]:
                    done = b.t_b[t] in reachable(g, s.owner, seat, b.t_a[t])
                else:
                    comp = comp or components(g, owned(s.owner, seat))
                    done = comp.joined(g, b.t_a_place[t], b.t_b_place[t])
                if done:
                    ev.append(Event("ticket_completed", seat, {"ticket": b.ticket_ids[t]},
                                    secret=True))
        if initial:
            self._run_pipeline()
        else:
            self._end_turn(ev)

    def _end_turn(self, ev: list[Event]) -> None:
        """Close the current turn: end trigger, final round, next seat (§1.7)."""
        s = self.state
        seat = s.current
        s.turn += 1
        s.pipeline = []
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
        s.current = (seat + 1) % len(self.players)
        s.phase = _TURN
        if not self._quiet:
            ev.append(Event("turn_started", s.current, {"turn": s.turn + 1}))


_GAME_OVER = Phase.GAME_OVER
_END_TURN_STEP = ("core", "end_turn", {})   # stages are never changed in place
_TURN_PHASE = Phase.TURN
_SECOND_PHASE = Phase.SECOND_CARD
_TURN = Phase.TURN
_CORE_PROMPTS = {
    Phase.CHOOSE_INITIAL_TICKETS: "Choose your starting tickets.",
    Phase.TURN: "Draw cards, claim a route or draw tickets.",
    Phase.SECOND_CARD: "Take a second card: the deck or a face-up card (not a locomotive).",
    Phase.KEEP_TICKETS: "Choose which tickets to keep.",
    Phase.GAME_OVER: "The game is over.",
}
