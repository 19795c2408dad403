"""Events returned by ``Game.apply``: what happened, for logs and animations."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened.

    ``seat`` is the acting seat (or None). ``data`` holds the details;
    the keys listed in ``private`` are known only to ``seat`` (for example
    the colour of a card drawn blind, or the tickets drawn).
    """

    kind: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)
    private: tuple[str, ...] = ()

    def visible_to(self, seat: int | None) -> "Event":
        """This event as ``seat`` may see it (private keys removed for others)."""
        if not self.private or seat == self.seat:
            return self
        return Event(self.kind, self.seat, {k: v for k, v in self.data.items()
                                            if k not in self.private}, ())

    def describe(self, names: list[str] | None = None) -> str:
        """A one-line text for the game log."""
        who = (names[self.seat] if names and self.seat is not None and self.seat < len(names)
               else f"Seat {self.seat}" if self.seat is not None else "")
        details = ", ".join(f"{k}={v}" for k, v in self.data.items())
        text = self.kind.replace("_", " ")
        return f"{who}: {text}" + (f" ({details})" if details else "") if who else (
            text + (f" ({details})" if details else ""))
