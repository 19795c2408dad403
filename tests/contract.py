"""The games the engine's contract suites play: every registered rule family.

The suites (views that leak nothing, determinism, clones, saves, random games, "a game
that is not over has a legal action", the invariants after every action) take their
parameters from here, and these come from ``rules.family.families()``: a family
registered the documented way (``register_family``) is played by every suite without
anyone listing it, each of its games (USA 1910: 1910, Mega Game, Big Cities) on its own.

- ``every_config()``: every game of every family x each of its option sets x every player
  count it seats;
- ``sampled_configs()``: every game of every family x each option set at its fewest and at
  its most players — for the suites that play whole games many times.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ttr_desktop.rules.family import Family, families


class Config(NamedTuple):
    """One game set-up a contract suite plays."""

    variant: str
    players: int
    #: ``new_game``'s options (None: the family's defaults).
    options: dict[str, Any] | None

    @property
    def id(self) -> str:
        """'usa+stations-3p': the test id."""
        on = [name for name, value in (self.options or {}).items() if value is True]
        return "+".join([self.variant, *on]) + f"-{self.players}p"


def config_id(config: Config) -> str:
    """pytest ids for a parametrized ``Config``."""
    return config.id


def _configs(family: Family, counts: tuple[int, ...]) -> list[Config]:
    return [Config(family.id, players, options or None)
            for options in family.option_sets() for players in counts]


def _games(of: tuple[Family, ...] | None) -> list[Family]:
    return [game for family in (families() if of is None else of)
            for game in family.each_game()]


def every_config(of: tuple[Family, ...] | None = None) -> list[Config]:
    """Every game of every registered family (or of those of ``of``) with each of its
    option sets, at every player count it seats."""
    return [c for game in _games(of) for c in _configs(game, game.player_counts)]


def sampled_configs(of: tuple[Family, ...] | None = None) -> list[Config]:
    """Every game of every registered family (or of those of ``of``) with each of its
    option sets, at its fewest and at its most players."""
    out = []
    for game in _games(of):
        counts = game.player_counts
        out += _configs(game, tuple(sorted({counts[0], counts[-1]})))
    return out
