"""Player settings, saved as TOML in the user's config folder.

A missing file gives the defaults silently. A damaged one (cut, garbled, not text,
nested too deeply...) gives the defaults, and a value that parses but cannot be used
(a volume of 10**400, NaN, a word where a number goes) gives that setting's default;
either way the player gets a message and the file as it was is kept beside it as
``settings.toml.damaged-<time>``, so nothing is lost and nothing stops the program.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, fields, replace
from datetime import datetime
from pathlib import Path
from typing import Any

import tomli_w

from ttr_desktop.persistence.atomic import write_atomically
from ttr_desktop.toml_reading import TomlFileError, read_toml

ANIMATION_SPEEDS = ("slow", "normal", "fast", "instant")
#: Seconds the Hard bot may think per move (the Settings screen's choices).
HARD_BUDGETS = (0.5, 1.0, 2.0, 4.0)
#: A settings file is a few hundred bytes; a larger one is not ours.
MAX_SETTINGS_BYTES = 1_000_000
#: The smallest window the game is laid out for, and the largest size a setting may ask.
MIN_WINDOW = (1280, 720)
MAX_WINDOW = 10000
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
        for f in fields(Settings):
            wanted = field_problem(f.name, getattr(self, f.name))
            if wanted:
                raise ValueError(f"{f.name} should be {wanted}")
        return replace(self, volume=float(self.volume), hard_budget=float(self.hard_budget),
                       bot_pause=float(self.bot_pause))


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def field_problem(key: str, value: Any) -> str:
    """What the setting ``key`` should be when ``value`` does not fit ("" when it does).
    Whole numbers of any size, NaN and infinities are compared without converting them."""
    if key == "volume":
        if not _number(value) or not 0 <= value <= 1:
            return "a number from 0 to 1"
    elif key == "animation_speed":
        if not isinstance(value, str) or value not in ANIMATION_SPEEDS:
            return "one of " + ", ".join(ANIMATION_SPEEDS)
    elif key == "hard_budget":
        if not _number(value) or value not in HARD_BUDGETS:
            return "one of " + ", ".join(f"{b:g}" for b in HARD_BUDGETS) + " seconds"
    elif key == "bot_pause":
        if not _number(value) or value not in BOT_PAUSES:
            return "one of " + ", ".join(f"{b:g}" for b in BOT_PAUSES) + " seconds"
    elif key in ("window_width", "window_height"):
        low = MIN_WINDOW[0] if key == "window_width" else MIN_WINDOW[1]
        if not isinstance(value, int) or isinstance(value, bool) or \
                not low <= value <= MAX_WINDOW:
            return f"a whole number from {low} to {MAX_WINDOW}"
    elif key in ("mute", "colorblind_symbols", "confirm_claims", "fullscreen"):
        if not isinstance(value, bool):
            return "true or false"
    return ""


def load_settings(path: str | os.PathLike) -> tuple[Settings, str | None]:
    """The saved settings and None, or the settings with every unusable value replaced by
    its default and a message saying what was wrong (never an exception).

    A damaged file is moved to ``settings.toml.damaged-<time>`` beside it (nothing is lost)
    and the usable settings are written back, so the next start is quiet."""
    p = Path(path)
    try:
        data = read_toml(p, "settings file", max_bytes=MAX_SETTINGS_BYTES)
    except TomlFileError as problem:
        if problem.code == "missing":
            return Settings(), None
        if problem.code in ("unreadable", "folder"):   # locked or in the way: leave it alone
            return Settings(), f"{problem.message} The default settings are used."
        kept = _keep_aside(p)
        return Settings(), (f"{problem.message} The default settings are used. "
                            + _kept_words(p, kept))
    kwargs: dict[str, Any] = {}
    bad: list[str] = []
    for f in fields(Settings):
        if f.name not in data:
            continue
        value = data[f.name]
        wanted = field_problem(f.name, value)
        if wanted:
            bad.append(f"{f.name} (it should be {wanted})")
        else:
            kwargs[f.name] = value
    settings = Settings(**kwargs).validated()
    if not bad:
        return settings, None
    kept = _keep_aside(p)
    if kept is not None:
        try:
            save_settings(settings, p)
        except OSError:
            pass
    which = bad[0] if len(bad) == 1 else ", ".join(bad[:-1]) + " and " + bad[-1]
    values = "an unusable value" if len(bad) == 1 else "unusable values"
    return settings, (f"The settings file {p.name} had {values}: {which}. "
                      f"{'Their defaults are' if len(bad) > 1 else 'Its default is'} used; "
                      "the other settings are kept. " + _kept_words(p, kept))


def _kept_words(p: Path, kept: Path | None) -> str:
    if kept is None:
        return f"The file was left as it is: {p}."
    return f"The damaged file was kept as {kept.name} beside it."


def damaged_copy_path(p: Path, now: datetime | None = None) -> Path:
    """Where a damaged settings file is kept: ``settings.toml.damaged-<time>`` beside it."""
    now = now or datetime.now()
    target = p.with_name(f"{p.name}.damaged-{now:%Y%m%d-%H%M%S}")
    n = 2
    while target.exists():
        target = p.with_name(f"{p.name}.damaged-{now:%Y%m%d-%H%M%S}-{n}")
        n += 1
    return target


def _keep_aside(p: Path) -> Path | None:
    target = damaged_copy_path(p)
    try:
        os.replace(p, target)
    except OSError:
        return None
    return target


def save_settings(settings: Settings, path: str | os.PathLike) -> None:
    """Write the settings atomically (OSError propagates for the caller to report)."""
    write_atomically(path, tomli_w.dumps(asdict(settings)))
