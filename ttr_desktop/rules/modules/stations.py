"""Stations (rules.md §1.9; Europe §1.10): build action, borrowing at the end, unbuilt points."""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttr_desktop.rules.actions import Action, BuildStation, cards_text
from ttr_desktop.rules.context import DONE
from ttr_desktop.rules.modules.base import RuleModule
from ttr_desktop.rules.payment import ANY_COLOUR, payments
from ttr_desktop.rules.state import ModuleState
from ttr_desktop.rules.tokens import CityToken
from ttr_desktop.rules.words import plural

if TYPE_CHECKING:
    from ttr_desktop.rules.context import RuleContext
    from ttr_desktop.rules.view import PlayerView


@dataclass
class StationsState(ModuleState):
    """Owner of the station on each city (-1: none) and stations left per seat."""

    city: list[int]
    left: list[int]

    def copy(self) -> "StationsState":
        return StationsState(self.city[:], self.left[:])


class Stations(RuleModule):
    """The fourth action: build a station; at the end each borrows one opponent route."""

    name = "stations"
    action_kinds = ("build_station",)
    state_type = StationsState

    def __init__(self) -> None:
        self._actions: dict[tuple[int, ...], list[BuildStation]] = {}

    def setup(self, ctx: "RuleContext") -> None:
        ctx.set_state(self.name, StationsState([-1] * ctx.board.n_cities,
                                               [ctx.ruleset.stations_per_player] * ctx.n_players))

    def built(self, ctx: "RuleContext", seat: int) -> int:
        """Stations ``seat`` has built."""
        return ctx.ruleset.stations_per_player - ctx.state(self.name).left[seat]

    # Building -----------------------------------------------------------
    def turn_actions(self, ctx: "RuleContext", seat: int) -> list[Action]:
        data = ctx.state(self.name)
        if data.left[seat] <= 0:
            return []
        b = ctx.board
        cost = self.built(ctx, seat) + 1  # 1st: 1 card, 2nd: 2 of a colour, 3rd: 3
        hand = list(ctx.hand(seat)) + [0] * (b.n_pay - b.n_cards)  # cards only, no sources
        pays = payments(b.pay, cost, ANY_COLOUR, hand)
        if not pays:
            return []
        rows = []
        for vec in pays:  # one row of interned actions (a slot per city) per payment
            row = self._actions.get(vec)
            if row is None:
                cards = b.cards_tuple(vec)
                row = self._actions[vec] = [BuildStation(cid, cards) for cid in b.city_ids]
            rows.append(row)
        acts: list[Action] = []
        for city, owner in enumerate(data.city):
            if owner < 0:
                acts.extend(row[city] for row in rows)
        return acts

    def apply(self, ctx: "RuleContext", action: Action) -> str:
        b = ctx.board
        seat = ctx.seat
        data = ctx.state(self.name)
        ctx.pay(seat, b.hand_from_cards(action.cards))
        data.city[b.city_index[action.city_id]] = seat
        data.left[seat] -= 1
        ctx.emit("station_built", seat, {"city": action.city_id,
                                         "cards": cards_text(action.cards)})
        return DONE

    def explain(self, ctx: "RuleContext", action: Action) -> str | None:
        b = ctx.board
        data = ctx.state(self.name)
        seat = ctx.seat
        city = b.city_index.get(getattr(action, "city_id", None))
        if city is None:
            return f"There is no city {action.city_id!r} on this map."
        name = ctx.map.cities[action.city_id].name
        if data.left[seat] <= 0:
            return "You have built all your stations."
        if data.city[city] >= 0:
            return f"{name} already has {ctx.players[data.city[city]]}'s station."
        cost = self.built(ctx, seat) + 1
        if cost == 1:
            return "Your first station costs 1 card of any kind."
        return (f"Your station number {cost} costs {plural(cost, 'card')} of one colour "
                f"(locomotives are wild).")

    # Scoring ------------------------------------------------------------
    def ticket_borrow_choices(self, ctx: "RuleContext", seat: int) -> list[tuple[int, ...]]:
        """Per built station of ``seat``: the routes another player claimed into or out
        of its city, one of which it may borrow for tickets (§1.9)."""
        b = ctx.board
        owner = ctx.owners()
        return [tuple(r for r in b.city_routes[city] if owner[r] >= 0 and owner[r] != seat)
                for city, who in enumerate(ctx.state(self.name).city) if who == seat]

    def ticket_edge_options(self, ctx: "RuleContext", seat: int) -> list[tuple[int, ...]]:
        """Every choice of one opponent route per built station (or none) (§1.9)."""
        choices = [[None, *routes] for routes in self.ticket_borrow_choices(ctx, seat)]
        if not choices:
            return [()]
        return [tuple(r for r in combo if r is not None) for combo in itertools.product(*choices)]

    def score_parts(self, ctx: "RuleContext", seat: int) -> dict[str, int]:
        return {"stations": ctx.state(self.name).left[seat] * ctx.ruleset.station_points}

    def tie_break_value(self, ctx: "RuleContext", seat: int, name: str) -> int | None:
        if name == "fewest_stations":
            return -self.built(ctx, seat)
        return None

    # Views --------------------------------------------------------------
    def view_fields(self, ctx: "RuleContext", seat: int) -> dict[str, Any]:
        data = ctx.state(self.name)
        ids = ctx.board.city_ids
        return {
            "stations": {ids[c]: o for c, o in enumerate(data.city) if o >= 0},
            "stations_left": tuple(data.left),
        }

    def city_tokens(self, ctx: "RuleContext") -> dict[str, list[CityToken]]:
        ids = ctx.board.city_ids
        return {ids[c]: [CityToken("station", o)]
                for c, o in enumerate(ctx.state(self.name).city) if o >= 0}

    def determinize(self, ctx: "RuleContext", view: "PlayerView", rng: random.Random) -> None:
        b = ctx.board
        city = [-1] * b.n_cities
        for cid, o in view.extra["stations"].items():
            city[b.city_index[cid]] = o
        ctx.set_state(self.name, StationsState(city, list(view.extra["stations_left"])))
