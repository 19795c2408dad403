"""Nordic Countries in the window: the Nordic board for 2 or 3 players.

Nothing new to draw: tunnels and ferries are Europe's (the tunnel panel, the ferry
marks), the 3-card and 4-card sets are payments the engine lists (the payment chooser
offers them after the usual ones), and the Globetrotter part already has its label. The
descriptor names the setup choice with its description and the rules page,
``assets/rules/07-nordic.md``.
"""

from __future__ import annotations

from ttr_desktop.rules.modules.tunnels import PAY_TUNNEL
from ttr_desktop.ui.families import SetupChoice, WindowFamily
from ttr_desktop.ui.families.classic import tunnel_panel

KEY = "nordic"

WINDOW = WindowFamily(
    KEY,
    choices=(
        SetupChoice(KEY, "nordic", "Nordic Countries", {},
                    "Denmark, Norway, Sweden and Finland for 2 or 3 players, 40 trains "
                    "each. Locomotives pay only for ferries and tunnels; any 3 cards may "
                    "stand in for a ferry's locomotive. Doubles open only with 3 players. "
                    "+10 Globetrotter, no longest path."),
    ),
    overlays={PAY_TUNNEL: tunnel_panel},
    rules_page="07-nordic.md",
    rules_section="Nordic Countries",
)
