"""The window: pygame-ce scenes over the engine (the only package that imports pygame)."""
