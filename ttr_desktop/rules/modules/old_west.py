"""Old West (rules.md §4): home cities, connected networks, city markers, Alvin the Alien.

Two rule modules and the ``old-west`` variant:

- ``old_west`` (always on): after the tickets each seat chooses a home city, from the
  seat that plays last backwards (§4.2); every claim must touch the seat's network,
  which grows from its home city (§4.3); after a claim the seat may buy a city marker
  for either end of the route with a pair of one colour; route points go to the owners
  of marked ends (§4.3's table); at most 3 cities per seat, home included.
- ``alvin`` (the option): Alvin starts on Roswell; claiming a route into his city
  captures him (+10) and moves him to one of the captor's cities; his holder takes +10
  at the end (§4.5). Nobody starts in or marks Roswell while he is in play.

Decisions: the network is the component of the seat's routes that holds its home city
(every route it owns is in it by construction); points are redirected when a route is
claimed and never re-scored (A-24); a seat owning both ends of a route it claims scores
it twice (A-23, knob ``oldwest_self_double``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ttr_desktop.rules.actions import Action, Cards, Decline, cards_text, register_action
from ttr_desktop.rules.context import DONE
from ttr_desktop.rules.modules.base import RuleModule
from ttr_desktop.rules.payment import ANY_COLOUR, payments
from ttr_desktop.rules.ruleset import Bonus, Requirement, Ruleset, shortfall
from ttr_desktop.rules.actions import normalize_cards
from ttr_desktop.rules.state import ModuleState
from ttr_desktop.rules.tokens import CityToken
from ttr_desktop.rules.words import plural

if TYPE_CHECKING:
    from ttr_desktop.maps.model import GameMap
    from ttr_desktop.rules.context import RuleContext, Stage
    from ttr_desktop.rules.view import PlayerView

CHOOSE_HOME = "choose_home_city"
PLACE_MARKER = "place_city_marker"
MOVE_ALVIN = "move_alvin"
#: The generic decline of the marker step ("no city marker").
NO_MARKER = Decline("city_marker")


# Actions ----------------------------------------------------------------------
@register_action
@dataclass(frozen=True, slots=True)
class ChooseHomeCity(Action):
    """Put a city marker on ``city_id`` as the seat's home city (setup, §4.2)."""

    kind: ClassVar[str] = "choose_home_city"
    city_id: str

    def describe(self) -> str:
        return f"choose {self.city_id} as home city"

    def target(self) -> tuple[str, str] | None:
        return ("city", self.city_id)


@register_action
@dataclass(frozen=True, slots=True)
class PlaceCityMarker(Action):
    """After a claim: a city marker on ``city_id`` (an end of that route), paid with a pair."""

    kind: ClassVar[str] = "place_city_marker"
    city_id: str
    cards: Cards

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", normalize_cards(self.cards))

    def describe(self) -> str:
        return f"place a city marker on {self.city_id} with {cards_text(self.cards)}"

    def target(self) -> tuple[str, str] | None:
        return ("city", self.city_id)


@register_action
@dataclass(frozen=True, slots=True)
class MoveAlvin(Action):
    """Move the captured Alvin to ``city_id``, a city the captor controls."""

    kind: ClassVar[str] = "move_alvin"
    city_id: str

    def describe(self) -> str:
        return f"move Alvin to {self.city_id}"

    def target(self) -> tuple[str, str] | None:
        return ("city", self.city_id)


# State ------------------------------------------------------------------------
@dataclass
class OldWestState(ModuleState):
    """Home city per seat (city index, -1 before it is chosen); the seat controlling each
    city (-1: none; home cities included); markers placed after claims and route points
    earned through markers on other seats' claims, per seat; the route whose marker step
    is pending (-1: none)."""

    home: list[int]
    marker: list[int]
    placed: list[int]
    marker_points: list[int]
    route: int = -1

    def copy(self) -> "OldWestState":
        return OldWestState(self.home[:], self.marker[:], self.placed[:],
                            self.marker_points[:], self.route)


@dataclass
class AlvinState(ModuleState):
    """Alvin's city (index), his holder (-1 before the first capture) and captures per seat."""

    city: int
    holder: int
    captures: list[int]

    def copy(self) -> "AlvinState":
        return AlvinState(self.city, self.holder, self.captures[:])


