"""Map data model: cities, routes and tickets, immutable and shared by every game."""

from __future__ import annotations

from dataclasses import dataclass, field

#: The eight train-card colours, in the order the engine indexes them.
CARD_COLORS: tuple[str, ...] = (
    "red", "blue", "green", "yellow", "black", "white", "orange", "pink")
#: Colours a route may have: a card colour or gray (any one colour).
ROUTE_COLORS: tuple[str, ...] = CARD_COLORS + ("gray",)


@dataclass(frozen=True, slots=True)
class City:
    """A named point on the board."""

    id: str
    name: str
    lat: float
    lon: float
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class Route:
    """A line of train spaces between two cities.

    ``group`` names the parallel group (double/triple routes share it, and
    only routes with the same two ends are ever in one group).
    ``polyline`` holds the board-pixel points from city ``a`` to city ``b``.
    """

    id: str
    a: str
    b: str
    length: int
    color: str
    group: str
    tunnel: bool = False
    ferry_locomotives: int = 0
    polyline: tuple[tuple[float, float], ...] = ()


@dataclass(frozen=True, slots=True)
class Ticket:
    """A destination ticket: connect ``a`` and ``b`` for ``points`` (or lose them)."""

    id: str
    a: str
    b: str
    points: int
    long: bool = False


@dataclass(frozen=True)
class GameMap:
    """A loaded, validated map. Shared (never copied) by every game that uses it."""

    id: str
    name: str
    width: int
    height: int
    background: str
    cities: dict[str, City]
    routes: dict[str, Route]
    tickets: list[Ticket]
    source: str = ""
    extra: dict = field(default_factory=dict)

    def route_list(self) -> list[Route]:
        """Routes in file order (the engine indexes them in this order)."""
        return list(self.routes.values())
