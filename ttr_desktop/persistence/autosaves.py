"""The autosave folder: one file per game, the most recent few kept, damaged files set aside.

Every game in progress writes its own autosave (``game-<started>-<map>.toml``)
in the ``autosaves`` folder of the user's data folder. Continue resumes the
newest; the Load screen lists them all. When a new game writes its first
autosave the folder is trimmed to the newest ``AUTOSAVE_LIMIT`` files.

A file that is damaged is never deleted or overwritten by the game: it is
moved to ``damaged/`` beside it first (``<name>.damaged-<time>.toml``), so the
player (or a bug report) still has it.

No pygame here: the window and the tests use these functions alike.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from ttr_desktop.toml_reading import TomlFileError, parse_toml, read_toml

#: How many autosaves (games) are kept; older ones are removed when a new game starts.
AUTOSAVE_LIMIT = 5
#: A file larger than this is not a save (a real one is well under 1 MB).
MAX_SAVE_BYTES = 20_000_000
DAMAGED_FOLDER = "damaged"
#: A save's top-level values fill a dozen lines; more is garbage, not worth reading line by line.
HEADER_LINES = 40


# Names and listing ---------------------------------------------------------------
def new_autosave_path(folder: Path, map_id: str, now: datetime | None = None) -> Path:
    """A fresh file name for one game's autosave, e.g. ``game-2024-05-01-143205-europe.toml``."""
    now = now or datetime.now()
    slug = re.sub(r"[^a-z0-9]+", "-", map_id.lower()).strip("-") or "map"
    base = f"game-{now:%Y-%m-%d-%H%M%S}-{slug}"
    path = folder / f"{base}.toml"
    n = 2
    while path.exists():
        path = folder / f"{base}-{n}.toml"
        n += 1
    return path


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def save_files(folder: Path) -> list[Path]:
    """The ``*.toml`` files in ``folder`` (no temporary or hidden files), newest first."""
    try:
        files = [p for p in folder.glob("*.toml") if p.is_file() and not p.name.startswith(".")]
    except OSError:
        return []
    return sorted(files, key=lambda p: (_mtime(p), p.name), reverse=True)


def adopt_legacy_autosave(legacy_file: Path, folder: Path) -> Path | None:
    """Move the single ``autosave.toml`` of older versions into the autosave folder."""
    if not legacy_file.is_file():
        return None
    when = datetime.fromtimestamp(_mtime(legacy_file))
    target = new_autosave_path(folder, "earlier", when)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        os.replace(legacy_file, target)
    except OSError:
        return None
    return target


# Damage ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Damage:
    """Why a file is not a readable save: a short ``code`` and what the file still tells."""

    code: str                 # empty, cut, garbled, binary, foreign, too_large, unreadable
    detail: str = ""          # the low-level reason, for the log only
    header: dict[str, Any] | None = None   # what could be read of the top of the file

    @property
    def is_damage(self) -> bool:
        """True when the file itself is broken (an unreadable file may just be locked)."""
        return self.code != "unreadable"


#: What the shared reader's problem codes mean for a save (see ``toml_reading``).
_DAMAGE_OF = {"missing": "unreadable", "folder": "foreign", "unreadable": "unreadable",
              "too_large": "too_large", "empty": "empty", "binary": "binary", "cut": "cut",
              "garbled": "garbled", "too_deep": "garbled", "bad_value": "garbled"}


def check_file(path: Path) -> tuple[dict[str, Any] | None, Damage | None]:
    """The parsed save data, or why it cannot be parsed (cheap: no replay of the moves)."""
    try:
        data = read_toml(path, "save file", max_bytes=MAX_SAVE_BYTES)
    except TomlFileError as problem:
        code = _DAMAGE_OF.get(problem.code, "garbled")
        header = read_header(problem.text) if code in ("cut", "garbled") and problem.text \
            else None
        return None, Damage(code, problem.detail or problem.message, header)
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players) \
            or not isinstance(data.get("variant"), str) or not isinstance(data.get("state"), dict):
        return None, Damage("foreign", "", data)
    return data, None


def read_header(text: str) -> dict[str, Any]:
    """The top-level values (variant, players, saved_at...) of a save cut short or garbled."""
    lines = text.splitlines()
    head: list[str] = []
    for line in lines:
        if line.startswith("["):
            break
        head.append(line)
    head = head[:HEADER_LINES]
    for end in range(len(head), 0, -1):
        try:
            return parse_toml("\n".join(head[:end]), "header", "save file")
        except TomlFileError:
            continue
    return {}


def damaged_copy_path(path: Path, now: datetime | None = None) -> Path:
    """Where the copy of a damaged ``path`` goes: ``damaged/<name>.damaged-<time>.toml``."""
    now = now or datetime.now()
    target = path.parent / DAMAGED_FOLDER / f"{path.stem}.damaged-{now:%Y%m%d-%H%M%S}.toml"
    n = 2
    while target.exists():
        target = target.with_name(f"{path.stem}.damaged-{now:%Y%m%d-%H%M%S}-{n}.toml")
        n += 1
    return target


def set_damaged_aside(path: Path, now: datetime | None = None) -> Path | None:
    """Move a damaged save into ``damaged/`` beside it; the new path (None if it failed)."""
    target = damaged_copy_path(path, now)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, target)
    except OSError:
        return None
    return target


def keep_damaged_copy(path: Path, now: datetime | None = None) -> Path | None:
    """Copy ``path`` into ``damaged/`` (it is about to be overwritten); the copy's path."""
    target = damaged_copy_path(path, now)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes())
    except OSError:
        return None
    return target


# Trimming --------------------------------------------------------------------------
def prune(folder: Path, keep: int = AUTOSAVE_LIMIT, protect: Iterable[Path] = ()) -> list[Path]:
    """Remove all but the newest ``keep`` autosaves (``protect`` always stays); a damaged
    one is set aside in ``damaged/`` rather than deleted. Returns the files that went."""
    protected = {Path(p) for p in protect}
    files = save_files(folder)
    kept = [p for p in files if p in protected]
    gone: list[Path] = []
    for path in files:
        if path in protected:
            continue
        if len(kept) < keep:
            kept.append(path)
            continue
        _, damage = check_file(path)
        try:
            if damage is not None and damage.is_damage:
                if set_damaged_aside(path) is None:
                    continue
            else:
                path.unlink()
        except OSError:
            continue
        gone.append(path)
    return gone


__all__ = ["AUTOSAVE_LIMIT", "Damage", "adopt_legacy_autosave", "check_file",
           "damaged_copy_path", "keep_damaged_copy", "new_autosave_path", "prune",
           "read_header", "save_files", "set_damaged_aside"]
