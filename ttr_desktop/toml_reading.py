"""Reading a TOML file that a player's computer hands us (a save, an autosave, a campaign,
the settings, the last setup, a map): the one place where a damaged file is turned into
a message.

A file may be missing, locked, a folder, empty, far too large, not text, cut off in the
middle, garbled, nested thousands of levels deep or hold an integer of thousands of
digits. ``read_toml`` turns every one of these into a :class:`TomlFileError` (a code, the
low-level detail and a sentence naming the file and the problem) and raises it as the
reader's own error: ``error`` is the reader's exception class (called with the sentence)
or a function from the problem to the exception to raise (the map loader builds its
``MapError`` with the line number this way). No reader parses TOML any other way, so no
reader needs a ``try`` of its own around the parser.

This module sits below ``maps`` and ``persistence`` (it imports neither), so both can use
it without an import cycle.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: A file larger than this is not one of ours (a real save is well under 1 MB).
MAX_FILE_BYTES = 20_000_000
#: The deepest a file's tables and lists may nest (saves, maps and campaigns need far less).
MAX_DEPTH = 32

#: What the reader raises: an exception class (called with the message) or a function from
#: the problem to the exception.
ErrorMaker = type[Exception] | Callable[["TomlFileError"], Exception]

_WHERE = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_AT_END = "(at end of document)"


class TomlFileError(Exception):
    """Why a TOML file cannot be read.

    ``code`` is one of missing, folder, unreadable, too_large, empty, binary, cut, garbled,
    too_deep, bad_value; ``detail`` is the low-level reason (the parser's words, the system's
    error) for logs and for readers with their own wording; ``line`` and ``column`` locate a
    syntax error or a byte that is not text; ``text`` is the decoded text when there is one
    (what is left of a file cut short can still be shown). ``str()`` is a sentence that names
    the file and the problem."""

    def __init__(self, path: str | os.PathLike, what: str, code: str, detail: str = "", *,
                 line: int | None = None, column: int | None = None,
                 text: str | None = None) -> None:
        self.path = Path(path)
        self.what = what
        self.code = code
        self.detail = detail
        self.line = line
        self.column = column
        self.text = text
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """The sentence for the player: which file, what is wrong with it."""
        p, what = self.path, self.what
        name = f"The {what} {p.name}"
        if self.code == "missing":
            return f"There is no {what} at {p}."
        if self.code == "folder":
            return f"{p} is a folder, not a {what}."
        if self.code == "unreadable":
            return f"Could not read {p}: {self.detail}."
        if self.code == "too_large":
            return f"{name} is far too large to be a {what}; it is damaged."
        if self.code == "empty":
            return f"{name} is empty; it cannot be read."
        if self.code == "binary":
            where = f" at line {self.line}" if self.line else ""
            return f"{name} is not text (it is not UTF-8{where}); it is damaged."
        if self.code in ("cut", "garbled"):
            where = f" at line {self.line}" if self.line else ""
            how = "it ends in the middle" if self.code == "cut" else "part of it is garbled"
            return (f"{name} is damaged ({how}{where}: {self.reason_detail}); it may have been "
                    "cut short or edited by hand.")
        if self.code == "too_deep":
            return f"{name} is damaged: it nests tables or lists too deeply."
        return f"{name} is damaged: a value cannot be read ({self.detail})."

    @property
    def reason_detail(self) -> str:
        """The parser's words without the location it appends."""
        return _WHERE.sub("", self.detail).replace(_AT_END, "").strip()


def depth(value: Any, level: int = 0, limit: int = MAX_DEPTH) -> int:
    """How deeply ``value`` nests lists and tables (stops counting past ``limit``)."""
    if level > limit:
        return level
    if isinstance(value, dict):
        return max((depth(v, level + 1, limit) for v in value.values()), default=level + 1)
    if isinstance(value, list):
        return max((depth(v, level + 1, limit) for v in value), default=level + 1)
    return level


def _raise(problem: TomlFileError, error: ErrorMaker) -> Exception:
    if isinstance(error, type) and issubclass(error, Exception):
        if issubclass(error, TomlFileError):
            return problem
        return error(problem.message)
    return error(problem)


def parse_toml(text: str, path: str | os.PathLike, what: str,
               error: ErrorMaker = TomlFileError, max_depth: int = MAX_DEPTH) -> dict[str, Any]:
    """The data of TOML ``text`` read from ``path``; ``error`` for any damage (see module)."""
    try:
        data = tomllib.loads(text)
        too_deep = depth(data, 0, max_depth) > max_depth
    except tomllib.TOMLDecodeError as exc:
        detail = str(exc)
        match = _WHERE.search(detail)
        line = int(match.group(1)) if match else None
        column = int(match.group(2)) if match else None
        at_end = _AT_END in detail
        if at_end:
            line = len(text.splitlines())
        code = "cut" if at_end or not text.endswith("\n") else "garbled"
        raise _raise(TomlFileError(path, what, code, detail, line=line, column=column,
                                   text=text), error) from None
    except RecursionError:
        raise _raise(TomlFileError(path, what, "too_deep", text=text), error) from None
    except MemoryError:
        raise _raise(TomlFileError(path, what, "too_large"), error) from None
    except (ValueError, OverflowError) as exc:   # an integer of thousands of digits...
        raise _raise(TomlFileError(path, what, "bad_value", str(exc), text=text),
                     error) from None
    if too_deep:
        raise _raise(TomlFileError(path, what, "too_deep", text=text), error)
    return data


def read_toml_text(path: str | os.PathLike, what: str, error: ErrorMaker = TomlFileError, *,
                   encoding: str = "utf-8-sig", max_bytes: int = MAX_FILE_BYTES,
                   max_depth: int = MAX_DEPTH) -> tuple[str, dict[str, Any]]:
    """The text and data of the TOML file at ``path`` (a ``what``: "save file", "map file"...);
    ``error`` for any damage or any failure to read it (see the module's docstring). A byte
    order mark, as some editors write at the start of UTF-8, is no damage."""
    p = Path(path)
    try:
        if p.is_file() and p.stat().st_size > max_bytes:
            raise _raise(TomlFileError(p, what, "too_large"), error)
        raw = p.read_bytes()
    except FileNotFoundError:
        raise _raise(TomlFileError(p, what, "missing"), error) from None
    except IsADirectoryError as exc:
        raise _raise(TomlFileError(p, what, "folder", str(exc.strerror or exc)),
                     error) from None
    except OSError as exc:
        raise _raise(TomlFileError(p, what, "unreadable", str(exc.strerror or exc)),
                     error) from None
    except MemoryError:
        raise _raise(TomlFileError(p, what, "too_large"), error) from None
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise _raise(TomlFileError(p, what, "binary", str(exc), line=line), error) from None
    if not text.strip():
        raise _raise(TomlFileError(p, what, "empty", text=text), error)
    return text, parse_toml(text, p, what, error, max_depth)


def read_toml(path: str | os.PathLike, what: str, error: ErrorMaker = TomlFileError, *,
              encoding: str = "utf-8-sig", max_bytes: int = MAX_FILE_BYTES,
              max_depth: int = MAX_DEPTH) -> dict[str, Any]:
    """The data of the TOML file at ``path``; ``error`` for any damage (see the module)."""
    return read_toml_text(path, what, error, encoding=encoding, max_bytes=max_bytes,
                          max_depth=max_depth)[1]


__all__ = ["MAX_DEPTH", "MAX_FILE_BYTES", "TomlFileError", "depth", "parse_toml", "read_toml",
           "read_toml_text"]
