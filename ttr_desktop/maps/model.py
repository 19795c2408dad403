"""Map data model: cities, routes, tickets and the typed extras of every rule family.

Immutable and shared by every game. Format 2 (``maps/README.md``) adds what the
families need: country end points (dead-end sinks), large cities, a forbidden
start city, merchandise stacks, coal eligibility, off-board stubs, named ticket
decks and the credits or licence text a map must ship with.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

#: The eight train-card colours, in the order the engine indexes them.
CARD_COLORS: tuple[str, ...] = (
    "red", "blue", "green", "yellow", "black", "white", "orange", "pink")
#: Colours a route may have: a card colour or gray (any one colour).
ROUTE_COLORS: tuple[str, ...] = CARD_COLORS + ("gray",)


#: City kinds: an ordinary city, or an end point of a country (a sink: a path may end
#: there, never pass through; rules.md §2.4).
CITY_KINDS: tuple[str, ...] = ("city", "country")


@dataclass(frozen=True, slots=True)
class City:
    """A named point on the board.

    ``kind`` "country" marks an end point of the country ``country``. ``large``
    marks a large city (Legacy), ``forbidden_start`` a city nobody may start
    in or mark (Old West's Roswell with Alvin), ``merchandise`` the colour of
    the city's merchandise stack (Märklin), ``coal`` whether it gets a coal
    token at setup (County Durham).
    """

    id: str
    name: str
    lat: float
    lon: float
    x: float
    y: float
    kind: str = "city"
    country: str = ""
    large: bool = False
    forbidden_start: bool = False
    merchandise: str = ""
    coal: bool = True

    @property
    def is_sink(self) -> bool:
        """True for a country end point: routes may end here, paths never pass through."""
        return self.kind == "country"


@dataclass(frozen=True, slots=True)
class Country:
    """A country beyond the border: tickets may name it; its end points are cities of
    kind "country" with ``country`` set to this id."""

    id: str
    name: str


@dataclass(frozen=True, slots=True)
class Stub:
    """Track drawn from a city to the board's edge (toward ``to``); it is never claimable."""

    id: str
    city: str
    to: str
    length: int
    color: str
    polyline: tuple[tuple[float, float], ...] = ()


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
    """A destination ticket: connect ``a`` and ``b`` for ``points`` (or lose them).

    ``a``/``b`` name a city or a country. ``deck`` names the ticket deck the card
    belongs to (``regular``, ``long``, ``short``...)."""

    id: str
    a: str
    b: str
    points: int
    deck: str = "regular"

    @property
    def long(self) -> bool:
        """True for a long ticket (Europe's blue backs, Märklin's brown ones)."""
        return self.deck == "long"


@dataclass(frozen=True)
class TicketSet:
    """A named set of tickets for one board: a ``maps/<id>.tickets.toml`` file beside the
    board, or the board file's ``[[tickets]]`` that carry ``set = "<id>"``.

    ``source`` is the file that holds them; ``entries`` gives, per ticket, its index among
    that file's ``[[tickets]]`` and the line of its entry (for messages)."""

    id: str
    board: str
    name: str
    tickets: tuple[Ticket, ...]
    source: str = ""
    entries: tuple[tuple[int, int | None], ...] = ()


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
    countries: dict[str, Country] = field(default_factory=dict)
    stubs: tuple[Stub, ...] = ()
    #: Merchandise stacks by city colour, top token first (Märklin).
    merchandise: dict[str, tuple[int, ...]] = field(default_factory=dict)
    credits: str = ""
    licence: str = ""
    #: The ticket sets in play, in order; empty: the board file's own tickets.
    ticket_sets: tuple[str, ...] = ()
    #: Per ticket: (the file holding it, its index among that file's [[tickets]]).
    ticket_sources: tuple[tuple[str, int], ...] = ()
    #: Ticket sets written in the board file itself (tickets with ``set = "<id>"``).
    inline_ticket_sets: dict[str, TicketSet] = field(default_factory=dict)

    def route_list(self) -> list[Route]:
        """Routes in file order (the engine indexes them in this order)."""
        return list(self.routes.values())

    def place_name(self, place_id: str) -> str:
        """The name of a city or a country."""
        if place_id in self.cities:
            return self.cities[place_id].name
        return self.countries[place_id].name

    def ticket_decks(self) -> tuple[str, ...]:
        """The names of the ticket decks this map's tickets belong to, in first-use order."""
        return tuple(dict.fromkeys(t.deck for t in self.tickets))

    def locate(self, field: str) -> tuple[str, str]:
        """The file and field that a field of this map ("tickets[3].deck", "routes[2]",
        "tickets") lives in: tickets may come from ticket-set files beside the board."""
        board = self.source or self.id
        match = re.fullmatch(r"tickets\[(\d+)\](.*)", field)
        if match and int(match.group(1)) < len(self.ticket_sources):
            path, index = self.ticket_sources[int(match.group(1))]
            return path, f"tickets[{index}]{match.group(2)}"
        if field.split(".")[0] == "tickets":
            files = list(dict.fromkeys(path for path, _ in self.ticket_sources))
            if len(files) == 1:
                return files[0], field
            if files:
                from .errors import display
                return " and ".join(display(f) for f in files), field
        return board, field

    def fingerprint(self) -> str:
        """A short hash of everything that affects the rules (not the drawing): a save only
        replays on a map with the same fingerprint."""
        h = hashlib.sha256()
        for c in self.cities.values():
            h.update(f"c|{c.id}|{c.kind}|{c.country}|{c.large}|{c.forbidden_start}|"
                     f"{c.merchandise}|{c.coal};".encode())
        for k in self.countries.values():
            h.update(f"k|{k.id};".encode())
        for r in self.routes.values():
            h.update(f"r|{r.id}|{r.a}|{r.b}|{r.length}|{r.color}|{r.group}|{r.tunnel}|"
                     f"{r.ferry_locomotives};".encode())
        for s in self.stubs:
            h.update(f"s|{s.id}|{s.city}|{s.length};".encode())
        for t in self.tickets:
            h.update(f"t|{t.id}|{t.a}|{t.b}|{t.points}|{t.deck};".encode())
        for colour, stack in sorted(self.merchandise.items()):
            h.update(f"m|{colour}|{','.join(map(str, stack))};".encode())
        return h.hexdigest()[:16]
