"""What the title and load screens say about save files, in a player's words.

``read_summary`` reads a file cheaply (no replay) for the load list and the
Continue button; ``explain_problem`` turns a ``SaveError`` (or a file that
does not parse) into a short reason a player understands, and says whether
the file itself is damaged (then the game keeps a copy before anything can
overwrite or remove it).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from ttr_desktop.persistence.autosaves import check_file, save_files
from ttr_desktop.ui.scenes.scoring_words import current_round
from ttr_desktop.ui.session import VARIANT_CHOICES

#: Why a save cannot be used, said to a player (completes "It cannot be loaded: ...").
REASONS: dict[str, str] = {
    "empty": "it is empty (nothing was written into it)",
    "cut": "it ends in the middle, as if saving was cut off",
    "garbled": "part of it is garbled",
    "binary": "it does not contain text (something else was written over it)",
    "foreign": "it is not a ttr-desktop save",
    "too_large": "it is far too large to be a save",
    "edited": "its moves do not lead to the position it records (it was edited or damaged)",
    "unreadable": "the computer would not let the game read it",
    "missing": "the file is no longer there",
    "newer": "it was made by a newer version of ttr-desktop; update the game to load it",
    "map_changed": "it was made with a different version of its map",
    "setup": "the game it describes cannot be set up here (an unknown map or rule)",
    "unknown": "it could not be loaded",
}
#: Problems of the file itself: a copy is kept before anything replaces or removes it.
DAMAGE_CODES = frozenset({"empty", "cut", "garbled", "binary", "foreign", "too_large", "edited"})
# Fragments of persistence.saves' SaveError messages -> reason code (first match wins).
_SAVE_ERROR_CODES = (
    ("there is no save file", "missing"), ("is a folder", "foreign"),
    ("could not read", "unreadable"), ("is empty", "empty"), ("is not text", "binary"),
    ("far too large", "too_large"), ("nests tables", "garbled"), ("cannot be read (", "garbled"),
    ("newer ttr-desktop", "newer"), ("unknown format number", "foreign"),
    ("lacks '", "foreign"), ("different version of the", "map_changed"),
    ("cannot be set up", "setup"), ("is damaged (", "garbled"),
    ("malformed move", "edited"), ("not legal in the replayed game", "edited"),
    ("does not match its own move list", "edited"), ("unknown state entries", "edited"),
    ("has a bad", "edited"),
)


@dataclass(frozen=True)
class Problem:
    """Why a save cannot be loaded: a code, the player's words, and whether it is damage."""

    code: str
    words: str
    detail: str = ""          # the original message, for the log

    @property
    def is_damage(self) -> bool:
        """True when the file itself is broken (a copy must be kept)."""
        return self.code in DAMAGE_CODES


def explain_problem(path: Path, error: Exception | str | None = None) -> Problem:
    """The reason ``path`` cannot be loaded, in player words (never raw parser text)."""
    message = str(error or "")
    _, damage = check_file(path) if path.exists() else (None, None)
    if damage is not None:
        return Problem(damage.code, REASONS[damage.code], damage.detail or message)
    if not path.exists():
        return Problem("missing", REASONS["missing"], message)
    lowered = message.lower()
    for fragment, code in _SAVE_ERROR_CODES:
        if fragment in lowered:
            return Problem(code, REASONS[code], message)
    return Problem("unknown", REASONS["unknown"], message)


# Times ---------------------------------------------------------------------------
def when_words(when: datetime | None, now: datetime | None = None) -> str:
    """'today at 14:32', 'yesterday at 09:05', 'Tuesday at 20:10', '3 May at 18:00'."""
    if when is None:
        return "at an unknown time"
    now = now or datetime.now()
    clock = f"{when:%H:%M}"
    days = (now.date() - when.date()).days
    if days == 0:
        return f"today at {clock}"
    if days == 1:
        return f"yesterday at {clock}"
    if 1 < days < 7:
        return f"{when:%A} at {clock}"
    if when.year == now.year:
        return f"{when.day} {when:%B} at {clock}"
    return f"{when.day} {when:%B %Y} at {clock}"


def day_words(when: datetime | None, now: datetime | None = None) -> str:
    """'today's', "Tuesday's", "3 May's": whose game it was, by day."""
    if when is None:
        return "an earlier"
    now = now or datetime.now()
    days = (now.date() - when.date()).days
    if days == 0:
        return "today's"
    if days == 1:
        return "yesterday's"
    if 1 < days < 7:
        return f"{when:%A}'s"
    return f"{when.day} {when:%B}'s"


