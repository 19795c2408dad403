"""Errors the engine raises."""


class IllegalAction(ValueError):
    """An action that is not legal now; the message says why, for a player."""
