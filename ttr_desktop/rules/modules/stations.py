"""Stations (rules.md §1.9; Europe §1.10): build action, borrowing at the end, unbuilt points."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from ttr_desktop.rules.actions import Action, BuildStation, cards_text
from ttr_desktop.rules.board import set_payments
from ttr_desktop.rules.events import Event
from ttr_desktop.rules.modules.base import RuleModule

if TYPE_CHECKING:
    from ttr_desktop.rules.game import Game


class Stations(RuleModule):
    """State: ``ext["stations"] = {"city": [owner per city, -1 if none], "left": [per seat]}``."""

    name = "stations"
    action_kinds = ("build_station",)

    def __init__(self) -> None:
        self._actions: dict[tuple[int, int, int, int], BuildStation] = {}

    def setup(self, game: "Game") -> list[Event]:
        game.state.ext[self.name] = {
            "city": [-1] * game.board.n_cities,
            "left": [game.ruleset.stations_per_player] * game.num_players,
        }
        return []

    def copy_state(self, data: Any) -> Any:
        return {"city": data["city"][:], "left": data["left"][:]}

    def built(self, game: "Game", seat: int) -> int:
        """Stations ``seat`` has built."""
        return game.ruleset.stations_per_player - game.state.ext[self.name]["left"][seat]

    # Building -----------------------------------------------------------
    def turn_actions(self, game: "Game", seat: int) -> list[Action]:
        data = game.state.ext[self.name]
        if data["left"][seat] <= 0:
            return []
        b = game.board
        cost = self.built(game, seat) + 1  # 1st: 1 card, 2nd: 2 of a colour, 3rd: 3
        pays = set_payments(cost, -1, 0, game.state.hands[seat], b.n_colors)
        if not pays:
            return []
        acts: list[Action] = []
        cache = self._actions
        for city, owner in enumerate(data["city"]):
            if owner >= 0:
                continue
            for c, k, loco in pays:
                key = (city, c, k, loco)
                act = cache.get(key)
                if act is None:
                    act = cache[key] = BuildStation(b.city_ids[city], b.cards_tuple(c, k, loco))
                acts.append(act)
        return acts

    def apply(self, game: "Game", action: Action) -> list[Event]:
        s, b = game.state, game.board
        seat = s.current
        data = s.ext[self.name]
        city = b.city_index[action.city_id]
        paid = b.hand_from_cards(action.cards)
        for card, n in enumerate(paid):
            if n:
                s.hands[seat][card] -= n
                s.discard.extend([card] * n)
        data["city"][city] = seat
        data["left"][seat] -= 1
        ev = [Event("station_built", seat, {"city": action.city_id,
                                            "cards": cards_text(action.cards)})]
        game.end_turn(ev)
        return ev

    def explain(self, game: "Game", action: Action) -> str | None:
        s, b = game.state, game.board
        data = s.ext[self.name]
        seat = s.current
        city = b.city_index.get(getattr(action, "city_id", None))
        if city is None:
            return f"There is no city {action.city_id!r} on this map."
        name = game.map.cities[action.city_id].name
        if data["left"][seat] <= 0:
            return "You have built all your stations."
        if data["city"][city] >= 0:
            return f"{name} already has {game.players[data['city'][city]]}'s station."
        cost = self.built(game, seat) + 1
        if cost == 1:
            return "Your first station costs 1 card of any kind."
        return (f"Your station number {cost} costs {cost} cards of one colour "
                f"(locomotives are wild).")

    # Scoring ------------------------------------------------------------
    def ticket_edge_options(self, game: "Game", seat: int) -> list[tuple[int, ...]]:
        """Every choice of one opponent route per built station (or none) (§1.9)."""
        b, s = game.board, game.state
        choices = []
        for city, owner in enumerate(s.ext[self.name]["city"]):
            if owner != seat:
                continue
            routes = [r for r in b.city_routes[city] if s.owner[r] >= 0 and s.owner[r] != seat]
            choices.append([None] + routes)
        if not choices:
            return [()]
        return [tuple(r for r in combo if r is not None) for combo in itertools.product(*choices)]

    def score_parts(self, game: "Game", seat: int) -> dict[str, int]:
        left = game.state.ext[self.name]["left"][seat]
        return {"stations": left * game.ruleset.station_points}

    def tie_break_value(self, game: "Game", seat: int, name: str) -> int | None:
        if name == "fewest_stations":
            return -self.built(game, seat)
        return None

    def view_fields(self, game: "Game", seat: int) -> dict[str, Any]:
        data = game.state.ext[self.name]
        b = game.board
        return {
            "stations": {b.city_ids[c]: o for c, o in enumerate(data["city"]) if o >= 0},
            "stations_left": tuple(data["left"]),
        }

