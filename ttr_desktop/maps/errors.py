"""MapError and the helpers that locate a problem in a map file's text."""

from __future__ import annotations

import json
import re
from pathlib import Path

from ..resources import project_root


class MapError(ValueError):
    """A map file that cannot be used; the message names the file, line and field."""

    def __init__(
        self, path: str | Path, reason: str, line: int | None = None, field: str | None = None
    ):
        self.path = str(path)
        self.reason = reason
        self.line = line
        self.field = field
        super().__init__(str(self))

    def __str__(self) -> str:
        where = [display(self.path)]
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.field:
            where.append(self.field)
        return f"{', '.join(where)}: {self.reason}"


def display(path: str) -> str:
    """The path relative to the project root when it lies inside it."""
    try:
        return Path(path).resolve().relative_to(project_root()).as_posix()
    except (ValueError, OSError):
        return path


def show(value: object) -> str:
    """A value as it would look in TOML, for messages."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        return "a table"
    return str(value)


class LineFinder:
    """Finds the line of a top-level field or of a field inside the n-th ``[[table]]`` entry."""

    _HEADER = re.compile(r"^\s*\[\[?\s*[A-Za-z_\"'][\w.\"' -]*\]\]?\s*(#.*)?$")
    _ARRAY = re.compile(r"^\s*\[\[\s*([A-Za-z0-9_-]+)\s*\]\]")

    def __init__(self, text: str):
        self.lines = text.splitlines()
        self.headers = [n for n, line in enumerate(self.lines) if self._HEADER.match(line)]
        self.entries: dict[str, list[int]] = {}
        for n in self.headers:
            match = self._ARRAY.match(self.lines[n])
            if match:
                self.entries.setdefault(match.group(1), []).append(n)

    def find(
        self, table: str | None = None, index: int | None = None, key: str | None = None
    ) -> int | None:
        """1-based line number, or None when the text does not show it plainly."""
        if table is None:
            start, end = -1, self.headers[0] if self.headers else len(self.lines)
        else:
            starts = self.entries.get(table, [])
            if index is None or index >= len(starts):
                return None
            start = starts[index]
            end = next((h for h in self.headers if h > start), len(self.lines))
        if key is not None:
            pattern = re.compile(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*=")
            for n in range(start + 1, end):
                if pattern.match(self.lines[n]):
                    return n + 1
        return start + 1 if start >= 0 else None
