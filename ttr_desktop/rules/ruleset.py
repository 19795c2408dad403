"""Rulesets: plain data plus a list of rule modules.

A variant is a map plus a ruleset. Every ambiguity of rules.md §7 that
applies to a ruleset is a named knob here, with the default listed there.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from ttr_desktop.maps.model import CARD_COLORS

#: Route length -> points (rules.md §1.1: the longer values come from other official maps).
STANDARD_ROUTE_POINTS: dict[int, int] = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21, 9: 27}


@dataclass(frozen=True)
class Ruleset:
    """Everything a variant fixes, as data. Module names select rule modules."""

    name: str
    map_id: str
    min_players: int = 2
    max_players: int = 5
    trains_per_player: int = 45
    end_trigger_trains: int = 2
    #: Train deck: cards per colour and locomotives (rules.md §1.1: 12 x 8 + 14).
    cards_per_color: int = 12
    locomotives: int = 14
    initial_hand: int = 4
    face_up_slots: int = 5
    #: Refresh when this many face-up locomotives show (rules.md §1.4.3).
    refresh_locomotives: int = 3
    #: Initial tickets: (deck, count) pairs dealt to every seat; decks are "regular" / "long".
    initial_tickets: tuple[tuple[str, int], ...] = (("regular", 3),)
    initial_keep_min: int = 2
    #: Where unkept initial tickets go: "bottom" of their deck (USA) or "box" (Europe).
    initial_returns: str = "bottom"
    ticket_draw: int = 3
    ticket_keep_min: int = 1
    route_points: dict[int, int] = field(default_factory=lambda: dict(STANDARD_ROUTE_POINTS))
    #: Both routes of a double are usable only at this player count or more (rules.md §1.5).
    doubles_min_players: int = 4
    longest_path_bonus: int = 10
    #: Tie-breaks after points, in order: "tickets", "fewest_stations", "longest_path".
    tie_breaks: tuple[str, ...] = ("tickets", "longest_path")
    modules: tuple[str, ...] = ()
    stations_per_player: int = 3
    station_points: int = 4

    # --- §7 knobs -------------------------------------------------------
    #: A-01: with no legal action at all, the seat passes.
    pass_when_stuck: bool = True
    #: A-01 [D]: when every seat passes in a row the game cannot go on, so it ends.
    end_on_pass_round: bool = True
    #: A-02: stop the three-locomotive refresh after this many refreshes in a row.
    max_consecutive_refreshes: int = 3
    #: A-03: when to reshuffle the discard into the deck; only "on_demand" exists.
    reshuffle: str = "on_demand"
    #: A-04: face-up cards stay takeable when the deck and discard are both empty.
    face_up_when_deck_empty: bool = True
    #: A-05: drawing tickets from an empty ticket deck is not an action.
    ticket_draw_needs_tickets: bool = True
    #: A-06: the returning seat chooses the order of returned tickets.
    returned_ticket_order: str = "player"
    #: A-07: no bonus (longest path, most tickets) when the best value is 0.
    bonus_needs_positive: bool = True
    #: A-08: station points are paid per station "unbuilt" (not per station "unused").
    station_points_for: str = "unbuilt"

    @property
    def card_names(self) -> tuple[str, ...]:
        """Card names in index order: the eight colours, then the locomotive."""
        return CARD_COLORS + ("locomotive",)

    def deck_composition(self) -> dict[str, int]:
        """Card name -> number of copies in the train deck."""
        comp = {c: self.cards_per_color for c in CARD_COLORS}
        comp["locomotive"] = self.locomotives
        return comp

    def with_options(self, options: dict[str, Any] | None) -> "Ruleset":
        """A copy with ``options`` applied: ``stations`` switches the module on or off,
        any other key must name a ruleset field (a knob)."""
        if not options:
            return self
        changes: dict[str, Any] = {}
        modules = list(self.modules)
        known = {f.name for f in fields(self)}
        for key, value in options.items():
            if key in OPTIONAL_MODULES:
                if value and key not in modules:
                    modules.append(key)
                elif not value and key in modules:
                    modules.remove(key)
                continue
            if key == "first_player":
                continue  # a game option, not a ruleset field
            if key not in known or key in ("name", "map_id", "modules"):
                raise ValueError(f"unknown option {key!r}")
            current = getattr(self, key)
            if isinstance(current, bool) and not isinstance(value, bool):
                raise ValueError(f"option {key!r} must be true or false")
            if isinstance(current, int) and not isinstance(current, bool) and (
                    not isinstance(value, int) or isinstance(value, bool)):
                raise ValueError(f"option {key!r} must be a whole number")
            if isinstance(current, tuple):
                value = tuple(tuple(v) if isinstance(v, list) else v for v in value)
            if isinstance(current, dict):
                value = {int(k): int(v) for k, v in dict(value).items()}
            changes[key] = value
        if "stations" in modules and "stations" not in self.modules:
            # Europe's tie-break order with stations (rules.md A-09).
            if "fewest_stations" not in self.tie_breaks and "tie_breaks" not in changes:
                tb = list(self.tie_breaks)
                tb.insert(1 if "tickets" in tb else 0, "fewest_stations")
                changes["tie_breaks"] = tuple(tb)
        changes["modules"] = tuple(modules)
        result = replace(self, **changes)
        result.check()
        return result

    def check(self) -> None:
        """Raise ValueError when knobs hold values the engine cannot play."""
        if self.reshuffle != "on_demand":
            raise ValueError("reshuffle must be 'on_demand'")
        if self.initial_returns not in ("bottom", "box"):
            raise ValueError("initial_returns must be 'bottom' or 'box'")
        if self.station_points_for != "unbuilt":
            raise ValueError("station_points_for must be 'unbuilt'")
        if self.returned_ticket_order not in ("player", "as_drawn"):
            raise ValueError("returned_ticket_order must be 'player' or 'as_drawn'")
        if self.max_consecutive_refreshes < 0:
            raise ValueError("max_consecutive_refreshes cannot be negative")
        for tb in self.tie_breaks:
            if tb not in ("tickets", "fewest_stations", "longest_path"):
                raise ValueError(f"unknown tie-break {tb!r}")
        if not 1 <= self.min_players <= self.max_players:
            raise ValueError("bad player range")


#: Modules a player may switch on with ``options`` (name -> variants that allow it).
OPTIONAL_MODULES: dict[str, tuple[str, ...]] = {"stations": ("usa",)}

USA = Ruleset(name="usa", map_id="usa")

EUROPE = Ruleset(
    name="europe",
    map_id="europe",
    initial_tickets=(("long", 1), ("regular", 3)),
    initial_keep_min=2,
    initial_returns="box",
    tie_breaks=("tickets", "fewest_stations", "longest_path"),
    modules=("stations", "tunnels", "ferries"),
)

VARIANTS: dict[str, Ruleset] = {r.name: r for r in (USA, EUROPE)}


def get_ruleset(variant: str, options: dict[str, Any] | None = None) -> Ruleset:
    """The ruleset of ``variant`` with ``options`` applied; ValueError if unknown."""
    try:
        base = VARIANTS[variant]
    except KeyError:
        raise ValueError(
            f"unknown variant {variant!r} (known: {', '.join(sorted(VARIANTS))})") from None
    if options:
        for key in options:
            if key in OPTIONAL_MODULES and variant not in OPTIONAL_MODULES[key] and (
                    key not in base.modules):
                raise ValueError(f"option {key!r} is not available for {variant}")
    return base.with_options(options)
