"""The last game's setup (map and seats), kept in a small TOML file beside the settings so
the setup screen can offer it again. Plain data only: the setup screen checks each value.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

import tomli_w

from ttr_desktop.persistence.atomic import write_atomically

FORMAT = 1


def load_last_setup(path: str | os.PathLike) -> dict[str, Any] | None:
    """The stored setup as plain data, or None when there is none or it cannot be read."""
    try:
        data = tomllib.loads(Path(path).read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    if data.get("format") != FORMAT:
        return None
    return data


def save_last_setup(path: str | os.PathLike, variant_key: str, options: dict[str, Any],
                    seats: list[dict[str, Any]]) -> None:
    """Store the setup of a game just started (OSError propagates for the caller)."""
    data = {"format": FORMAT, "variant_key": variant_key, "options": dict(options),
            "seats": [dict(s) for s in seats]}
    write_atomically(path, tomli_w.dumps(data))


__all__ = ["load_last_setup", "save_last_setup"]