def _forbidden(ctx: "RuleContext") -> frozenset[int]:
    """Cities nobody may start in or mark: Roswell, while Alvin is in play."""
    if "alvin" not in ctx.ruleset.modules:
        return frozenset()
    b = ctx.board
    return frozenset(b.city_index[cid] for cid, c in ctx.map.cities.items()
                     if c.forbidden_start)


def city_name(ctx: "RuleContext", city: int) -> str:
    """A city's printed name."""
    return ctx.map.cities[ctx.board.city_ids[city]].name


def _or_words(names: list[str]) -> str:
    """'Boise', 'Boise or Salt Lake City'."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " or " + names[-1]


class OldWest(RuleModule):
    """Home cities, the network rule, city markers and redirected route points."""

    name = "old_west"
    action_kinds = ("choose_home_city", "place_city_marker")
    phases = {
        CHOOSE_HOME: "Choose your home city: your network grows from there.",
        PLACE_MARKER: "Place a city marker for a pair?",
    }
    knobs = {"city_markers": 3, "oldwest_self_double": True}
    state_type = OldWestState

    def __init__(self) -> None:
        self._marker_actions: dict[tuple[int, ...], list[PlaceCityMarker]] = {}
        self._home_actions: list[ChooseHomeCity] | None = None
        self._forbidden: frozenset[int] | None = None

    # Helpers ----------------------------------------------------------------
    def forbidden(self, ctx: "RuleContext") -> frozenset[int]:
        """Cities nobody may start in or mark (Roswell with Alvin)."""
        if self._forbidden is None:
            self._forbidden = _forbidden(ctx)
        return self._forbidden

    def markers_left(self, ctx: "RuleContext", seat: int) -> int:
        """City markers ``seat`` still has (the home city uses one)."""
        st = ctx.state(self.name)
        used = st.placed[seat] + (1 if st.home[seat] >= 0 else 0)
        return max(0, ctx.knob("city_markers", 3) - used)

    def controlled(self, ctx: "RuleContext", seat: int) -> list[int]:
        """City indices ``seat`` controls (home first)."""
        st = ctx.state(self.name)
        home = st.home[seat]
        out = [home] if home >= 0 else []
        out.extend(c for c, o in enumerate(st.marker) if o == seat and c != home)
        return out

    def in_network(self, ctx: "RuleContext", seat: int, city: int) -> bool:
        """Whether ``city`` is ``seat``'s home city or one its trains reach."""
        if ctx.state(self.name).home[seat] == city:
            return True
        owner = ctx.owners()
        return any(owner[r] == seat for r in ctx.board.city_routes[city])

    def _free_ends(self, ctx: "RuleContext", route: int) -> list[int]:
        b = ctx.board
        st = ctx.state(self.name)
        bad = self.forbidden(ctx)
        return [c for c in (b.r_a[route], b.r_b[route])
                if st.marker[c] < 0 and c not in bad and not b.graph.sink[c]]

    def _pair_payments(self, ctx: "RuleContext", seat: int) -> list[tuple[int, ...]]:
        b = ctx.board
        hand = list(ctx.hand(seat)) + [0] * (b.n_pay - b.n_cards)  # cards only
        return payments(b.pay, 2, ANY_COLOUR, hand)

    # Setup ----------------------------------------------------------------------
    @classmethod
    def requirements(cls, ruleset: Ruleset, game_map: "GameMap",
                     players: int) -> list[Requirement]:
        """A home city for every seat: a city (not a country), and while Alvin plays
        not a ``forbidden_start`` one (§4.2, §4.5)."""
        alvin = "alvin" in ruleset.modules
        homes = sum(1 for c in game_map.cities.values()
                    if not c.is_sink and not (alvin and c.forbidden_start))
        if alvin:
            why = (f"each of the {players} players chooses a home city, and nobody starts "
                   "in a forbidden_start city while Alvin plays: ")
            noun = "cities without forbidden_start"
        else:
            why = f"each of the {players} players chooses a home city: "
            noun = "cities"
        return [Requirement("cities.forbidden_start" if alvin else "cities", players, homes,
                            why + shortfall(players, homes, noun))]

    def setup(self, ctx: "RuleContext") -> None:
        n = ctx.n_players
        ctx.set_state(self.name, OldWestState([-1] * n, [-1] * ctx.board.n_cities,
                                              [0] * n, [0] * n))

    def setup_steps(self, ctx: "RuleContext") -> list["Stage"]:
        """One home-city choice per seat: the seat that plays last first, then backwards."""
        n = ctx.n_players
        last = (ctx.first_seat - 1) % n
        return [(self.name, "home", {"seat": (last - k) % n}) for k in range(n)]

    def run_stage(self, ctx: "RuleContext", step: str, data: dict[str, Any]) -> str:
        st = ctx.state(self.name)
        if step == "home":
            return ctx.open(CHOOSE_HOME, data["seat"])
        if step == "marker":
            seat, route = data["seat"], data["route"]
            if (self.markers_left(ctx, seat) <= 0 or not self._free_ends(ctx, route)
                    or not self._pair_payments(ctx, seat)):
                return DONE
            st.route = route
            return ctx.open(PLACE_MARKER)
        raise ValueError(f"unknown old_west step {step!r}")

    # Decisions --------------------------------------------------------------------
    def phase_actions(self, ctx: "RuleContext", phase: str) -> list[Action]:
        b = ctx.board
        st = ctx.state(self.name)
        if phase == CHOOSE_HOME:
            if self._home_actions is None:
                self._home_actions = [ChooseHomeCity(cid) for cid in b.city_ids]
            bad = self.forbidden(ctx)
            sink = b.graph.sink
            return [a for c, a in enumerate(self._home_actions)
                    if st.marker[c] < 0 and c not in bad and not sink[c]]
        if phase == PLACE_MARKER:
            acts: list[Action] = []
            ends = self._free_ends(ctx, st.route)
            for vec in self._pair_payments(ctx, ctx.seat):
                row = self._marker_actions.get(vec)
                if row is None:
                    cards = b.cards_tuple(vec)
                    row = self._marker_actions[vec] = [PlaceCityMarker(cid, cards)
                                                       for cid in b.city_ids]
                acts.extend(row[c] for c in ends)
            acts.sort(key=lambda a: (b.city_index[a.city_id], a.cards))
            acts.append(NO_MARKER)
            return acts
        return []

    def apply(self, ctx: "RuleContext", action: Action) -> str:
        b = ctx.board
        st = ctx.state(self.name)
        seat = ctx.seat
        if action.kind == "choose_home_city":
            c = b.city_index[action.city_id]
            st.home[seat] = c
            st.marker[c] = seat
            ctx.emit("home_city_chosen", seat, {"city": action.city_id})
            return DONE
        if action.kind == "place_city_marker":
            ctx.pay(seat, b.hand_from_cards(action.cards))
            c = b.city_index[action.city_id]
            st.marker[c] = seat
            st.placed[seat] += 1
            st.route = -1
            ctx.emit("city_marker_placed", seat, {"city": action.city_id,
                                                  "cards": cards_text(action.cards),
                                                  "left": self.markers_left(ctx, seat)})
            return DONE
        if action.kind == "decline":
            st.route = -1
            return DONE
        raise ValueError(action.kind)

    def prompt(self, ctx: "RuleContext", phase: str) -> str | None:
        if phase == PLACE_MARKER:
            st = ctx.state(self.name)
            if st.route >= 0:
                names = [city_name(ctx, c) for c in self._free_ends(ctx, st.route)]
                return f"Place a city marker on {_or_words(names)} for a pair?"
        return self.phases.get(phase)

    def explain(self, ctx: "RuleContext", action: Action) -> str | None:
        b = ctx.board
        st = ctx.state(self.name)
        city = b.city_index.get(getattr(action, "city_id", None))
        if city is None:
            return f"There is no city {getattr(action, 'city_id', '')!r} on this map."
        name = city_name(ctx, city)
        owner = st.marker[city]
        if action.kind == "choose_home_city":
            if ctx.phase != CHOOSE_HOME:
                return "Home cities are chosen before the first turn."
            if city in self.forbidden(ctx):
                return f"Nobody may start in {name}: Alvin the Alien is there."
            if owner >= 0:
                return f"{name} is already {ctx.players[owner]}'s city; choose another."
            return None
        if action.kind == "place_city_marker":
            if ctx.phase != PLACE_MARKER:
                return "A city marker can only be placed right after claiming a route."
            if city in self.forbidden(ctx):
                return f"Nobody may place a marker in {name} while Alvin is in play."
            if owner >= 0:
                return f"{name} already has {ctx.players[owner]}'s marker."
            if city not in (b.r_a[st.route], b.r_b[st.route]):
                return f"{name} is not an end of the route you just claimed."
            if self.markers_left(ctx, ctx.seat) <= 0:
                return "You have placed all your city markers."
            return "A city marker costs a pair of one colour (locomotives are wild)."
        return None

    # Claims -----------------------------------------------------------------------
    def may_claim(self, ctx: "RuleContext", seat: int, route: int) -> bool:
        """The route touches the seat's home or a city its routes reach."""
        b = ctx.board
        home = ctx.state(self.name).home[seat]
        if home < 0:
            return False
        a, c = b.r_a[route], b.r_b[route]
        if a == home or c == home:
            return True
        owner = ctx.owners()
        routes = b.city_routes
        for x in (a, c):
            for r in routes[x]:
                if owner[r] == seat:
                    return True
        return False

    def veto_claim(self, ctx: "RuleContext", seat: int, route: int) -> str | None:
        if self.may_claim(ctx, seat, route):
            return None
        b = ctx.board
        home = ctx.state(self.name).home[seat]
        if home < 0:
            return "Choose your home city first."
        a, c = b.r_a[route], b.r_b[route]
        owner = ctx.owners()
        home_name = city_name(ctx, home)
        where = f"{city_name(ctx, a)}–{city_name(ctx, c)}"
        if seat not in owner:
            return (f"Your first route must start at your home city, {home_name}: "
                    f"{where} does not.")
        return (f"{where} is not connected to your network from {home_name}: claim a route "
                "that touches a city your trains already reach.")

    def route_scorers(self, ctx: "RuleContext", seat: int,
                      route: int) -> list[tuple[int, int]] | None:
        """The owners of marked ends score the route (each end once); else the claimant."""
        b = ctx.board
        st = ctx.state(self.name)
        ma, mb = st.marker[b.r_a[route]], st.marker[b.r_b[route]]
        if ma < 0 and mb < 0:
            return None
        pts = b.r_points[route]
        if ma == seat and mb == seat and not ctx.knob("oldwest_self_double", True):
            return [(seat, pts)]
        out = [(m, pts) for m in (ma, mb) if m >= 0]
        for m, p in out:
            if m != seat:
                st.marker_points[m] += p
        return out

    def after_claim(self, ctx: "RuleContext", seat: int, route: int) -> list["Stage"]:
        if self.markers_left(ctx, seat) <= 0:
            return []
        return [(self.name, "marker", {"seat": seat, "route": route})]

    def claim_effects(self, ctx: "RuleContext", seat: int, route: int) -> list[str]:
        """The city marker the claim would let ``seat`` place (who scores the route is the
        window's scorer line)."""
        left = self.markers_left(ctx, seat)
        ends = self._free_ends(ctx, route)
        if left <= 0 or not ends:
            return []
        names = _or_words([city_name(ctx, c) for c in ends])
        markers = f"{left} marker{'' if left == 1 else 's'} left"
        kept = self._pairs_after_paying(ctx, seat, route)
        if kept == "none":
            return [f"No pair would be left to mark {names} ({markers})."]
        if kept == "some":
            return [f"Then you may mark {names} if you pay so that a pair is left "
                    f"({markers})."]
        return [f"Then you may mark {names} for a pair ({markers})."]

    def _pairs_after_paying(self, ctx: "RuleContext", seat: int, route: int) -> str:
        """Whether the cards left after paying for ``route`` still buy a marker: "all"
        (or the seat cannot pay yet: the usual offer stands), "some" ways or "none"."""
        b = ctx.board
        hand = list(ctx.hand(seat))
        ways = b.claim_rule.payments(route, hand)
        if not ways:
            return "all"
        extra = [0] * (b.n_pay - b.n_cards)
        left = [bool(payments(b.pay, 2, ANY_COLOUR,
                              [h - v for h, v in zip(hand, vec)] + extra))
                for vec in ways]
        return "all" if all(left) else "some" if any(left) else "none"

    # Scoring, views, search ------------------------------------------------------
    def statistics(self, ctx: "RuleContext", seat: int) -> dict[str, float]:
        st = ctx.state(self.name)
        return {"markers_placed": st.placed[seat], "marker_points": st.marker_points[seat]}

    def view_fields(self, ctx: "RuleContext", seat: int) -> dict[str, Any]:
        st = ctx.state(self.name)
        ids = ctx.board.city_ids
        left = tuple(self.markers_left(ctx, s) for s in range(ctx.n_players))
        stats = [plural(n, "marker") for n in left]
        if "alvin" in ctx.ruleset.modules:
            holder = ctx.state("alvin").holder
            if holder >= 0:
                stats[holder] += " · Alvin"
        return {
            "home_cities": tuple(ids[c] if c >= 0 else "" for c in st.home),
            "city_markers": {ids[c]: o for c, o in enumerate(st.marker) if o >= 0},
            "markers_left": left,
            "markers_placed": tuple(st.placed),
            "marker_points": tuple(st.marker_points),
            "marker_route": ctx.board.route_ids[st.route] if st.route >= 0 else "",
            "seat_stats": (tuple(stats),),
        }

    def city_tokens(self, ctx: "RuleContext") -> dict[str, list[CityToken]]:
        st = ctx.state(self.name)
        ids = ctx.board.city_ids
        homes = set(st.home)
        return {ids[c]: [CityToken("home" if c in homes else "marker", o)]
                for c, o in enumerate(st.marker) if o >= 0}

    def determinize(self, ctx: "RuleContext", view: "PlayerView", rng: random.Random) -> None:
        b = ctx.board
        x = view.extra
        marker = [-1] * b.n_cities
        for cid, o in x["city_markers"].items():
            marker[b.city_index[cid]] = o
        home = [b.city_index[cid] if cid else -1 for cid in x["home_cities"]]
        route = b.route_index[x["marker_route"]] if x["marker_route"] else -1
        ctx.set_state(self.name, OldWestState(home, marker, list(x["markers_placed"]),
                                              list(x["marker_points"]), route))


