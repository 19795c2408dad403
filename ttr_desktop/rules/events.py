"""Events returned by ``Game.apply``: what happened, for logs and animations."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Event:
    """One thing that happened.

    ``seat`` is the acting seat (or None). ``data`` holds the details;
    the keys listed in ``private`` are known only to ``seat`` (for example
    the colour of a card drawn blind, or the tickets drawn). A ``secret``
    event is known only to ``seat`` as a whole (a completed ticket).
    ``reveals`` marks an event that shows someone a hidden card or ticket, or
    reorders a hidden deck: the action behind it cannot be taken back.
    Treat events as read-only (they are not frozen only because building frozen
    objects is several times slower, and the engine makes many).
    """

    kind: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)
    private: tuple[str, ...] = ()
    secret: bool = False
    reveals: bool = False

    def visible_to(self, seat: int | None) -> "Event | None":
        """This event as ``seat`` may see it: private keys removed for others, and None
        when the whole event is secret to another seat."""
        if seat == self.seat:
            return self
        if self.secret:
            return None
        if not self.private:
            return self
        return Event(self.kind, self.seat, {k: v for k, v in self.data.items()
                                            if k not in self.private}, (), False, self.reveals)

    def describe(self, names: list[str] | None = None) -> str:
        """A one-line text for the game log."""
        who = (names[self.seat] if names and self.seat is not None and self.seat < len(names)
               else f"Seat {self.seat}" if self.seat is not None else "")
        details = ", ".join(f"{k}={v}" for k, v in self.data.items())
        text = self.kind.replace("_", " ")
        return f"{who}: {text}" + (f" ({details})" if details else "") if who else (
            text + (f" ({details})" if details else ""))
