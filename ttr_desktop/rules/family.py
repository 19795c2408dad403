"""The rule families: one descriptor each, in one explicit list.

A family is what a player picks on the setup screen before any option: USA, Europe,
Märklin... Its ``Family`` descriptor names, as data, everything the engine needs to
play it and to test it:

- ``ruleset``: the variant's ``Ruleset`` (its name is the family's id, ``new_game``'s
  ``variant``; it names the map, the player counts and the modules by name);
- ``modules``: the rule-module classes the ruleset names (always-on and optional), which
  registering the family registers (modules shared between families, such as stations,
  are listed by each family that uses them);
- ``tickets``: the ticket sets the family deals on its board, as its ruleset names them
  (``Ruleset.ticket_sets``; None: the board's own tickets);
- ``label`` and ``option_labels``: the family's name and the names of its options, in a
  player's words (the options and their defaults come from the ruleset and its modules:
  ``rules.game_options``);
- ``games``: when the family has several games (USA 1910: 1910, Mega Game and Big Cities
  on the USA board), each game (``FamilyGame``: its own ruleset, whose name is the game's
  variant, and its name in a player's words), the first being ``ruleset``'s. A family
  without ``games`` has one game: ``ruleset``. Every game is a variant of its own
  (``new_game``, saves, the bots' table, ``sim --variant``); ``each_game()`` gives each as
  a one-game descriptor, which is what the contract tests play.

``SHIPPED`` lists the families the game ships, in the order the game offers them. They are
registered from this list (``load_shipped``, called on first use of the engine), not by
importing their files. Code outside the project adds a family with ``register_family``;
``families()`` gives every registered family in order — the shipped ones, then those
registered since — and ``games()`` every game of them, one descriptor each, which is what
the engine's contract tests run over.

The bots' part of a family (its ``FamilyPolicy``) is the bots layer's and lives there
(``bots/families``), keyed by the family's id.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from typing import Any

from ttr_desktop.rules.modules import module_class, register_module
from ttr_desktop.rules.modules.base import RuleModule
from ttr_desktop.rules.modules.county_durham import COUNTY_DURHAM, CountyDurham
from ttr_desktop.rules.modules.ferries import Ferries
from ttr_desktop.rules.modules.legacy import LEGACY, Legacy
from ttr_desktop.rules.modules.marklin import MARKLIN, Marklin
from ttr_desktop.rules.modules.nordic import NORDIC, NordicPayment
from ttr_desktop.rules.modules.old_west import OLD_WEST, Alvin, OldWest
from ttr_desktop.rules.modules.stations import Stations
from ttr_desktop.rules.modules.tunnels import Tunnels
from ttr_desktop.rules.modules.usa_1910 import USA_1910, USA_1910_BIG_CITIES, USA_1910_MEGA
from ttr_desktop.rules.ruleset import (
    EUROPE, USA, VARIANTS, Ruleset, game_options, register_variant,
)

#: Names of the options every family has (the rules.md §7 knobs of the core and the first
#: player), in a player's words. A family names its modules' options in ``option_labels``.
CORE_OPTION_LABELS: dict[str, str] = {
    "first_player": "Who goes first",
    "pass_when_stuck": "A player with nothing to do passes",
    "end_on_pass_round": "A round in which everyone passes ends the game",
    "max_consecutive_refreshes": "Most display refreshes in a row",
    "face_up_when_deck_empty": "Face-up cards stay takeable when the deck is empty",
    "ticket_draw_needs_tickets": "Drawing tickets needs tickets left",
    "returned_ticket_order": "Who orders returned tickets",
    "bonus_needs_positive": "No bonus when the best score for it is zero",
}


@dataclass(frozen=True)
class FamilyOption:
    """One option a game of a family may set: its name (``new_game``'s option key), its
    default and its name in a player's words."""

    name: str
    default: Any
    label: str


@dataclass(frozen=True)
class FamilyGame:
    """One game of a family that has several: its ruleset (whose name is the game's id,
    ``new_game``'s ``variant``) and its name within the family, in a player's words
    ("Mega Game")."""

    ruleset: Ruleset
    label: str

    @property
    def id(self) -> str:
        """The game's id: ``new_game``'s ``variant`` (its ruleset's name)."""
        return self.ruleset.name


@dataclass(frozen=True)
class Family:
    """One rule family as the engine knows it (see the module's docstring)."""

    ruleset: Ruleset
    label: str
    modules: tuple[type[RuleModule], ...] = ()
    #: (option name, label) for the family's own options: its optional modules and its
    #: modules' knobs. The core's options are named in ``CORE_OPTION_LABELS``.
    option_labels: tuple[tuple[str, str], ...] = ()
    #: The family's games when it has several, in the order they are offered; the first is
    #: ``ruleset``'s. Empty: one game, ``ruleset``.
    games: tuple[FamilyGame, ...] = ()

    @property
    def id(self) -> str:
        """The family's id: its (first) game's ``new_game`` ``variant`` (the ruleset's
        name)."""
        return self.ruleset.name

    @property
    def variants(self) -> tuple[str, ...]:
        """The id of every game of the family (``new_game``'s ``variant``), first its own."""
        return tuple(g.id for g in self.games) if self.games else (self.id,)

    def each_game(self) -> tuple[Family, ...]:
        """Each game of the family as a one-game descriptor (its ruleset, the family's
        modules and option labels, labelled "Family: Game"); a one-game family is itself."""
        if not self.games:
            return (self,)
        return tuple(replace(self, ruleset=g.ruleset, label=f"{self.label}: {g.label}",
                             games=()) for g in self.games)

    def game(self, variant: str) -> Family:
        """The one-game descriptor of the family's game ``variant``; ValueError naming the
        family's games when it has none of that id."""
        for one in self.each_game():
            if one.id == variant:
                return one
        raise ValueError(f"family {self.id!r} has no game {variant!r} "
                         f"(its games: {', '.join(self.variants)})")

    @property
    def tickets(self) -> tuple[str, ...] | None:
        """The ticket sets the family deals on its board (``Ruleset.ticket_sets``); None
        deals the board's own tickets."""
        return self.ruleset.ticket_sets or None

    @property
    def map_id(self) -> str:
        """The id of the board the family is played on."""
        return self.ruleset.map_id

    @property
    def player_counts(self) -> tuple[int, ...]:
        """Every number of players the family seats, fewest first."""
        return tuple(range(self.ruleset.min_players, self.ruleset.max_players + 1))

    def option_sets(self) -> tuple[dict[str, bool], ...]:
        """Every combination of the family's optional modules switched on, as the options
        of ``new_game``: none first (``{}``), then one at a time, then two..."""
        extras = self.ruleset.optional_modules
        return tuple({name: True for name in on} for k in range(len(extras) + 1)
                     for on in itertools.combinations(extras, k))

    def label_of(self, option: str) -> str:
        """An option's name in a player's words (its key, spelled out, when nobody named
        it)."""
        own = dict(self.option_labels)
        if option in own:
            return own[option]
        if option in CORE_OPTION_LABELS:
            return CORE_OPTION_LABELS[option]
        return option.replace("_", " ").capitalize()

    def options(self) -> tuple[FamilyOption, ...]:
        """Every option a game of the (registered) family accepts, with its default and
        label, in ``rules.game_options`` order."""
        return tuple(FamilyOption(name, default, self.label_of(name))
                     for name, default in game_options(self.id).items())

    def check(self) -> None:
        """Raise ValueError when the descriptor cannot be played: a ruleset the engine
        refuses, games that do not start with the family's own ruleset or share an id, or
        a module a game's ruleset names that neither the family lists nor is registered
        already."""
        self.ruleset.check()
        if not self.label:
            raise ValueError(f"family {self.id!r} needs a label")
        if self.games:
            if self.games[0].ruleset != self.ruleset:
                raise ValueError(f"family {self.id!r}: its first game must be its own "
                                 f"ruleset, not {self.games[0].id!r}")
            for g in self.games:
                if not isinstance(g, FamilyGame) or not g.label:
                    raise ValueError(f"family {self.id!r}: a game needs a ruleset and a "
                                     f"label ({g!r})")
                g.ruleset.check()
            if len(set(self.variants)) != len(self.games):
                raise ValueError(f"family {self.id!r}: two of its games have the same id "
                                 f"({', '.join(self.variants)})")
        listed = {cls.name for cls in self.modules}
        for cls in self.modules:
            if not (isinstance(cls, type) and issubclass(cls, RuleModule)) or not cls.name:
                raise ValueError(f"family {self.id!r}: {cls!r} is not a named rule module")
        rulesets = [g.ruleset for g in self.games] or [self.ruleset]
        for name in dict.fromkeys(n for r in rulesets for n in r.modules + r.optional_modules):
            if name in listed:
                continue
            try:
                module_class(name)
            except KeyError:
                raise ValueError(
                    f"family {self.id!r}: its ruleset names the rule module {name!r}, which "
                    f"the family does not list and nothing has registered") from None
        for name, _ in self.option_labels:
            if not isinstance(name, str) or not name:
                raise ValueError(f"family {self.id!r}: an option label needs an option name")


#: The families the game ships, in the order the game offers them.
SHIPPED: tuple[Family, ...] = (
    Family(USA, "USA", modules=(Stations,), option_labels=(("stations", "Stations"),)),
    Family(USA_1910, "USA 1910", modules=(Stations,),
           option_labels=(("stations", "Stations"),),
           games=(FamilyGame(USA_1910, "1910"), FamilyGame(USA_1910_MEGA, "Mega Game"),
                  FamilyGame(USA_1910_BIG_CITIES, "Big Cities"))),
    Family(EUROPE, "Europe", modules=(Stations, Tunnels, Ferries),
           option_labels=(("stations", "Stations"), ("tunnels", "Tunnels"),
                          ("ferries", "Ferries"))),
    Family(NORDIC, "Nordic Countries", modules=(Tunnels, Ferries, NordicPayment),
           option_labels=(("tunnels", "Tunnels"), ("ferries", "Ferries"),
                          ("nordic_payment",
                           "Locomotives only on ferries and tunnels; 3-card and 4-card sets"))),
    Family(MARKLIN, "Märklin (Germany)", modules=(Marklin,),
           option_labels=(("marklin", "Passengers and merchandise"),
                          ("marklin_token_per_arrival",
                           "A passenger takes a token on every arrival"),
                          ("marklin_both_tracks", "A passenger may use both tracks of a double"))),
    Family(LEGACY, "Legacy: Legends of the West", modules=(Legacy,),
           option_labels=(("legacy", "Companies, coins and events"),
                          ("company_bonus_dollars", "Dollars of the company bonus"),
                          ("empty_event_deck", "When the event deck runs out"),
                          ("companies", "Each player's company colour"),
                          ("retired_events", "Events retired in the campaign"))),
    Family(OLD_WEST, "Old West", modules=(OldWest, Alvin),
           option_labels=(("old_west", "Home cities and city markers"),
                          ("alvin", "Alvin the Alien"),
                          ("city_markers", "City markers per player"),
                          ("oldwest_self_double", "A player may claim both tracks of a double"),
                          ("alvin_capture_points", "Points for capturing Alvin"),
                          ("alvin_end_points", "Points for holding Alvin at the end"))),
    Family(COUNTY_DURHAM, "County Durham (coal)", modules=(Ferries, CountyDurham),
           option_labels=(("ferries", "Ferries"), ("county_durham", "Coal"),
                          ("coal_removed", "Coal tokens removed at setup"),
                          ("coal_auto_take", "Take the coal at once when only one end has it"),
                          ("durham_most_bonus", "What the +10 bonus counts"))),
)

_FAMILIES: dict[str, Family] = {}
_LOADED = False


def register_family(family: Family) -> Family:
    """Make ``family`` playable (``new_game(variant=...)`` for each of its games) and known
    to everything that goes over every family (the contract tests, the tools): registers
    its rule modules and its games' rulesets. A family registered again under the same id
    replaces the earlier one in its place (a game it no longer has is no longer playable).
    ValueError when the descriptor cannot be played, when one of its modules' names belongs
    to another module already, or when one of its games is another family's."""
    load_shipped()
    return _register(family)


def _owner(variant: str) -> Family | None:
    """The registered family one of whose games is ``variant`` (None: none)."""
    for family in _FAMILIES.values():
        if variant in family.variants:
            return family
    return None


def _register(family: Family) -> Family:
    family.check()
    for cls in family.modules:
        try:
            known = module_class(cls.name)
        except KeyError:
            known = None
        if known is not None and known is not cls:
            raise ValueError(f"family {family.id!r}: another rule module is already "
                             f"registered as {cls.name!r}")
    for variant in family.variants:
        other = _owner(variant)
        if other is not None and other.id != family.id:
            raise ValueError(f"family {family.id!r}: the game {variant!r} is already family "
                             f"{other.id!r}'s")
    for cls in family.modules:
        register_module(cls)
    earlier = _FAMILIES.get(family.id)
    for one in family.each_game():
        register_variant(one.ruleset)
    if earlier is not None:
        for gone in set(earlier.variants) - set(family.variants):
            VARIANTS.pop(gone, None)
    _FAMILIES[family.id] = family
    return family


def load_shipped() -> None:
    """Register the shipped families (once), in ``SHIPPED`` order."""
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    for family in SHIPPED:
        _register(family)


def _current(family: Family) -> Family:
    """``family`` with the rulesets its games are registered with now (``register_variant``
    may have replaced one)."""
    if not family.games:
        ruleset = VARIANTS.get(family.id, family.ruleset)
        return family if ruleset is family.ruleset else replace(family, ruleset=ruleset)
    games = tuple(g if VARIANTS.get(g.id, g.ruleset) is g.ruleset
                  else replace(g, ruleset=VARIANTS[g.id]) for g in family.games)
    if all(a is b for a, b in zip(games, family.games)):
        return family
    return replace(family, ruleset=games[0].ruleset, games=games)


def families() -> tuple[Family, ...]:
    """Every registered family, in order: the shipped ones, then those registered since,
    each once (a family with several games at the place of its first). A variant
    registered with ``register_variant`` alone is a family too (its descriptor is made from
    its ruleset, labelled by its name)."""
    load_shipped()
    out = []
    for name, ruleset in VARIANTS.items():
        family = _owner(name)
        if family is None:
            out.append(Family(ruleset, name))
        elif family.id == name:
            out.append(_current(family))
    return tuple(out)


def games() -> tuple[Family, ...]:
    """Every game of every registered family, in order, each as a one-game descriptor
    (``Family.each_game``): what a suite that plays every variant goes over."""
    return tuple(one for family in families() for one in family.each_game())


def get_family(variant: str) -> Family:
    """The registered family that plays ``variant`` (its id or one of its games' ids);
    ValueError naming the known variants if none."""
    for candidate in families():
        if variant in candidate.variants:
            return candidate
    raise ValueError(f"unknown variant {variant!r} "
                     f"(known: {', '.join(g.id for g in games())})")


__all__ = ["CORE_OPTION_LABELS", "SHIPPED", "Family", "FamilyGame", "FamilyOption", "families",
           "games", "get_family", "load_shipped", "register_family"]
