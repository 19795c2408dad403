"""Tokens on cities: what the map draws on a city, read from a PlayerView.

Rule modules describe their pieces on the board as ``CityToken`` values
(``PlayerView.city_tokens``: city id -> tokens); the window draws each kind
with its own painter and never needs to know which module placed it.

Kinds in use (``seat`` is the owner, None for a neutral piece):

- ``station``     a seat's station (Stations rule)
- ``home``        a seat's home city (Old West)
- ``marker``      a seat's city marker (Old West)
- ``alvin``       Alvin the Alien; ``seat`` is his holder or None before his first capture
- ``passenger``   a seat's passenger (Märklin)
- ``merchandise`` a merchandise stack: ``value`` is the top token, ``count`` the tokens left
- ``coal``        a coal token (County Durham)
"""

from __future__ import annotations

from dataclasses import dataclass

TOKEN_KINDS: tuple[str, ...] = ("station", "home", "marker", "alvin", "passenger",
                                "merchandise", "coal")


@dataclass(frozen=True, slots=True)
class CityToken:
    """One piece on a city."""

    kind: str
    seat: int | None = None
    value: int = 0
    count: int = 1

    def describe(self, players: tuple[str, ...] | list[str] = ()) -> str:
        """Words for a tooltip: "Ann's station", "merchandise 4 (3 left)"."""
        who = (players[self.seat] + "'s " if self.seat is not None and self.seat < len(players)
               else "")
        if self.kind == "merchandise":
            return f"merchandise {self.value} ({self.count} left)"
        if self.kind == "alvin":
            return "Alvin the Alien" + (f" (held by {players[self.seat]})"
                                        if self.seat is not None and self.seat < len(players)
                                        else "")
        if self.kind == "home":
            return f"{who}home city"
        if self.kind == "marker":
            return f"{who}city marker"
        if self.kind == "coal":
            return "a coal token"
        return f"{who}{self.kind}"
