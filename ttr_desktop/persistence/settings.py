"""Player settings, saved as TOML in the user's config folder.

A missing file gives the defaults silently; a broken one gives the defaults
plus a message for the player (and the broken file is kept aside as
``settings.toml.bad`` so nothing is lost), never a crash.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

import tomli_w

from ttr_desktop.persistence.atomic import write_atomically

ANIMATION_SPEEDS = ("slow", "normal", "fast", "instant")
#: Seconds the Hard bot may think per move (the Settings screen's choices).
HARD_BUDGETS = (0.5, 1.0, 2.0, 4.0)
#: Seconds a bot waits before its turn while the person's move can still be taken back.
BOT_PAUSES = (0.0, 0.5, 1.5, 3.0, 5.0)


@dataclass(frozen=True)
class Settings:
    """What the Settings screen changes."""

    volume: float = 0.7
    mute: bool = False
    animation_speed: str = "normal"
    colorblind_symbols: bool = True
    confirm_claims: bool = True
    hard_budget: float = 1.0
    bot_pause: float = 1.5
    window_width: int = 1600
    window_height: int = 900
    fullscreen: bool = False

    def validated(self) -> "Settings":
        """A copy with every value in range (raises ValueError naming a bad one)."""
        if not 0.0 <= float(self.volume) <= 1.0:
            raise ValueError("volume must be between 0 and 1")
        if self.animation_speed not in ANIMATION_SPEEDS:
            raise ValueError(f"animation_speed must be one of {', '.join(ANIMATION_SPEEDS)}")
        if float(self.hard_budget) not in HARD_BUDGETS:
            raise ValueError("hard_budget must be one of "
                             + ", ".join(f"{b:g}" for b in HARD_BUDGETS) + " seconds")
        if float(self.bot_pause) not in BOT_PAUSES:
            raise ValueError("bot_pause must be one of "
                             + ", ".join(f"{b:g}" for b in BOT_PAUSES) + " seconds")
        if not 1280 <= self.window_width <= 10000 or not 720 <= self.window_height <= 10000:
            raise ValueError("the window must be at least 1280x720")
        return replace(self, volume=float(self.volume), hard_budget=float(self.hard_budget),
                       bot_pause=float(self.bot_pause))


def load_settings(path: str | os.PathLike) -> tuple[Settings, str | None]:
    """The saved settings and None, or the defaults and a message saying what was wrong."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        return Settings(), None
    except OSError as exc:
        return Settings(), f"Could not read the settings ({exc.strerror or exc}); using defaults."
    try:
        data = tomllib.loads(raw.decode("utf-8"))
        kwargs: dict[str, Any] = {}
        known = {f.name: f for f in fields(Settings)}
        default = Settings()
        for key, value in data.items():
            if key not in known:
                continue  # settings from a newer version are ignored
            want = type(getattr(default, key))
            if want is float and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)
            if not isinstance(value, want) or (want is int and isinstance(value, bool)):
                raise ValueError(f"'{key}' should be {want.__name__}")
            kwargs[key] = value
        return Settings(**kwargs).validated(), None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, ValueError, TypeError) as exc:
        _keep_aside(p)
        return Settings(), (f"The settings file was broken ({exc}); the defaults are used and "
                            f"the old file was kept as {p.name}.bad.")


def _keep_aside(p: Path) -> None:
    try:
        os.replace(p, p.with_name(p.name + ".bad"))
    except OSError:
        pass


def save_settings(settings: Settings, path: str | os.PathLike) -> None:
    """Write the settings atomically (OSError propagates for the caller to report)."""
    write_atomically(path, tomli_w.dumps(asdict(settings)))
