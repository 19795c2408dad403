"""Märklin (rules.md §2): +4 locomotives, passenger cards, passengers and merchandise.

The ruleset (registered here as variant ``marklin``) carries the card deck, the two
announced ticket decks, the route table, the double/triple rule, the most-tickets
bonus and the tie-breaks as data; this module adds the passengers:

- each seat has 3 passengers in its supply (§2.1);
- after a claim, the claimant may place one of them on either end city of the route —
  never on a country, never where any passenger stands (§2.3, an after-claim step the
  player may decline);
- moving a passenger is a turn action (``move_passenger``) that opens a step phase: the
  passenger goes one claimed route at a time (each route once; own routes free, 1
  passenger card per opponent route; never into a country) and may stop after at least
  one step (A-14). In each city it moves to — not the start, each city once per move
  (A-13, knob ``marklin_token_per_arrival``) — the seat takes the top merchandise token
  there and scores it at once (ledger reason ``merchandise``). Then the passenger leaves
  the game. Both tracks of a double may be used in one move (A-15, knob
  ``marklin_both_tracks``).

Whole trails are never listed (about 10^7 of them at 5 players): the move is a
sequence of single steps, each its own decision.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from ttr_desktop.rules.actions import Action, Decline, register_action
from ttr_desktop.rules.cards import CardKind, colour_cards, locomotive
from ttr_desktop.rules.context import DONE
from ttr_desktop.rules.modules.base import RuleModule
from ttr_desktop.rules.ruleset import Bonus, Ruleset
from ttr_desktop.rules.state import ModuleState
from ttr_desktop.rules.tokens import CityToken

if TYPE_CHECKING:
    from ttr_desktop.rules.context import RuleContext, Stage
    from ttr_desktop.rules.view import PlayerView

#: Passengers per seat (rules.md §2.1).
PASSENGERS = 3
#: The card an opponent's route costs a moving passenger.
PASSENGER_CARD = "passenger"
#: Phases: place a passenger after a claim; the next step of a passenger's move.
PLACE = "place_passenger"
MOVE = "passenger_move"
DECLINE = Decline("passenger")


#: Names of the Märklin map's cities and routes ("Köln", "Düsseldorf – Köln"), filled at
#: setup, so that action texts read like the board (they have no map at hand).
_NAMES: dict[str, str] = {}


def _city_words(city_id: str) -> str:
    """A city's name (or a readable one made from its id)."""
    return _NAMES.get(city_id) or city_id.replace("-", " ").title()


@register_action
@dataclass(frozen=True, slots=True)
class PlacePassenger(Action):
    """Put one of your passengers from the supply on ``city_id`` (an end of the claim)."""

    kind: ClassVar[str] = "place_passenger"
    city_id: str

    def describe(self) -> str:
        return f"place a passenger in {_city_words(self.city_id)}"

    def target(self) -> tuple[str, str] | None:
        return ("city", self.city_id)


@register_action
@dataclass(frozen=True, slots=True)
class MovePassenger(Action):
    """Start moving your passenger that stands on ``city_id`` (the whole turn)."""

    kind: ClassVar[str] = "move_passenger"
    city_id: str

    def describe(self) -> str:
        return f"move the passenger from {_city_words(self.city_id)}"

    def target(self) -> tuple[str, str] | None:
        return ("city", self.city_id)


@register_action
@dataclass(frozen=True, slots=True)
class PassengerStep(Action):
    """Move the travelling passenger along the claimed route ``route_id``."""

    kind: ClassVar[str] = "passenger_step"
    route_id: str

    def describe(self) -> str:
        return f"travel along {_NAMES.get(self.route_id, self.route_id)}"

    def target(self) -> tuple[str, str] | None:
        return ("route", self.route_id)


@register_action
@dataclass(frozen=True, slots=True)
class StopPassenger(Action):
    """End the passenger's move where it stands (after at least one step)."""

    kind: ClassVar[str] = "stop_passenger"

    def describe(self) -> str:
        return "stop here"


STOP = StopPassenger()


