"""Where a player's files live: saves, settings and logs go to the user's folders.

Set ``TTR_DESKTOP_HOME`` to put everything under one folder instead (tests,
portable installs).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

APP = "ttr-desktop"


@dataclass(frozen=True)
class UserPaths:
    """The folders and files of one player profile."""

    config_dir: Path
    data_dir: Path
    log_dir: Path

    @property
    def settings_file(self) -> Path:
        """settings.toml in the config folder."""
        return self.config_dir / "settings.toml"

    @property
    def saves_dir(self) -> Path:
        """Folder for named saves."""
        return self.data_dir / "saves"

    @property
    def autosaves_dir(self) -> Path:
        """Folder for the autosaves: one file per game, the most recent few kept."""
        return self.data_dir / "autosaves"

    @property
    def autosave_file(self) -> Path:
        """The single autosave of older versions (moved into ``autosaves_dir`` when found)."""
        return self.data_dir / "autosave.toml"

    @property
    def last_setup_file(self) -> Path:
        """The last game's setup (map, seats), offered again by the setup screen."""
        return self.config_dir / "last_setup.toml"

    @property
    def log_file(self) -> Path:
        """The error log."""
        return self.log_dir / "ttr-desktop.log"


def user_paths() -> UserPaths:
    """The folders for this user (or under ``TTR_DESKTOP_HOME``)."""
    home = os.environ.get("TTR_DESKTOP_HOME")
    if home:
        root = Path(home)
        return UserPaths(root / "config", root / "data", root / "logs")
    return UserPaths(Path(platformdirs.user_config_dir(APP, appauthor=False)),
                     Path(platformdirs.user_data_dir(APP, appauthor=False)),
                     Path(platformdirs.user_log_dir(APP, appauthor=False)))
