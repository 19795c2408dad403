"""Deleting and renaming a save from the load screen (each asks first).

Renaming never overwrites another save; an autosave given a name moves to the
saved games, where it is kept for good (autosaves are trimmed to the last few).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ttr_desktop.persistence.autosaves import save_files
from ttr_desktop.ui.scenes.dialogs import (
    MAX_NAME,
    ConfirmOverlay,
    MessageOverlay,
    TextPromptOverlay,
    check_save_name,
)
from ttr_desktop.ui.scenes.save_info import SaveSummary, when_words

if TYPE_CHECKING:
    from ttr_desktop.ui.app import App

_UNSAFE = re.compile(r'[\\/:*?"<>|\x00-\x1f\x7f]+')


def ask_delete(app: App, save: SaveSummary, done: Callable[[SaveSummary], None]) -> None:
    """Confirm, then delete ``save``; ``done(save)`` once it is gone."""
    if save.autosave:
        what = f"The recent game {save.game_words}"
    elif save.damaged:
        what = f"The damaged save '{save.title}'"
    else:
        what = f"The save '{save.title}' ({save.game_words})"

    def delete() -> None:
        try:
            save.path.unlink(missing_ok=True)
        except OSError as exc:
            app.sound.play("error")
            app.push(MessageOverlay(app, "Not deleted",
                                    f"The file could not be deleted: {exc.strerror or exc}.",
                                    error=True))
            return
        done(save)

    app.push(ConfirmOverlay(
        app, "Delete this game?",
        f"{what}, saved {when_words(save.when)}, will be deleted for good. This cannot be "
        "undone.", delete, yes_label="Delete", no_label="Keep it"))


def suggested_name(save: SaveSummary) -> str:
    """A file-safe name for an autosave being kept: 'Europe - Ann, Bot 2 - 3 May 14.32'."""
    when = f"{save.when.day} {save.when:%b %H.%M}" if save.when else ""
    parts = [p for p in (save.variant, ", ".join(save.players or []), when) if p]
    name = _UNSAFE.sub("-", " - ".join(parts)).strip(" .") or "Kept game"
    return name[:MAX_NAME].rstrip(" .")


def rename_problem(folder: Path, save: SaveSummary, name: str) -> str | None:
    """Why ``save`` cannot be called ``name`` in ``folder`` (None when it can)."""
    problem = check_save_name(name)
    if problem:
        return problem
    name = name.strip()
    for other in save_files(folder):
        if other.stem.lower() == name.lower() and other != save.path:
            return (f"There is already a save called '{other.stem}'. Choose another name, "
                    "or delete that save first.")
    return None


def ask_rename(app: App, save: SaveSummary,
               done: Callable[[SaveSummary, Path], None]) -> None:
    """Ask for a name and move ``save`` to it in the saves folder; ``done(save, new)``."""
    folder = app.paths.saves_dir

    def rename(text: str) -> str | None:
        problem = rename_problem(folder, save, text)
        if problem:
            return problem
        target = folder / f"{text.strip()}.toml"
        if target == save.path:
            return None                     # the same name: nothing to do
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if target.exists() and not os.path.samefile(target, save.path):
                return f"There is already a save called '{target.stem}'."
            os.rename(save.path, target)
        except OSError as exc:
            return f"The save could not be renamed: {exc.strerror or exc}."
        done(save, target)
        return None

    if save.autosave:
        app.push(TextPromptOverlay(
            app, "Keep this game",
            "Recent games are removed once five newer ones have been played. Give this one "
            "a name to keep it with your saved games:", suggested_name(save), rename,
            ok_label="Keep"))
    else:
        app.push(TextPromptOverlay(app, "Rename this save", f"A new name for '{save.title}':",
                                   save.title, rename, ok_label="Rename"))


__all__ = ["ask_delete", "ask_rename", "rename_problem", "suggested_name"]
