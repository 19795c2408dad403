"""Saves (TOML, atomic) and, later, settings and campaign files."""

from ttr_desktop.persistence.saves import (
    SAVE_FORMAT, SaveError, SaveFile, game_to_dict, load_game, read_save, save_game,
)

__all__ = ["SAVE_FORMAT", "SaveError", "SaveFile", "game_to_dict", "load_game", "read_save",
           "save_game"]
