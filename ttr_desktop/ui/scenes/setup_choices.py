"""What the setup screen may offer: the list of families and each family's games and
switches, seats per variant, a valid seed, the remembered setup.

No widgets here: plain checks the setup scene (and tests) use.
"""

from __future__ import annotations

import re
from typing import Any

from ttr_desktop.rules import get_ruleset
from ttr_desktop.ui import style
from ttr_desktop.ui.families import CHOICE_FAMILY, INSTALLED, WindowFamily
from ttr_desktop.ui.session import BOT_LEVELS, VARIANT_CHOICES, SeatConfig

DEFAULT_SEAT_RANGE = (2, 5)
NAME_LIMIT = 16
SEED_DIGITS = 18
COLORS = list(style.PLAYER_COLORS)
_WHOLE_NUMBER = re.compile(r"[0-9]+")


def grouped_family(key: str) -> WindowFamily | None:
    """The family (with games or switches) whose combination the setup choice ``key`` is,
    or None for a choice listed on its own."""
    fid = CHOICE_FAMILY.get(key)
    return INSTALLED.get(fid) if fid is not None else None


def menu_entries() -> list[tuple[str, str]]:
    """The setup screen's list, in order: (label, setup choice key). A family with games or
    switches is one entry, under its label, at the place of its first choice (the key is
    that choice's); any other choice is an entry of its own."""
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for key, (_, _, label) in VARIANT_CHOICES.items():
        family = grouped_family(key)
        if family is None:
            out.append((label, key))
        elif family.id not in seen:
            seen.add(family.id)
            out.append((family.label, key))
    return out


def entry_label(key: str) -> str:
    """The list entry the setup choice ``key`` is shown under."""
    family = grouped_family(key)
    return family.label if family is not None else VARIANT_CHOICES[key][2]


def game_and_switches(key: str) -> tuple[str, frozenset[str]]:
    """The game (engine variant) and the switches on of the setup choice ``key``."""
    variant, options, _ = VARIANT_CHOICES[key]
    family = grouped_family(key)
    names = {s.option for s in family.switches} if family is not None else set()
    return variant, frozenset(k for k, v in options.items() if v is True and k in names)


def seat_range(variant_key: str) -> tuple[int, int]:
    """How many seats the variant allows (its ruleset's min and max players)."""
    try:
        variant, options, _ = VARIANT_CHOICES[variant_key]
        rules = get_ruleset(variant, dict(options))
        return rules.min_players, rules.max_players
    except (KeyError, ValueError):
        return DEFAULT_SEAT_RANGE


def seed_problem(text: str) -> str:
    """Why ``text`` is not a usable seed ("" when it is)."""
    text = text.strip()
    if not text:
        return "Type a whole number, or choose Random."
    if not _WHOLE_NUMBER.fullmatch(text):
        shown = text if len(text) <= 12 else text[:11] + "…"
        return f"'{shown}' is not a whole number: use the digits 0–9 only, like 4821."
    if len(text) > SEED_DIGITS:
        return f"That is too long: {SEED_DIGITS} digits at most."
    return ""


def default_seats() -> list[SeatConfig]:
    """A person and a Normal bot."""
    return [SeatConfig("Player 1", "human", "greedy", "red"),
            SeatConfig("Bot 2", "bot", "greedy", "blue")]


def seats_from_memory(data: dict[str, Any]) -> tuple[str, list[SeatConfig]] | None:
    """The variant and seats of a remembered setup, or None if any part is unusable."""
    key = data.get("variant_key")
    raw = data.get("seats")
    if not isinstance(key, str) or key not in VARIANT_CHOICES or not isinstance(raw, list):
        return None
    low, high = seat_range(key)
    if not low <= len(raw) <= high:
        return None
    seats: list[SeatConfig] = []
    for entry in raw:
        if not isinstance(entry, dict):
            return None
        name, kind = entry.get("name"), entry.get("kind")
        level, color = entry.get("level"), entry.get("color")
        if not isinstance(name, str) or not name.strip() or len(name) > NAME_LIMIT \
                or not all(isinstance(v, str) for v in (kind, level, color)) \
                or kind not in ("human", "bot") or level not in BOT_LEVELS or color not in COLORS:
            return None
        seats.append(SeatConfig(name.strip(), kind, level, color))
    if len({s.color for s in seats}) != len(seats) or \
            len({s.name.lower() for s in seats}) != len(seats):
        return None
    return key, seats


__all__ = ["COLORS", "DEFAULT_SEAT_RANGE", "NAME_LIMIT", "SEED_DIGITS", "default_seats",
           "entry_label", "game_and_switches", "grouped_family", "menu_entries", "seat_range",
           "seats_from_memory", "seed_problem"]
