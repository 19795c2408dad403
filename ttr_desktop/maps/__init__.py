"""Maps: the data model, the TOML loader and board geometry."""

from .loader import MapError, available_maps, get_map, load_map
from .model import CARD_COLORS, ROUTE_COLORS, City, GameMap, Route, Ticket

__all__ = [
    "CARD_COLORS",
    "ROUTE_COLORS",
    "City",
    "GameMap",
    "MapError",
    "Route",
    "Ticket",
    "available_maps",
    "get_map",
    "load_map",
]
