"""Writing a file so that a crash never leaves half of it: a temporary file, then replace."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

#: A temporary file older than this (seconds) belongs to a save that was cut off.
STALE_SECONDS = 60.0


def write_atomically(path: str | os.PathLike, text: str) -> Path:
    """Write ``text`` to ``path`` via a temporary file in the same folder (OSError on failure;
    the old file, if any, is then unchanged and no temporary file is left).

    The data and then the folder entry are synced, so the new file survives a power cut;
    temporary files left behind by an earlier interrupted write are removed."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _sync_folder(target.parent)
    remove_stale_temporaries(target)
    return target


def _sync_folder(folder: Path) -> None:
    """Make the rename durable (where the system allows syncing a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def remove_stale_temporaries(target: Path, older_than: float = STALE_SECONDS) -> int:
    """Remove ``.<name>.*.tmp`` files beside ``target`` left by interrupted writes; how many.

    Young ones are left alone: another writer may still be using them."""
    now = time.time()
    removed = 0
    for leftover in target.parent.glob(f".{target.name}.*.tmp"):
        try:
            if now - leftover.stat().st_mtime >= older_than:
                leftover.unlink()
                removed += 1
        except OSError:
            pass
    return removed
