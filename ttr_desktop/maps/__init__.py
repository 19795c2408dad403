"""Maps: the data model, the TOML loader and board geometry."""

from .loader import (
    MapError,
    available_maps,
    available_ticket_sets,
    get_map,
    load_map,
    load_ticket_set,
    with_ticket_sets,
)
from .model import CARD_COLORS, ROUTE_COLORS, City, GameMap, Route, Ticket, TicketSet

__all__ = [
    "CARD_COLORS",
    "ROUTE_COLORS",
    "City",
    "GameMap",
    "MapError",
    "Route",
    "Ticket",
    "TicketSet",
    "available_maps",
    "available_ticket_sets",
    "get_map",
    "load_map",
    "load_ticket_set",
    "with_ticket_sets",
]
