"""The window's side of online tables: a session the board plays over a ``TableLink``
(``remote``), the host / join / lobby screens (``screens``) and what the board shows of
the table around the game: banners, chat and the turn timer (``panel``).

The server, the codec and the link itself are ``ttr_desktop.net``; nothing here runs a
rules engine of its own for a remote table (the map, board and ruleset are loaded
locally from the variant, as both ends do).
"""