@dataclass
class MarklinState(ModuleState):
    """Passengers, merchandise and the move in progress (all public).

    ``supply``: passengers per seat not yet placed; ``at``: per seat, the cities of its
    passengers on the board; ``stacks``: per city index, the merchandise tokens left, top
    first; ``taken``: per seat, the values of the tokens it took. ``place_route`` is the
    claimed route whose ends a placement may use (-1 when none is pending). A move in
    progress: ``mover`` (-1 when none), its ``start`` and current city ``cur``, the routes
    ``used`` and the cities ``visited`` (that gave their token, A-13), passenger cards paid
    (``fare``) and merchandise points so far (``gained``). The rest are counts for sim."""

    supply: list[int]
    at: list[list[int]]
    stacks: list[list[int]]
    taken: list[list[int]]
    placed: list[int]
    moves: list[int]
    steps: list[int]
    fares: list[int]
    place_route: int = -1
    mover: int = -1
    start: int = -1
    cur: int = -1
    used: list[int] = field(default_factory=list)
    visited: list[int] = field(default_factory=list)
    fare: int = 0
    gained: int = 0

    def copy(self) -> "MarklinState":
        return MarklinState(
            self.supply[:], [a[:] for a in self.at], [s[:] for s in self.stacks],
            [t[:] for t in self.taken], self.placed[:], self.moves[:], self.steps[:],
            self.fares[:], self.place_route, self.mover, self.start, self.cur, self.used[:],
            self.visited[:], self.fare, self.gained)


