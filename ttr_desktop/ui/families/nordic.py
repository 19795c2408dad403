"""Nordic Countries in the window: the Nordic board for 2 or 3 players.

Nothing new to draw: tunnels and ferries are Europe's (the tunnel overlay, the ferry
marks), the 3-card and 4-card sets are payments the engine lists (the payment chooser
offers them after the usual ones), and the Globetrotter part already has its label. The
setup screen offers the game with its description; the rules page is
``assets/rules/07-nordic.md``.
"""

from __future__ import annotations

from ttr_desktop.ui import families, session

KEY = "nordic"

session.register_choice(KEY, "nordic", {}, "Nordic Countries")
families.register_note(
    KEY,
    "Denmark, Norway, Sweden and Finland for 2 or 3 players, 40 trains each. Locomotives "
    "pay only for ferries and tunnels; any 3 cards may stand in for a ferry's locomotive. "
    "Doubles open only with 3 players. +10 Globetrotter, no longest path.")