# Summaries ---------------------------------------------------------------------------
@dataclass
class SaveSummary:
    """What the load list shows about one file, read without replaying the game."""

    path: Path
    title: str
    when: datetime | None
    variant: str = ""
    players: list[str] | None = None
    progress: str = ""         # 'round 4', 'choosing tickets', 'finished'
    damaged: str = ""          # why it cannot be loaded, in player words ("" when fine)
    damage_code: str = ""
    autosave: bool = False

    @property
    def game_words(self) -> str:
        """'Europe · Ann, Bot 2' (as much as is known)."""
        parts = [p for p in (self.variant, ", ".join(self.players or [])) if p]
        return " · ".join(parts) or "an unknown game"

    @property
    def detail(self) -> str:
        """The second line of a row: the game and where it stands, or why it is damaged."""
        if self.damaged:
            return f"Damaged: {self.damaged}"
        if self.autosave:
            return self.progress.capitalize() if self.progress else ""
        return " · ".join(p for p in (self.game_words, self.progress) if p)

    def describe(self, now: datetime | None = None) -> str:
        """'the autosave of Tuesday's Europe game (Ann, Bot 2)' / "the save 'Sunday game'"."""
        if not self.autosave:
            return f"the save '{self.title}'"
        who = f" ({', '.join(self.players)})" if self.players else ""
        game = f"{self.variant} game" if self.variant else "game"
        return f"the autosave of {day_words(self.when, now)} {game}{who}"


def variant_label(data: dict[str, Any]) -> str:
    """The setup screen's name for the save's variant ('USA with Stations')."""
    meta = data.get("meta") if isinstance(data.get("meta"), dict) else {}
    key = meta.get("variant_key")
    if isinstance(key, str) and key in VARIANT_CHOICES:
        return VARIANT_CHOICES[key][2]
    variant = data.get("variant")
    if not isinstance(variant, str):
        return ""
    options = data.get("options") if isinstance(data.get("options"), dict) else {}
    for v, opts, label in VARIANT_CHOICES.values():
        if v == variant and opts == options:
            return label
    return variant.replace("-", " ").title()


def _progress(data: dict[str, Any], players: int) -> str:
    state = data.get("state") if isinstance(data.get("state"), dict) else {}
    phase, turn = state.get("phase"), state.get("turn")
    if phase == "game_over":
        return "finished"
    if phase == "choose_initial_tickets" or turn == 0:
        return "choosing tickets"
    if isinstance(turn, int) and not isinstance(turn, bool) and players > 0:
        return f"round {current_round(turn, players)}"
    return ""


def _saved_at(data: dict[str, Any]) -> datetime | None:
    saved_at = data.get("saved_at")
    if isinstance(saved_at, str):
        try:
            return datetime.fromisoformat(saved_at).astimezone().replace(tzinfo=None)
        except (ValueError, OverflowError, OSError):    # not a time, or not one this system has
            pass
    return None


def read_summary(path: Path, autosave: bool = False) -> SaveSummary:
    """Name, time, variant, players and progress of a save (a broken file is 'damaged',
    never an error; what can still be read of it is shown)."""
    title = "Autosave" if autosave else path.stem
    try:
        mtime: datetime | None = datetime.fromtimestamp(path.stat().st_mtime)
    except (OSError, OverflowError, ValueError):
        mtime = None
    data, damage = check_file(path)
    known = data if data is not None else (damage.header if damage and damage.header else {})
    players = known.get("players")
    players = players if isinstance(players, list) and all(
        isinstance(p, str) for p in players) else None
    summary = SaveSummary(path, title, _saved_at(known) or mtime, variant_label(known), players,
                          autosave=autosave)
    if damage is not None:
        summary.damaged, summary.damage_code = REASONS[damage.code], damage.code
    else:
        summary.progress = _progress(known, len(players or []))
    return summary


def list_autosaves(folder: Path) -> list[SaveSummary]:
    """The autosaves (one per recent game), newest first."""
    return [read_summary(p, autosave=True) for p in save_files(folder)]


def list_named_saves(folder: Path) -> list[SaveSummary]:
    """The named saves, newest first."""
    found = [read_summary(p) for p in save_files(folder)]
    found.sort(key=lambda s: s.when or datetime.min, reverse=True)
    return found

