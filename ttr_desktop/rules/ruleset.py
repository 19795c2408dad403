"""Rulesets: plain data plus a list of rule modules.

A variant is a map plus a ruleset. A ruleset fixes, as data: the card kinds,
trains, ticket decks and how tickets are dealt and drawn, the route score
table, which tracks of a double or triple are usable at a player count, the
end bonuses, the score parts, the currency, tie-breaks — and the rule modules
that add everything else. Every ambiguity of rules.md §7 that applies to a
ruleset is a named knob here (or a module knob), with the default listed there.

A rule family's ruleset is registered with its family (``rules/family.py``: the
shipped families in one list, another with ``register_family``); ``register_variant``
makes a ruleset alone playable.

A map the loader accepts may still be unable to seat a number of players under a
ruleset (too few tickets for every seat's deal, no city left for a home...).
``check_playable`` refuses such a game before it is dealt: the core's
``Ruleset.requirements`` and every module's ``requirements`` hook declare what a
game needs for a player count, each naming the map field that provides it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ttr_desktop.maps.errors import MapError, show
from ttr_desktop.rules.cards import STANDARD_DECK, CardKind

if TYPE_CHECKING:
    from ttr_desktop.maps.model import GameMap

#: Route length -> points (rules.md §1.1: the longer values come from other official maps).
STANDARD_ROUTE_POINTS: dict[int, int] = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21, 9: 27}
#: Where unkept initial tickets go: the bottom of their deck (USA), the box (Europe),
#: back into their own deck with both decks reshuffled (Märklin), or all seats' returns
#: shuffled together under the deck (Old West).
INITIAL_RETURNS = ("bottom", "box", "reshuffle", "under_shuffled")
#: Where tickets returned after a draw in play go: the bottom of their deck, or the box.
LATER_RETURNS = ("bottom", "box")
#: Tie-breaks the core knows; modules add their own (``fewest_stations``, ``merchandise``).
CORE_TIE_BREAKS = ("tickets", "longest_path", "later_in_turn_order")
#: Measures the core computes for end bonuses; modules add their own (``coal``).
CORE_MEASURES = ("longest_path", "completed_tickets")
#: The Ruleset fields a game's options may set by name: the rules.md §7 knobs. The rest of
#: a ruleset (trains, decks, score tables) is the variant itself, not an option.
#: The most three-locomotive refreshes in a row a game may allow (A-02; default 3).
MAX_REFRESHES = 100
KNOB_FIELDS = ("pass_when_stuck", "end_on_pass_round", "max_consecutive_refreshes",
               "face_up_when_deck_empty", "ticket_draw_needs_tickets", "returned_ticket_order",
               "bonus_needs_positive")


@dataclass(frozen=True)
class Bonus:
    """An end-of-game bonus: ``amount`` to every seat with the best ``measure``.

    ``best`` is "max" or "min" (County Durham's least coal). Every tied seat
    scores it (rules.md §1.8, §8.19). With ``needs_positive`` nobody scores when
    the best value is 0 (A-07).
    """

    part: str
    measure: str
    amount: int
    best: str = "max"
    needs_positive: bool = True


@dataclass(frozen=True)
class Requirement:
    """Something a game needs from its map (or its ruleset) for a number of players.

    ``field`` is where a map file provides it ("tickets", "cities.forbidden_start",
    "routes[12].color"), or "" when the ruleset alone falls short. The game can be
    dealt only when ``have >= need``; ``reason`` says what is missing, for a player.
    A mismatch of one map entry is declared only when it occurs (need 1, have 0).
    """

    field: str
    need: int
    have: int
    reason: str

    @property
    def met(self) -> bool:
        """Whether the map (or ruleset) provides enough."""
        return self.have >= self.need


def shortfall(need: int, have: int, noun: str, source: str = "the map") -> str:
    """'12 tickets needed, but the map has 6': the end of a requirement's reason."""
    return f"{need} {noun} needed, but {source} has {have if have > 0 else 'none'}"


@dataclass(frozen=True)
class Ruleset:
    """Everything a variant fixes, as data. Module names select rule modules."""

    name: str
    map_id: str
    #: The ticket sets the game plays with, in order (``maps/README.md``): files beside the
    #: board or sets written in it. Empty: the board file's own tickets.
    ticket_sets: tuple[str, ...] = ()
    min_players: int = 2
    max_players: int = 5
    trains_per_player: int = 45
    end_trigger_trains: int = 2
    #: Train-card kinds in index order (rules/cards.py).
    cards: tuple[CardKind, ...] = STANDARD_DECK
    initial_hand: int = 4
    face_up_slots: int = 5
    #: Refresh the display when this many face-up cards of one refresh group show (§1.4.3).
    refresh_count: int = 3
    #: Named ticket decks, in the order they are shuffled at setup.
    ticket_decks: tuple[str, ...] = ("regular",)
    #: Initial tickets dealt to every seat: (deck, count) pairs.
    initial_tickets: tuple[tuple[str, int], ...] = (("regular", 3),)
    #: When > 0, each seat instead announces a mix of this many tickets from
    #: ``ticket_draw_decks`` before choosing (Märklin).
    initial_announced: int = 0
    initial_keep_min: int = 2
    #: Where unkept initial tickets go (one of INITIAL_RETURNS).
    initial_returns: str = "bottom"
    #: Where tickets returned after a draw in play go: "bottom" of their deck, or the
    #: "box" (out of the game: Nordic Countries).
    later_returns: str = "bottom"
    ticket_draw: int = 3
    ticket_keep_min: int = 1
    #: The decks a ticket draw takes from (the first one unless the mix is announced).
    ticket_draw_decks: tuple[str, ...] = ("regular",)
    #: A ticket draw announces how many to take from each of ``ticket_draw_decks`` (Märklin).
    ticket_draw_announced: bool = False
    route_points: dict[int, int] = field(default_factory=lambda: dict(STANDARD_ROUTE_POINTS))
    #: (group size, players): every track of a double (2) or triple (3) is usable from this
    #: many players; below it only one track of a group is (rules.md §1.5, §2.3, §3.3).
    parallel_open_from: tuple[tuple[int, int], ...] = ((2, 4), (3, 4))
    #: End bonuses (longest path, most tickets, module measures such as coal).
    bonuses: tuple[Bonus, ...] = (Bonus("longest_path", "longest_path", 10),)
    #: The score parts in display order; modules' parts follow unless listed here.
    score_parts: tuple[str, ...] = ("routes", "tickets", "longest_path")
    #: Score-track reasons -> score part ("*" for every other reason; else the reason's name).
    ledger_parts: tuple[tuple[str, str], ...] = (("route", "routes"),)
    #: Tie-breaks after the total, in order (CORE_TIE_BREAKS or a module's).
    tie_breaks: tuple[str, ...] = ("tickets", "longest_path")
    #: "points" or "dollars" (Legacy).
    currency: str = "points"
    #: The lowest total a seat can end with (Legacy: 0), shown as a ``floor`` part.
    score_floor: int | None = None
    #: Score every seat starts with (Legacy: $5), entered on the track as reason "start".
    start_score: int = 0
    modules: tuple[str, ...] = ()
    #: Modules a player may switch on with an option of the same name.
    optional_modules: tuple[str, ...] = ()
    #: Module knobs: (name, value) pairs; modules declare their defaults.
    knobs: tuple[tuple[str, Any], ...] = ()
    stations_per_player: int = 3
    station_points: int = 4

    # --- §7 knobs -------------------------------------------------------
    #: A-01: with no legal action at all, the seat passes.
    pass_when_stuck: bool = True
    #: A-01 [D]: when every seat passes in a row the game cannot go on, so it ends.
    end_on_pass_round: bool = True
    #: A-02: stop the three-locomotive refresh after this many refreshes in a row.
    max_consecutive_refreshes: int = 3
    #: A-04: face-up cards stay takeable when the deck and discard are both empty.
    face_up_when_deck_empty: bool = True
    #: A-05: drawing tickets needs a ticket to draw; when False the action stays
    #: possible on an empty deck and draws nothing (a wasted turn).
    ticket_draw_needs_tickets: bool = True
    #: A-06: "player" — the returning seat chooses the order of returned tickets;
    #: "as_drawn" — they go back in the order drawn.
    returned_ticket_order: str = "player"
    #: A-07: no bonus (longest path, most tickets) when the best value is 0.
    bonus_needs_positive: bool = True

    # ------------------------------------------------------------------
    @property
    def card_names(self) -> tuple[str, ...]:
        """Card names in index order."""
        return tuple(k.name for k in self.cards)

    @property
    def colours(self) -> tuple[str, ...]:
        """The colour card names (what coloured routes ask for)."""
        return tuple(k.name for k in self.cards if k.color)

    def deck_composition(self, players: int = 2) -> dict[str, int]:
        """Card name -> number of copies in the train deck for ``players`` seats."""
        return {k.name: k.copies(players) for k in self.cards}

    def deck_size(self, players: int = 2) -> int:
        """Train cards in the game for ``players`` seats."""
        return sum(self.deck_composition(players).values())

    def knob(self, name: str, default: Any = None) -> Any:
        """A module knob's value (``default`` when the ruleset does not set it)."""
        for key, value in self.knobs:
            if key == name:
                return value
        return default

    def group_open(self, group_size: int, players: int) -> bool:
        """Whether every track of a parallel group of this size is usable (§1.5)."""
        for size, at in self.parallel_open_from:
            if size == group_size:
                return players >= at
        return True

    def part_for(self, reason: str) -> str:
        """The score part a score-track entry with ``reason`` counts toward."""
        rest = None
        for key, part in self.ledger_parts:
            if key == reason:
                return part
            if key == "*":
                rest = part
        return rest or reason

    def with_options(self, options: dict[str, Any] | None,
                     module_knobs: dict[str, Any] | None = None) -> "Ruleset":
        """A copy with ``options`` applied: an optional module's name switches it on or off,
        any other key must name a ruleset field or a module knob (``module_knobs``: name ->
        default)."""
        if not options:
            return self
        changes: dict[str, Any] = {}
        modules = list(self.modules)
        knobs = dict(self.knobs)
        module_knobs = module_knobs or {}
        for key, value in options.items():
            if key in self.optional_modules:
                if not isinstance(value, bool):
                    raise ValueError(f"option {key!r} must be true or false")
                if value and key not in modules:
                    modules.append(key)
                elif not value and key in modules:
                    modules.remove(key)
                continue
            if key in self.modules:  # a module this variant always has
                if value is not True:
                    raise ValueError(f"{key!r} is always part of {self.name}")
                continue
            if key == "first_player":
                continue  # a game option, not a ruleset field
            if key in module_knobs:
                default = module_knobs[key]
                if isinstance(default, bool) and not isinstance(value, bool):
                    raise ValueError(f"option {key!r} must be true or false")
                if isinstance(default, int) and not isinstance(default, bool) and (
                        not isinstance(value, int) or isinstance(value, bool)):
                    raise ValueError(f"option {key!r} must be a whole number")
                knobs[key] = value
                continue
            if key not in KNOB_FIELDS:
                raise ValueError(f"unknown option {key!r}")
            current = getattr(self, key)
            if isinstance(current, bool) and not isinstance(value, bool):
                raise ValueError(f"option {key!r} must be true or false")
            if isinstance(current, int) and not isinstance(current, bool) and (
                    not isinstance(value, int) or isinstance(value, bool)):
                raise ValueError(f"option {key!r} must be a whole number")
            if isinstance(current, str) and not isinstance(value, str):
                raise ValueError(f"option {key!r} must be text")
            changes[key] = value
        if "stations" in modules and "stations" not in self.modules:
            # Europe's tie-break order with stations (rules.md A-09).
            if "fewest_stations" not in self.tie_breaks and "tie_breaks" not in changes:
                tb = list(self.tie_breaks)
                tb.insert(1 if "tickets" in tb else 0, "fewest_stations")
                changes["tie_breaks"] = tuple(tb)
        changes["modules"] = tuple(modules)
        changes["knobs"] = tuple(sorted(knobs.items()))
        result = replace(self, **changes)
        result.check()
        return result

    def check(self) -> None:
        """Raise ValueError when fields hold values the engine cannot play."""
        if self.initial_returns not in INITIAL_RETURNS:
            raise ValueError(f"initial_returns must be one of {', '.join(INITIAL_RETURNS)}")
        if self.later_returns not in LATER_RETURNS:
            raise ValueError(f"later_returns must be one of {', '.join(LATER_RETURNS)}")
        if self.returned_ticket_order not in ("player", "as_drawn"):
            raise ValueError("returned_ticket_order must be 'player' or 'as_drawn'")
        if not 0 <= self.max_consecutive_refreshes <= MAX_REFRESHES:
            raise ValueError(f"max_consecutive_refreshes must be 0 to {MAX_REFRESHES}")
        if not 1 <= self.min_players <= self.max_players <= 6:
            raise ValueError("bad player range (1..6)")
        if self.currency not in ("points", "dollars"):
            raise ValueError("currency must be 'points' or 'dollars'")
        names = self.card_names
        if len(set(names)) != len(names):
            raise ValueError("two card kinds share a name")
        if not any(k.color for k in self.cards):
            raise ValueError("a deck needs at least one colour")
        for deck, _ in self.initial_tickets:
            if deck not in self.ticket_decks:
                raise ValueError(f"initial tickets from an unknown deck {deck!r}")
        for deck in self.ticket_draw_decks:
            if deck not in self.ticket_decks:
                raise ValueError(f"ticket draws from an unknown deck {deck!r}")
        for b in self.bonuses:
            if b.best not in ("max", "min"):
                raise ValueError(f"bonus {b.part!r}: best must be 'max' or 'min'")
        if self.trains_per_player < 1 or self.initial_hand < 0 or self.face_up_slots < 0:
            raise ValueError("trains, hand and display sizes must be positive")
        if not all(isinstance(s, str) and s for s in self.ticket_sets):
            raise ValueError("ticket_sets names ticket sets by their ids")
        if self.stations_per_player < 0:
            raise ValueError("stations_per_player cannot be negative")

    def requirements(self, game_map: "GameMap", players: int) -> list[Requirement]:
        """What the core needs from ``game_map`` to deal a game for ``players`` seats: route
        colours and ticket decks this ruleset knows, route lengths on its score table, a
        full starting deal of tickets and train cards for every seat."""
        out: list[Requirement] = []
        colours = set(self.colours)
        for n, route in enumerate(game_map.routes.values()):
            if route.color != "gray" and route.color not in colours:
                out.append(Requirement(
                    f"routes[{n}].color", 1, 0,
                    f"route {route.id} is {route.color}, but {self.name}'s train cards have "
                    f"no {route.color} (expected gray or {', '.join(self.colours)})"))
            if self.route_points and route.length not in self.route_points:
                out.append(Requirement(
                    f"routes[{n}].length", 1, 0,
                    f"route {route.id} has length {route.length}, which scores nothing in "
                    f"{self.name} (its route table covers lengths "
                    f"{', '.join(map(str, sorted(self.route_points)))})"))
        in_deck: dict[str, int] = {}
        for n, ticket in enumerate(game_map.tickets):
            if ticket.deck not in self.ticket_decks:
                out.append(Requirement(
                    f"tickets[{n}].deck", 1, 0,
                    f"ticket {ticket.id} is in the {show(ticket.deck)} deck, which {self.name} does "
                    f"not use (its decks: {', '.join(self.ticket_decks)})"))
            in_deck[ticket.deck] = in_deck.get(ticket.deck, 0) + 1
        one_deck = len(self.ticket_decks) == 1
        field = "tickets" if one_deck else "tickets.deck"
        if self.initial_announced:
            decks = self.ticket_draw_decks
            have = sum(in_deck.get(d, 0) for d in decks)
            names = " and ".join(show(d) for d in decks)
            out.append(Requirement(
                "tickets", self.initial_announced * players, have,
                f"each of the {players} players announces {self.initial_announced} starting "
                f"tickets from the {names} decks: "
                + shortfall(self.initial_announced * players, have, "tickets")))
        else:
            dealt: dict[str, int] = {}
            for deck, count in self.initial_tickets:
                dealt[deck] = dealt.get(deck, 0) + count
            for deck, count in dealt.items():
                have = in_deck.get(deck, 0)
                which = "" if one_deck else f" from the {show(deck)} deck"
                noun = "tickets" if one_deck else f"tickets with deck = {show(deck)}"
                out.append(Requirement(
                    field, count * players, have,
                    f"each of the {players} players is dealt {count} starting "
                    f"ticket{'' if count == 1 else 's'}{which}: "
                    + shortfall(count * players, have, noun)))
        cards = sum(k.copies(players) for k in self.cards if not k.setup_redeal)
        out.append(Requirement(
            "", self.initial_hand * players, cards,
            f"each of the {players} players is dealt {self.initial_hand} train cards: "
            + shortfall(self.initial_hand * players, cards, "train cards", "the deck")))
        return out


USA = Ruleset(name="usa", map_id="usa", optional_modules=("stations",))

EUROPE = Ruleset(
    name="europe",
    map_id="europe",
    ticket_decks=("regular", "long"),
    initial_tickets=(("long", 1), ("regular", 3)),
    initial_keep_min=2,
    initial_returns="box",
    tie_breaks=("tickets", "fewest_stations", "longest_path"),
    modules=("stations", "tunnels", "ferries"),
)

VARIANTS: dict[str, Ruleset] = {}


def register_variant(ruleset: Ruleset) -> Ruleset:
    """Make ``ruleset`` playable as ``new_game(variant=ruleset.name)``."""
    ruleset.check()
    VARIANTS[ruleset.name] = ruleset
    return ruleset


def requirements(ruleset: Ruleset, game_map: "GameMap", players: int) -> list[Requirement]:
    """Everything a game of ``ruleset`` on ``game_map`` needs for ``players`` seats: the
    core's, then each rule module's (its ``requirements`` hook), in module order."""
    from ttr_desktop.rules.modules import module_class

    out = ruleset.requirements(game_map, players)
    for name in ruleset.modules:
        out.extend(module_class(name).requirements(ruleset, game_map, players))
    return out


def check_playable(ruleset: Ruleset, game_map: "GameMap", players: int) -> None:
    """Raise MapError — naming the map file and the field — when ``game_map`` cannot seat
    ``players`` under ``ruleset`` (a game that would get stuck before it is over); a
    plain ValueError when the ruleset itself (its options) falls short."""
    for need in requirements(ruleset, game_map, players):
        if need.met:
            continue
        if need.field:
            path, field = game_map.locate(need.field)
            raise MapError(path, need.reason, field=field)
        raise ValueError(f"{ruleset.name}: {need.reason}")


def get_ruleset(variant: str, options: dict[str, Any] | None = None) -> Ruleset:
    """The ruleset of ``variant`` with ``options`` applied; ValueError if unknown."""
    from ttr_desktop.rules.modules import load_all, module_knobs

    load_all()  # the shipped families (rules/family.py), registered on first use
    try:
        base = VARIANTS[variant]
    except KeyError:
        raise ValueError(
            f"unknown variant {variant!r} (known: {', '.join(sorted(VARIANTS))})") from None
    if options:
        from ttr_desktop.rules.modules import known_module

        for key in options:
            if known_module(key) and key not in base.optional_modules and key not in base.modules:
                raise ValueError(f"option {key!r} is not available for {variant}")
    return base.with_options(options, module_knobs(base.modules + base.optional_modules))


def game_options(variant: str) -> dict[str, Any]:
    """Every option ``new_game`` accepts for ``variant``, with its default: the optional
    modules (false), the modules the variant always has (true), the §7 knobs
    (``KNOB_FIELDS``), the modules' knobs and setup options, and ``first_player`` (a seat,
    or "random" for a seat drawn from the game's seed; default seat 0)."""
    from ttr_desktop.rules.modules import module_knobs

    base = get_ruleset(variant)
    out: dict[str, Any] = {name: False for name in base.optional_modules}
    out.update({name: True for name in base.modules})
    out.update({name: getattr(base, name) for name in KNOB_FIELDS})
    out.update(module_knobs(base.modules + base.optional_modules))
    out["first_player"] = 0
    return out
