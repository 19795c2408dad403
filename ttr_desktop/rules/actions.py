"""Actions: immutable values with a string ``kind`` and a ``describe()`` for logs.

Two-step decisions are phases, not combined actions: the second card of a
draw, keeping tickets after a draw and paying a tunnel's extra cards are each
their own action in their own phase.

Card payments are ``tuple[tuple[str, int], ...]`` — (card name, count) pairs,
sorted by card name, counts > 0.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

from ttr_desktop.rules.payment import words
from ttr_desktop.rules.words import card_name, plural

Cards = tuple[tuple[str, int], ...]


_CARDS_TEXT: dict[Cards, str] = {}


def cards_text(cards: Cards) -> str:
    """'3 red + 1 locomotive' for a payment: the colour first, then the wild cards."""
    text = _CARDS_TEXT.get(cards)
    if text is None:
        if len(_CARDS_TEXT) > 4096:
            _CARDS_TEXT.clear()
        text = _CARDS_TEXT[cards] = words(cards)
    return text


def normalize_cards(cards: Any) -> Cards:
    """A payment in canonical form: sorted (name, count) pairs with positive counts."""
    if isinstance(cards, dict):
        items = cards.items()
    else:
        items = cards
    merged: dict[str, int] = {}
    for name, n in items:
        merged[str(name)] = merged.get(str(name), 0) + int(n)
    return tuple(sorted((k, v) for k, v in merged.items() if v > 0))


@dataclass(frozen=True, slots=True)
class Action:
    """Base class of every action."""

    kind: ClassVar[str] = "action"

    def describe(self) -> str:
        """A short text for logs."""
        return self.kind.replace("_", " ")

    def target(self) -> tuple[str, str] | None:
        """What on the board this action is about — ("route", id) or ("city", id) — so the
        window can offer it when that thing is clicked; None for the rest."""
        return None

    def to_dict(self) -> dict[str, Any]:
        """Plain data for saves: ``{"kind": ..., field: value}``."""
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in ("cards", "mix"):
                value = [[name, n] for name, n in value]
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out


@dataclass(frozen=True, slots=True)
class KeepTickets(Action):
    """Keep some of the pending tickets; ``returned`` lists the others in the
    order they go under the deck (the first one ends up on top of the others)."""

    kind: ClassVar[str] = "keep_tickets"
    tickets: tuple[str, ...]
    returned: tuple[str, ...] = ()

    def describe(self) -> str:
        n = len(self.tickets)
        return f"keep {plural(n, 'ticket')}, return {len(self.returned)}"


@dataclass(frozen=True, slots=True)
class DrawBlind(Action):
    """Draw the top card of the train deck."""

    kind: ClassVar[str] = "draw_blind"

    def describe(self) -> str:
        return "draw a card from the deck"


@dataclass(frozen=True, slots=True)
class DrawFaceUp(Action):
    """Take the face-up card in ``slot`` (0-4); ``card`` names it."""

    kind: ClassVar[str] = "draw_face_up"
    slot: int
    card: str

    def describe(self) -> str:
        return f"take the face-up {card_name(self.card)}"


@dataclass(frozen=True, slots=True)
class ClaimRoute(Action):
    """Claim ``route_id`` paying ``cards``."""

    kind: ClassVar[str] = "claim_route"
    route_id: str
    cards: Cards

    def __post_init__(self) -> None:
        # A payment is a multiset: any order or split of the same cards is the same payment.
        object.__setattr__(self, "cards", normalize_cards(self.cards))

    def describe(self) -> str:
        return f"claim {self.route_id} with {cards_text(self.cards)}"

    def target(self) -> tuple[str, str] | None:
        return ("route", self.route_id)


@dataclass(frozen=True, slots=True)
class DrawTickets(Action):
    """Draw destination tickets (then keep some in the next phase).

    ``mix`` is the announced number from each named deck — (deck, count) pairs —
    where the ruleset lets a seat announce it (Märklin's short/long); else ()."""

    kind: ClassVar[str] = "draw_tickets"
    mix: tuple[tuple[str, int], ...] = ()

    def describe(self) -> str:
        if self.mix:
            return "draw destination tickets (" + ", ".join(
                f"{n} {deck}" for deck, n in self.mix) + ")"
        return "draw destination tickets"


@dataclass(frozen=True, slots=True)
class BuildStation(Action):
    """Build a station on ``city_id`` paying ``cards`` (Stations rule)."""

    kind: ClassVar[str] = "build_station"
    city_id: str
    cards: Cards

    def __post_init__(self) -> None:
        # A payment is a multiset: any order or split of the same cards is the same payment.
        object.__setattr__(self, "cards", normalize_cards(self.cards))

    def describe(self) -> str:
        return f"build a station in {self.city_id} with {cards_text(self.cards)}"

    def target(self) -> tuple[str, str] | None:
        return ("city", self.city_id)


@dataclass(frozen=True, slots=True)
class PayTunnel(Action):
    """Pay the extra cards a tunnel asks for and complete the claim."""

    kind: ClassVar[str] = "pay_tunnel"
    cards: Cards

    def __post_init__(self) -> None:
        # A payment is a multiset: any order or split of the same cards is the same payment.
        object.__setattr__(self, "cards", normalize_cards(self.cards))

    def describe(self) -> str:
        return f"pay the tunnel with {cards_text(self.cards)}"


@dataclass(frozen=True, slots=True)
class DeclineTunnel(Action):
    """Take the cards back instead of paying a tunnel; the turn ends."""

    kind: ClassVar[str] = "decline_tunnel"

    def describe(self) -> str:
        return "give up the tunnel"


@dataclass(frozen=True, slots=True)
class Decline(Action):
    """Decline an optional step (place no city marker, no passenger...); ``step`` names it."""

    kind: ClassVar[str] = "decline"
    step: str = ""

    def describe(self) -> str:
        return f"no {self.step.replace('_', ' ')}" if self.step else "decline"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Do nothing: only legal when no other action is (rules.md A-01)."""

    kind: ClassVar[str] = "pass"

    def describe(self) -> str:
        return "pass"


ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (KeepTickets, DrawBlind, DrawFaceUp, ClaimRoute, DrawTickets, BuildStation,
                PayTunnel, DeclineTunnel, Decline, Pass)
}


def register_action(cls: type[Action]) -> type[Action]:
    """Make a module's action type known to ``action_from_dict`` (saves)."""
    ACTION_TYPES[cls.kind] = cls
    return cls


def action_from_dict(data: dict[str, Any]) -> Action:
    """Rebuild an action from ``Action.to_dict`` output; raises ValueError if malformed."""
    if not isinstance(data, dict) or "kind" not in data:
        raise ValueError("an action needs a 'kind'")
    cls = ACTION_TYPES.get(data["kind"])
    if cls is None:
        raise ValueError(f"unknown action kind {data['kind']!r}")
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            if f.default is not MISSING:
                continue
            raise ValueError(f"action {cls.kind} lacks field {f.name!r}")
        value = data[f.name]
        if f.name in ("cards", "mix"):
            if not isinstance(value, list) or len(value) > 64 or not all(
                isinstance(p, list) and len(p) == 2 and isinstance(p[0], str)
                and isinstance(p[1], int) and not isinstance(p[1], bool)
                and 0 <= p[1] <= 1000 for p in value
            ):
                raise ValueError(f"action {cls.kind}: {f.name!r} must be [[name, count], ...]")
            value = normalize_cards(value) if f.name == "cards" else tuple(
                (str(a), int(b)) for a, b in value)
        elif f.type in ("tuple[str, ...]",):
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ValueError(f"action {cls.kind}: {f.name!r} must be a list of strings")
            value = tuple(value)
        elif f.type == "int":
            if not isinstance(value, int) or isinstance(value, bool) or not -1 <= value <= 10**6:
                raise ValueError(f"action {cls.kind}: {f.name!r} must be a whole number")
        elif f.type == "str":
            if not isinstance(value, str):
                raise ValueError(f"action {cls.kind}: {f.name!r} must be text")
        kwargs[f.name] = value
    return cls(**kwargs)
