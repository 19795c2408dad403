"""Saves (TOML, atomic) and player settings."""

from ttr_desktop.persistence.saves import (
    SAVE_FORMAT, SaveError, SaveFile, dumps_game, game_to_dict, load_game, read_save, save_game,
    write_save_text,
)
from ttr_desktop.persistence.settings import Settings, load_settings, save_settings

__all__ = ["SAVE_FORMAT", "SaveError", "SaveFile", "Settings", "dumps_game", "game_to_dict",
           "load_game", "load_settings", "read_save", "save_game", "save_settings",
           "write_save_text"]
