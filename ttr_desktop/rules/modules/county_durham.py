"""County Durham (Coal Country), rules.md §5: coal tokens, coal as wilds, coal bonuses.

Robert Bettles' fan map (MIT licence, maps/county-durham.toml). Everything
the family adds to the base game lives here, built only through the hooks:

- Setup (§5.2): a coal token on every city whose map entry says ``coal``,
  then ``coal_removed`` (9) random cities lose theirs: 48 - 9 = 39 tokens.
- Spending (§5.3, A-29): coal is a pay source worth one wild per 2 tokens,
  for any number of pairs, also for a ferry's locomotive; spent coal leaves
  the game; a single leftover token cannot be spent. The payment enumerator
  lists coal like any other card (rules/payment.py).
- Taking (§5.3): after a claim is paid, the claimant may take one token from
  an end of the route; with coal on both ends, only one, chosen by the player.
- Scoring (§5.4): the ruleset declares +10 for the most completed tickets
  (A-30), +10 longest path, +10 most coal and -5 least coal, every tie
  scoring in full (all tied on coal: +10 and -5 each, A-31).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ttr_desktop.rules.actions import Action, Decline, register_action
from ttr_desktop.rules.context import DONE
from ttr_desktop.rules.graph import owned, ticket_status
from ttr_desktop.rules.modules.base import RuleModule
from ttr_desktop.rules.ruleset import Bonus, Requirement, Ruleset, shortfall
from ttr_desktop.rules.state import ModuleState
from ttr_desktop.rules.tokens import CityToken

if TYPE_CHECKING:
    from ttr_desktop.maps.model import GameMap
    from ttr_desktop.rules.board import Board
    from ttr_desktop.rules.context import RuleContext, Stage
    from ttr_desktop.rules.view import PlayerView

COAL = "coal"
#: Coal tokens that make one wild unit (§5.3: "two coal tokens for a single wild").
COAL_PER_WILD = 2
#: The decision after a claim with coal on both ends (or on any end when taking is
#: not automatic): which token to take.
TAKE_COAL = "take_coal"
#: Measure of the "+10 most ..." bonus; what it counts is the A-30 knob.
MOST_BONUS = "durham_most"


@register_action
@dataclass(frozen=True, slots=True)
class TakeCoal(Action):
    """Take the coal token on ``city_id``, an end of the route just claimed."""

    kind: ClassVar[str] = "take_coal"
    city_id: str

    def describe(self) -> str:
        return f"take the coal at {self.city_id}"

    def target(self) -> tuple[str, str] | None:
        return ("city", self.city_id)


DECLINE_COAL = Decline("coal")


@dataclass
class CoalState(ModuleState):
    """Coal tokens on each city (0 or 1), held, spent and picked up per seat, the cities
    offered in a pending pick (empty when none) and the tokens put out at setup."""

    city: list[int]
    held: list[int]
    spent: list[int]
    picked: list[int]
    choice: list[int]
    total: int

    def copy(self) -> "CoalState":
        return CoalState(self.city[:], self.held[:], self.spent[:], self.picked[:],
                         self.choice[:], self.total)


class CountyDurham(RuleModule):
    """Coal: put out at setup, taken after claims, spent as wilds, counted at the end."""

    name = "county_durham"
    action_kinds = ("take_coal",)
    phases = {TAKE_COAL: "Take one of the coal tokens at the ends of your route."}
    state_type = CoalState
    #: The pay sources this module answers for (the core spends them through it).
    sources = (COAL,)
    knobs = {
        # §5.2: tokens removed from random cities after one is put on every city.
        "coal_removed": 9,
        # §5.3 says the claimant "may take" the coal. Taking it can never lower your own
        # score (more coal only helps towards +10 most / away from -5 least) and it denies
        # it to others, so by default the token is taken at once when only one end has
        # coal, and the player only chooses between the two ends when both have some.
        # Off: the player is always asked and may leave the coal.
        "coal_auto_take": True,
        # the "+10 most completed routes" bonus means the most completed tickets
        # ("tickets", the tie sentence's reading); "routes" counts claimed routes instead.
        "durham_most_bonus": "tickets",
    }

    # Compile and setup ---------------------------------------------------------
    def compile(self, board: "Board") -> None:
        board.add_source(COAL, COAL_PER_WILD)

    @classmethod
    def requirements(cls, ruleset: Ruleset, game_map: "GameMap",
                     players: int) -> list[Requirement]:
        """Coal left on the board after setup takes ``coal_removed`` tokens away (§5.2)."""
        removed = ruleset.knob("coal_removed", cls.knobs["coal_removed"])
        removed = max(0, removed) if isinstance(removed, int) else 0
        coal = sum(1 for c in game_map.cities.values() if c.coal)
        return [Requirement(
            "cities.coal", removed + 1, coal,
            f"setup takes the coal off {removed} random cities (coal_removed) and coal must "
            f"be left on the board: " + shortfall(removed + 1, coal, "cities with coal"))]

    def setup(self, ctx: "RuleContext") -> None:
        b = ctx.board
        cities = ctx.map.cities
        coal = [1 if cities[cid].coal else 0 for cid in b.city_ids]
        with_coal = [c for c, n in enumerate(coal) if n]
        removed = min(len(with_coal), max(0, int(ctx.knob("coal_removed", 9))))
        for c in ctx.rng.sample(with_coal, removed):
            coal[c] = 0
        n = ctx.n_players
        ctx.set_state(self.name, CoalState(coal, [0] * n, [0] * n, [0] * n, [], sum(coal)))

    # Spending ----------------------------------------------------------------
    def pay_sources(self, ctx: "RuleContext", seat: int) -> dict[str, int]:
        return {COAL: ctx.state(self.name).held[seat]}

    def spend_source(self, ctx: "RuleContext", seat: int, name: str, count: int) -> None:
        data = ctx.state(self.name)
        if name != COAL or count > data.held[seat] or count % COAL_PER_WILD:
            raise ValueError(f"cannot spend {count} {name}")
        data.held[seat] -= count
        data.spent[seat] += count

    # Taking -----------------------------------------------------------------
    def _ends_with_coal(self, ctx: "RuleContext", route: int) -> list[int]:
        b = ctx.board
        city = ctx.state(self.name).city
        ends = [b.r_a[route], b.r_b[route]]
        return [c for c in dict.fromkeys(ends) if city[c] > 0]

    def after_claim(self, ctx: "RuleContext", seat: int, route: int) -> list["Stage"]:
        if not self._ends_with_coal(ctx, route):
            return []
        return [(self.name, "pick", {"seat": seat, "route": route})]

    def claim_effects(self, ctx: "RuleContext", seat: int, route: int) -> list[str]:
        """The coal the claim would bring, and what coal pays on a ferry."""
        out = []
        names = [ctx.map.cities[ctx.board.city_ids[c]].name
                 for c in self._ends_with_coal(ctx, route)]
        held = ctx.state(self.name).held[seat]
        if len(names) == 2:
            out.append(f"Take the coal at {names[0]} or at {names[1]} (one token; you hold "
                       f"{held}).")
        elif names and ctx.knob("coal_auto_take", True):
            out.append(f"Takes the coal at {names[0]} (you would hold {held + 1}).")
        elif names:
            out.append(f"You may take the coal at {names[0]} (you hold {held}).")
        need = ctx.board.r_min_locos[route]
        if need == 1:
            out.append(f"A pair of coal can pay the ferry's locomotive (you hold {held} coal).")
        elif need:
            out.append(f"Each pair of coal can pay one of the ferry's {need} locomotives (you "
                       f"hold {held} coal).")
        return out

    def run_stage(self, ctx: "RuleContext", step: str, data: dict[str, Any]) -> str:
        if step != "pick":
            raise ValueError(step)
        ends = self._ends_with_coal(ctx, data["route"])
        if not ends:
            return DONE
        if len(ends) == 1 and ctx.knob("coal_auto_take", True):
            self._take(ctx, data["seat"], ends[0])
            return DONE
        ctx.state(self.name).choice = ends
        return ctx.open(TAKE_COAL, data["seat"])

    def phase_actions(self, ctx: "RuleContext", phase: str) -> list[Action]:
        ids = ctx.board.city_ids
        acts: list[Action] = [TakeCoal(ids[c]) for c in ctx.state(self.name).choice]
        if not ctx.knob("coal_auto_take", True):
            acts.append(DECLINE_COAL)
        return acts

    def apply(self, ctx: "RuleContext", action: Action) -> str:
        data = ctx.state(self.name)
        if action.kind == "take_coal":
            self._take(ctx, ctx.seat, ctx.board.city_index[action.city_id])
        else:
            ctx.emit("coal_left", ctx.seat, {"cities": [ctx.board.city_ids[c]
                                                        for c in data.choice]})
        data.choice = []
        return DONE

    def _take(self, ctx: "RuleContext", seat: int, city: int) -> None:
        data = ctx.state(self.name)
        data.city[city] -= 1
        data.held[seat] += 1
        data.picked[seat] += 1
        ctx.emit("coal_taken", seat, {"city": ctx.board.city_ids[city],
                                      "held": data.held[seat]})

    def prompt(self, ctx: "RuleContext", phase: str) -> str | None:
        choice = ctx.state(self.name).choice
        names = [ctx.map.cities[ctx.board.city_ids[c]].name for c in choice]
        if len(names) == 2:
            return f"Take the coal at {names[0]} or at {names[1]} (only one)."
        if len(names) == 1:
            return f"Take the coal at {names[0]}?"
        return self.phases.get(phase)

    def explain(self, ctx: "RuleContext", action: Action) -> str | None:
        if ctx.phase != TAKE_COAL:
            return "Coal is taken only right after claiming a route with coal at an end."
        return "Take the coal at one end of the route you just claimed."

    # Scoring ------------------------------------------------------------------
    def measure(self, ctx: "RuleContext", seat: int, name: str) -> int | None:
        if name == COAL:
            return ctx.state(self.name).held[seat]
        if name == MOST_BONUS:
            if ctx.knob("durham_most_bonus", "tickets") == "routes":
                return sum(1 for o in ctx.owners() if o == seat)
            return completed_tickets(ctx, seat)
        return None

    def statistics(self, ctx: "RuleContext", seat: int) -> dict[str, float]:
        data = ctx.state(self.name)
        return {"coal_kept": data.held[seat], "coal_spent": data.spent[seat],
                "coal_picked": data.picked[seat]}

    # Views and search -----------------------------------------------------------
    def view_fields(self, ctx: "RuleContext", seat: int) -> dict[str, Any]:
        data = ctx.state(self.name)
        ids = ctx.board.city_ids
        return {
            "coal": {
                "cities": {ids[c]: n for c, n in enumerate(data.city) if n},
                "held": tuple(data.held),
                "spent": tuple(data.spent),
                "picked": tuple(data.picked),
                "choice": tuple(ids[c] for c in data.choice),
                "total": data.total,
            },
            "seat_stats": tuple(f"{n} coal" for n in data.held),
        }

    def city_tokens(self, ctx: "RuleContext") -> dict[str, list[CityToken]]:
        ids = ctx.board.city_ids
        return {ids[c]: [CityToken(COAL, None, 0, n)]
                for c, n in enumerate(ctx.state(self.name).city) if n}

    def determinize(self, ctx: "RuleContext", view: "PlayerView", rng: random.Random) -> None:
        info = view.extra[COAL]  # coal is public: nothing to resample
        b = ctx.board
        city = [0] * b.n_cities
        for cid, n in info["cities"].items():
            city[b.city_index[cid]] = n
        ctx.set_state(self.name, CoalState(
            city, list(info["held"]), list(info["spent"]), list(info["picked"]),
            [b.city_index[c] for c in info["choice"]], info["total"]))


def completed_tickets(ctx: "RuleContext", seat: int) -> int:
    """How many of ``seat``'s kept tickets are done (``graph.ticket_status``: the one
    answer; County Durham has no stations to borrow with)."""
    b = ctx.board
    tickets = [(b.tickets[t].a, b.tickets[t].b, b.tickets[t].points) for t in ctx.tickets(seat)]
    return sum(ticket_status(b.graph, owned(ctx.owners(), seat), tickets).done)


COUNTY_DURHAM = Ruleset(
    name="county-durham",
    map_id="county-durham",
    min_players=2,
    max_players=5,
    trains_per_player=45,            # §9: not in the rules; 5 x 45 is 70% of 320 spaces
    initial_hand=4,
    initial_tickets=(("regular", 4),),
    initial_keep_min=2,
    initial_returns="bottom",
    ticket_draw=4,
    ticket_keep_min=1,
    # §5.3: 2-3 players use one track of a double; 4-5 players both.
    parallel_open_from=((2, 4), (3, 4)),
    bonuses=(
        Bonus("most_tickets", MOST_BONUS, 10),
        Bonus("longest_path", "longest_path", 10),
        Bonus("most_coal", COAL, 10, "max", needs_positive=False),
        Bonus("least_coal", COAL, -5, "min", needs_positive=False),
    ),
    score_parts=("routes", "tickets", "most_tickets", "longest_path", "most_coal",
                 "least_coal"),
    tie_breaks=("tickets", "longest_path"),
    modules=("ferries", "county_durham"),
)