class Alvin(RuleModule):
    """Alvin the Alien (§4.5): captured by claiming a route into his city."""

    name = "alvin"
    action_kinds = ("move_alvin",)
    phases = {MOVE_ALVIN: "You captured Alvin: move him to one of your cities."}
    knobs = {"alvin_capture_points": 10, "alvin_end_points": 10}
    state_type = AlvinState

    def __init__(self) -> None:
        self._moves: list[MoveAlvin] | None = None

    @classmethod
    def requirements(cls, ruleset: Ruleset, game_map: "GameMap",
                     players: int) -> list[Requirement]:
        """A city for Alvin to start in: the first one marked ``forbidden_start`` (§4.5)."""
        starts = sum(1 for c in game_map.cities.values() if c.forbidden_start)
        return [Requirement("cities.forbidden_start", 1, starts,
                            "Alvin the Alien starts in a city marked forbidden_start: "
                            + shortfall(1, starts, "city"))]

    def setup(self, ctx: "RuleContext") -> None:
        b = ctx.board
        start = [b.city_index[cid] for cid, c in ctx.map.cities.items() if c.forbidden_start]
        if not start:
            raise ValueError(f"the map {ctx.map.id!r} has no city for Alvin to start in")
        ctx.set_state(self.name, AlvinState(start[0], -1, [0] * ctx.n_players))

    def _choices(self, ctx: "RuleContext", seat: int) -> list[int]:
        """Cities Alvin may be moved to: the captor's, except where he stands."""
        st = ctx.state(self.name)
        ow: OldWestState = ctx.state("old_west")
        home = ow.home[seat]
        cities = ([home] if home >= 0 else []) + [
            c for c, o in enumerate(ow.marker) if o == seat and c != home]
        return [c for c in cities if c != st.city]

    def after_claim(self, ctx: "RuleContext", seat: int, route: int) -> list["Stage"]:
        st = ctx.state(self.name)
        b = ctx.board
        if st.city in (b.r_a[route], b.r_b[route]) and st.holder != seat:
            return [(self.name, "capture", {"seat": seat})]
        return []

    def claim_effects(self, ctx: "RuleContext", seat: int, route: int) -> list[str]:
        """Capturing Alvin: the points now and at the end, and where he may go."""
        st = ctx.state(self.name)
        b = ctx.board
        if st.city not in (b.r_a[route], b.r_b[route]) or st.holder == seat:
            return []
        here = city_name(ctx, st.city)
        now, end = ctx.knob("alvin_capture_points", 10), ctx.knob("alvin_end_points", 10)
        line = (f"Captures Alvin in {here}: +{now} now, and +{end} at the end if you still "
                "hold him.")
        names = [city_name(ctx, c) for c in self._choices(ctx, seat)]
        ow: OldWestState = ctx.state("old_west")
        left = ctx.knob("city_markers", 3) - ow.placed[seat] - (ow.home[seat] >= 0)
        bad = _forbidden(ctx)
        # The marker step comes first: an end marked then is one of his choices too.
        markable = [city_name(ctx, c) for c in dict.fromkeys((b.r_a[route], b.r_b[route]))
                    if left > 0 and c != st.city and ow.marker[c] < 0 and c not in bad
                    and not b.graph.sink[c]]
        every = names + [f"{m} (if you mark it)" for m in markable]
        if len(every) > 1:
            line += f" He then moves to one of your cities: {_or_words(every)}."
        elif every:
            line += f" He then moves to {every[0]}."
        else:
            line += f" He stays in {here}: you control no other city."
        return [line]

    def run_stage(self, ctx: "RuleContext", step: str, data: dict[str, Any]) -> str:
        if step != "capture":
            raise ValueError(f"unknown alvin step {step!r}")
        st = ctx.state(self.name)
        seat = data["seat"]
        pts = ctx.knob("alvin_capture_points", 10)
        ctx.score(seat, pts, "alvin")
        ids = ctx.board.city_ids
        ctx.emit("alvin_captured", seat, {"city": ids[st.city], "points": pts,
                                          "from": st.holder})
        st.holder = seat
        st.captures[seat] += 1
        choices = self._choices(ctx, seat)
        if len(choices) > 1:
            return ctx.open(MOVE_ALVIN)
        if choices:
            self._move(ctx, seat, choices[0])
        return DONE

    def _move(self, ctx: "RuleContext", seat: int, city: int) -> None:
        st = ctx.state(self.name)
        st.city = city
        ctx.emit("alvin_moved", seat, {"city": ctx.board.city_ids[city]})

    def phase_actions(self, ctx: "RuleContext", phase: str) -> list[Action]:
        if self._moves is None:
            self._moves = [MoveAlvin(cid) for cid in ctx.board.city_ids]
        return [self._moves[c] for c in self._choices(ctx, ctx.seat)]

    def apply(self, ctx: "RuleContext", action: Action) -> str:
        self._move(ctx, ctx.seat, ctx.board.city_index[action.city_id])
        return DONE

    def explain(self, ctx: "RuleContext", action: Action) -> str | None:
        if ctx.phase != MOVE_ALVIN:
            return "Alvin moves only right after you capture him."
        city = ctx.board.city_index.get(action.city_id)
        if city is None:
            return f"There is no city {action.city_id!r} on this map."
        return (f"Alvin must go to a city you control; {city_name(ctx, city)} is not one "
                "of yours.")

    def score_parts(self, ctx: "RuleContext", seat: int) -> dict[str, int]:
        st = ctx.state(self.name)
        return {"alvin": ctx.knob("alvin_end_points", 10) if st.holder == seat else 0}

    def statistics(self, ctx: "RuleContext", seat: int) -> dict[str, float]:
        return {"alvin_captures": ctx.state(self.name).captures[seat]}

    def view_fields(self, ctx: "RuleContext", seat: int) -> dict[str, Any]:
        st = ctx.state(self.name)
        return {"alvin": {"city": ctx.board.city_ids[st.city], "holder": st.holder,
                          "captures": tuple(st.captures)}}

    def city_tokens(self, ctx: "RuleContext") -> dict[str, list[CityToken]]:
        st = ctx.state(self.name)
        return {ctx.board.city_ids[st.city]: [
            CityToken("alvin", st.holder if st.holder >= 0 else None)]}

    def determinize(self, ctx: "RuleContext", view: "PlayerView", rng: random.Random) -> None:
        info = view.extra["alvin"]
        ctx.set_state(self.name, AlvinState(ctx.board.city_index[info["city"]],
                                            info["holder"], list(info["captures"])))


OLD_WEST = Ruleset(
    name="old-west",
    map_id="old-west",
    min_players=2,
    max_players=6,
    trains_per_player=40,
    initial_tickets=(("regular", 5),),
    initial_keep_min=3,
    initial_returns="under_shuffled",
    ticket_draw=4,
    ticket_keep_min=1,
    # 2-3 players: one track of a double or triple; 4-6: every track (never two for one seat).
    parallel_open_from=((2, 4), (3, 4)),
    # Globetrotter to the most completed tickets, every tie scores; no longest path.
    bonuses=(Bonus("globetrotter", "completed_tickets", 15),),
    score_parts=("routes", "tickets", "globetrotter"),
    tie_breaks=("tickets",),   # then a shared victory
    modules=("old_west",),
    optional_modules=("alvin",),
)
