"""ttr-desktop: a desktop Ticket to Ride game.

Layers (imports only point down): ``ui`` -> ``sim``/``bench`` -> ``bots`` ->
``persistence`` -> ``rules`` -> ``maps``.
"""

__version__ = "0.1.0"