class Marklin(RuleModule):
    """Passengers: placed after claims, moved as a turn action, collecting merchandise."""

    name = "marklin"
    action_kinds = ("place_passenger", "move_passenger", "passenger_step", "stop_passenger")
    phases = {PLACE: "Place a passenger on one of the claimed route's cities?",
              MOVE: "Move your passenger: choose the next route, or stop here."}
    knobs = {
        # take a token on every arrival (re-entering a city, returning to the start)
        # instead of once per distinct city, never the start.
        "marklin_token_per_arrival": False,
        # a move may use both tracks of a double (yours and an opponent's).
        "marklin_both_tracks": True,
    }
    state_type = MarklinState

    def __init__(self) -> None:
        self._moves: dict[str, MovePassenger] = {}
        self._steps: dict[str, PassengerStep] = {}
        self._places: dict[str, PlacePassenger] = {}

    # Setup ------------------------------------------------------------------
    def setup(self, ctx: "RuleContext") -> None:
        n = ctx.n_players
        game_map = ctx.map
        cities = game_map.cities
        _NAMES.update({cid: c.name for cid, c in cities.items()})
        _NAMES.update({rid: f"{cities[r.a].name} – {cities[r.b].name}"
                       for rid, r in game_map.routes.items()})
        stacks = []
        for cid in ctx.board.city_ids:
            colour = game_map.cities[cid].merchandise
            stacks.append(list(game_map.merchandise.get(colour, ())) if colour else [])
        ctx.set_state(self.name, MarklinState(
            [PASSENGERS] * n, [[] for _ in range(n)], stacks, [[] for _ in range(n)],
            [0] * n, [0] * n, [0] * n, [0] * n))

    # Helpers ----------------------------------------------------------------
    def _st(self, ctx: "RuleContext") -> MarklinState:
        return ctx.state(self.name)

    @staticmethod
    def occupied(st: MarklinState) -> set[int]:
        """Cities where a passenger stands (the travelling one at its current city)."""
        out = {c for cities in st.at for c in cities}
        if st.mover >= 0:
            out.add(st.cur)
        return out

    def place_cities(self, ctx: "RuleContext", seat: int, route: int) -> list[int]:
        """The ends of ``route`` a passenger of ``seat`` may be placed on now."""
        st = self._st(ctx)
        if st.supply[seat] <= 0:
            return []
        g = ctx.graph
        taken = self.occupied(st)
        out = []
        for c in (g.r_a[route], g.r_b[route]):
            if not g.sink[c] and c not in taken and c not in out:
                out.append(c)
        return out

    def steps_from(self, ctx: "RuleContext", seat: int, city: int,
                   used: list[int] | tuple[int, ...] = ()) -> list[int]:
        """Routes a passenger of ``seat`` on ``city`` may take next, having used ``used``:
        claimed, not used yet, not into a country, an opponent's only with a passenger
        card in hand (and, without A-15, not beside a track already used)."""
        g = ctx.graph
        owner = ctx.owners()
        cards = ctx.hand(seat)[ctx.board.card_index[PASSENGER_CARD]]
        both = ctx.knob("marklin_both_tracks", True)
        out = []
        for r in g.city_routes[city]:
            o = owner[r]
            if o < 0 or r in used:
                continue
            if g.sink[g.other_end(r, city)]:
                continue
            if o != seat and cards < 1:
                continue
            if not both and any(s in used for s in g.r_siblings[r]):
                continue
            out.append(r)
        return out

    def token_due(self, ctx: "RuleContext", st: MarklinState, city: int) -> bool:
        """Whether arriving at ``city`` now takes its top token (A-13)."""
        if ctx.knob("marklin_token_per_arrival", False):
            return True
        return city != st.start and city not in st.visited

    # After a claim: placing a passenger -----------------------------------------
    def after_claim(self, ctx: "RuleContext", seat: int, route: int) -> list["Stage"]:
        if self._st(ctx).supply[seat] <= 0:
            return []
        return [(self.name, "place", {"seat": seat, "route": route})]

    def claim_effects(self, ctx: "RuleContext", seat: int, route: int) -> list[str]:
        """Where the claim would let ``seat`` place a passenger."""
        cities = self.place_cities(ctx, seat, route)
        if not cities:
            return []
        names = [ctx.map.cities[ctx.board.city_ids[c]].name for c in cities]
        where = " or ".join(names)
        left = self._st(ctx).supply[seat]
        return [f"Then you may place a passenger on {where} ({left} left to place)."]

    def run_stage(self, ctx: "RuleContext", step: str, data: dict[str, Any]) -> str:
        if step != "place":
            raise ValueError(f"unknown marklin step {step!r}")
        if not self.place_cities(ctx, data["seat"], data["route"]):
            return DONE
        self._st(ctx).place_route = data["route"]
        return ctx.open(PLACE, data["seat"])

    # Turn actions and phases ------------------------------------------------------
    def turn_actions(self, ctx: "RuleContext", seat: int) -> list[Action]:
        st = self._st(ctx)
        ids = ctx.board.city_ids
        out: list[Action] = []
        for c in st.at[seat]:
            if self.steps_from(ctx, seat, c):
                out.append(self._move_action(ids[c]))
        return out

    def _move_action(self, cid: str) -> MovePassenger:
        act = self._moves.get(cid)
        if act is None:
            act = self._moves[cid] = MovePassenger(cid)
        return act

    def _step_action(self, rid: str) -> PassengerStep:
        act = self._steps.get(rid)
        if act is None:
            act = self._steps[rid] = PassengerStep(rid)
        return act

    def _place_action(self, cid: str) -> PlacePassenger:
        act = self._places.get(cid)
        if act is None:
            act = self._places[cid] = PlacePassenger(cid)
        return act

    def phase_actions(self, ctx: "RuleContext", phase: str) -> list[Action]:
        st = self._st(ctx)
        b = ctx.board
        if phase == PLACE:
            if st.place_route < 0:
                return []
            cities = self.place_cities(ctx, ctx.seat, st.place_route)
            return [self._place_action(b.city_ids[c]) for c in cities] + [DECLINE]
        if phase == MOVE:
            acts: list[Action] = [self._step_action(b.route_ids[r])
                                  for r in self.steps_from(ctx, st.mover, st.cur, st.used)]
            if st.used:
                acts.append(STOP)
            return acts
        return []

    def apply(self, ctx: "RuleContext", action: Action) -> str:
        st = self._st(ctx)
        b = ctx.board
        seat = ctx.seat
        kind = action.kind
        if kind == "place_passenger":
            c = b.city_index[action.city_id]
            st.supply[seat] -= 1
            st.at[seat].append(c)
            st.placed[seat] += 1
            st.place_route = -1
            ctx.emit("passenger_placed", seat, {"city": action.city_id,
                                                "left": st.supply[seat]})
            return DONE
        if kind == "decline":
            st.place_route = -1
            return DONE
        if kind == "move_passenger":
            c = b.city_index[action.city_id]
            st.at[seat].remove(c)
            st.mover, st.start, st.cur = seat, c, c
            st.used, st.visited = [], []
            st.fare = st.gained = 0
            st.moves[seat] += 1
            ctx.emit("passenger_move_started", seat, {"city": action.city_id})
            return ctx.open(MOVE)
        if kind == "passenger_step":
            return self._step(ctx, st, b.route_index[action.route_id])
        if kind == "stop_passenger":
            return self._finish(ctx, st)
        raise ValueError(kind)

    def _step(self, ctx: "RuleContext", st: MarklinState, r: int) -> str:
        b = ctx.board
        g = ctx.graph
        seat = st.mover
        here = st.cur
        nxt = g.other_end(r, here)
        fare = 0
        if ctx.owner(r) != seat:
            vec = [0] * b.n_pay
            vec[b.card_index[PASSENGER_CARD]] = 1
            ctx.pay(seat, vec)
            fare = 1
            st.fare += 1
            st.fares[seat] += 1
        st.used.append(r)
        st.steps[seat] += 1
        token = 0
        if self.token_due(ctx, st, nxt) and st.stacks[nxt]:
            token = st.stacks[nxt].pop(0)
            st.taken[seat].append(token)
            st.gained += token
            ctx.score(seat, token, "merchandise", b.city_ids[nxt])
        if nxt not in st.visited and nxt != st.start:
            st.visited.append(nxt)
        st.cur = nxt
        ctx.emit("passenger_step", seat, {
            "route": b.route_ids[r], "from": b.city_ids[here], "to": b.city_ids[nxt],
            "token": token, "fare": fare, "owner": ctx.owner(r)})
        if not self.steps_from(ctx, seat, nxt, st.used):
            return self._finish(ctx, st)   # nowhere left to go: the move ends here
        return ctx.open(MOVE)

    def _finish(self, ctx: "RuleContext", st: MarklinState) -> str:
        b = ctx.board
        ctx.emit("passenger_moved", st.mover, {
            "from": b.city_ids[st.start], "to": b.city_ids[st.cur],
            "routes": [b.route_ids[r] for r in st.used], "points": st.gained,
            "fare": st.fare})
        st.mover = st.start = st.cur = -1
        st.used, st.visited = [], []
        st.fare = st.gained = 0
        return DONE

    def prompt(self, ctx: "RuleContext", phase: str) -> str | None:
        st = self._st(ctx)
        names = ctx.map.cities
        ids = ctx.board.city_ids
        if phase == PLACE and st.place_route >= 0:
            cities = [names[ids[c]].name
                      for c in self.place_cities(ctx, ctx.seat, st.place_route)]
            if cities:
                return f"Place a passenger on {' or '.join(cities)}?"
        if phase == MOVE and st.mover >= 0:
            here = names[ids[st.cur]].name
            if not st.used:
                return f"Move your passenger from {here}: choose the first route."
            return (f"Your passenger is in {here} ({st.gained} merchandise so far): choose "
                    "the next route, or stop here.")
        return super().prompt(ctx, phase)

    def explain(self, ctx: "RuleContext", action: Action) -> str | None:
        st = self._st(ctx)
        b = ctx.board
        g = ctx.graph
        seat = ctx.seat
        kind = action.kind
        if kind == "place_passenger":
            c = b.city_index.get(getattr(action, "city_id", None))
            if c is None:
                return f"There is no city {action.city_id!r} on this map."
            name = ctx.map.cities[b.city_ids[c]].name
            if st.supply[seat] <= 0:
                return f"You have placed all {PASSENGERS} of your passengers."
            if g.sink[c]:
                return "A passenger can never stand in a country."
            if c in self.occupied(st):
                return f"{name} already has a passenger."
            return ("A passenger is placed only right after you claim a route, on one of its "
                    "two cities.")
        if kind == "move_passenger":
            c = b.city_index.get(getattr(action, "city_id", None))
            if c is None:
                return f"There is no city {action.city_id!r} on this map."
            name = ctx.map.cities[b.city_ids[c]].name
            if ctx.phase != "turn":
                return "A passenger can only start moving at the start of your turn."
            if c not in st.at[seat]:
                return f"You have no passenger in {name}."
            return (f"Your passenger in {name} has nowhere to go: it needs a claimed route to "
                    "a German city (an opponent's route costs 1 passenger card).")
        if kind == "passenger_step":
            r = b.route_index.get(getattr(action, "route_id", None))
            if st.mover < 0:
                return "No passenger is moving."
            if r is None:
                return f"There is no route {action.route_id!r} on this map."
            here = ctx.map.cities[b.city_ids[st.cur]].name
            if st.cur not in (g.r_a[r], g.r_b[r]):
                return f"Your passenger is in {here}: it can only take a route from there."
            if ctx.owner(r) < 0:
                return "A passenger travels only on claimed routes."
            if r in st.used:
                return "Your passenger has already used this route on this move."
            if g.sink[g.other_end(r, st.cur)]:
                return "A passenger can never go into a country."
            if ctx.owner(r) != st.mover:
                return "An opponent's route costs 1 passenger card, and you have none left."
            return "Your passenger cannot use both tracks of a double in one move."
        if kind == "stop_passenger":
            if st.mover < 0:
                return "No passenger is moving."
            return "Your passenger must travel at least one route before it stops."
        return None

    # Scoring -----------------------------------------------------------------------
    def tie_break_value(self, ctx: "RuleContext", seat: int, name: str) -> int | None:
        if name == "merchandise":
            return sum(self._st(ctx).taken[seat])
        return None

    def measure(self, ctx: "RuleContext", seat: int, name: str) -> int | None:
        if name == "merchandise":
            return sum(self._st(ctx).taken[seat])
        return None

    def statistics(self, ctx: "RuleContext", seat: int) -> dict[str, float]:
        st = self._st(ctx)
        return {"merchandise_points": float(sum(st.taken[seat])),
                "passengers_placed": float(st.placed[seat]),
                "passenger_moves": float(st.moves[seat]),
                "passenger_steps": float(st.steps[seat]),
                "passenger_cards_paid": float(st.fares[seat])}

    # Views and search ----------------------------------------------------------------
    def view_fields(self, ctx: "RuleContext", seat: int) -> dict[str, Any]:
        st = self._st(ctx)
        b = ctx.board
        ids = b.city_ids
        on_board = {ids[c]: s for s, cities in enumerate(st.at) for c in cities}
        if st.mover >= 0:
            on_board[ids[st.cur]] = st.mover
        totals = tuple(sum(t) for t in st.taken)
        n = ctx.n_players
        left = tuple(st.supply[s] + len(st.at[s]) + (1 if st.mover == s else 0)
                     for s in range(n))
        move = None
        if st.mover >= 0:
            move = {"seat": st.mover, "start": ids[st.start], "at": ids[st.cur],
                    "used": tuple(b.route_ids[r] for r in st.used),
                    "visited": tuple(ids[c] for c in st.visited),
                    "fare": st.fare, "gained": st.gained}
        place = None
        if st.place_route >= 0:
            place = {"route": b.route_ids[st.place_route],
                     "cities": tuple(ids[c] for c in self.place_cities(
                         ctx, ctx.seat, st.place_route))}
        return {
            "passengers": {"on_board": on_board, "supply": tuple(st.supply),
                           "in_play": left},
            "merchandise": {ids[c]: tuple(stack) for c, stack in enumerate(st.stacks)
                            if ctx.map.cities[ids[c]].merchandise},
            "merchandise_totals": totals,
            "passenger_move": move,
            "passenger_place": place,
            "seat_stats": tuple(f"{left[s]} pass. · {totals[s]} goods" for s in range(n)),
            "marklin": st.to_dict(),
        }

    def city_tokens(self, ctx: "RuleContext") -> dict[str, list[CityToken]]:
        st = self._st(ctx)
        ids = ctx.board.city_ids
        out: dict[str, list[CityToken]] = {}
        for seat, cities in enumerate(st.at):
            for c in cities:
                out.setdefault(ids[c], []).append(CityToken("passenger", seat))
        if st.mover >= 0:
            out.setdefault(ids[st.cur], []).append(CityToken("passenger", st.mover))
        for c, stack in enumerate(st.stacks):
            if stack:
                out.setdefault(ids[c], []).append(
                    CityToken("merchandise", None, stack[0], len(stack)))
        return out

    def determinize(self, ctx: "RuleContext", view: "PlayerView", rng: random.Random) -> None:
        # Everything about passengers and merchandise is public: rebuild it as it stands.
        ctx.set_state(self.name, MarklinState.from_dict(copy.deepcopy(view.extra["marklin"])))


