"""The last game's setup (map and seats), kept in a small TOML file beside the settings so
the setup screen can offer it again. Plain data only: the setup screen checks each value.
"""

from __future__ import annotations

import os
from typing import Any

import tomli_w

from ttr_desktop.persistence.atomic import write_atomically
from ttr_desktop.toml_reading import TomlFileError, read_toml

FORMAT = 1
#: The file holds a map name and a few seats; a larger one is not ours.
MAX_BYTES = 1_000_000


class LastSetupError(Exception):
    """The last setup's file is damaged; the message names the file and the problem."""


def load_last_setup(path: str | os.PathLike) -> dict[str, Any] | None:
    """The stored setup as plain data, or None when there is none (or it is of another
    format); LastSetupError, naming the problem, when the file is damaged."""
    try:
        data = read_toml(path, "last game's setup file", max_bytes=MAX_BYTES)
    except TomlFileError as problem:
        if problem.code == "missing":
            return None          # no game set up yet: nothing to say
        raise LastSetupError(problem.message) from None
    if data.get("format") != FORMAT:
        return None
    return data


def save_last_setup(path: str | os.PathLike, variant_key: str, options: dict[str, Any],
                    seats: list[dict[str, Any]]) -> None:
    """Store the setup of a game just started (OSError propagates for the caller)."""
    data = {"format": FORMAT, "variant_key": variant_key, "options": dict(options),
            "seats": [dict(s) for s in seats]}
    write_atomically(path, tomli_w.dumps(data))


__all__ = ["LastSetupError", "load_last_setup", "save_last_setup"]