#: Märklin (rules.md §2, §6): 118 cards, two announced ticket decks, passengers.
MARKLIN = Ruleset(
    name="marklin",
    map_id="marklin",
    min_players=2,
    max_players=5,
    trains_per_player=45,
    cards=colour_cards(11) + (
        locomotive(14),
        # the +4 locomotive is wild on routes of 4 or more and an ordinary pick; it
        # does not count toward the locomotive refresh.
        CardKind("locomotive_plus4", 6, color=False, wild=True, wild_min_length=4),
        # three passenger cards face up refresh the display; mixed displays do not.
        CardKind(PASSENGER_CARD, 10, color=False, refresh_group="passenger"),
    ),
    ticket_decks=("short", "long"),
    initial_tickets=(),
    initial_announced=4,
    initial_keep_min=2,
    initial_returns="reshuffle",
    ticket_draw=4,
    ticket_keep_min=1,
    ticket_draw_decks=("short", "long"),
    ticket_draw_announced=True,
    route_points={1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18},
    parallel_open_from=((2, 4), (3, 4)),
    bonuses=(Bonus("most_tickets", "completed_tickets", 10),),
    score_parts=("routes", "tickets", "merchandise", "most_tickets"),
    ledger_parts=(("route", "routes"), ("merchandise", "merchandise")),
    tie_breaks=("tickets", "merchandise"),
    modules=("marklin",),
)
