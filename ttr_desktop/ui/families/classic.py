"""USA and Europe in the window: the core game and its stations, tunnels and ferries.

Everything they need is the window's own (the core's log lines, the claim panels, the
payment chooser); their descriptors name the setup choices, the score part labels of
stations and the tunnel's panel. The rules page is ``assets/rules.md`` itself.
"""

from __future__ import annotations

from ttr_desktop.rules.modules.tunnels import PAY_TUNNEL
from ttr_desktop.ui.families import SetupChoice, WindowFamily
from ttr_desktop.ui.scenes.board_overlays import TunnelOverlay

USA = WindowFamily(
    "usa",
    choices=(
        SetupChoice("usa", "usa", "USA", {},
                    "The classic map of North America: 45 trains each, routes of 1 to 6 "
                    "cars and 30 destination tickets."),
        SetupChoice("usa-stations", "usa", "USA with Stations", {"stations": True},
                    "The classic map plus 3 stations each. A station lets you use one "
                    "rival route into its city for your tickets; every station you never "
                    "build is worth 4 points."),
    ),
    part_labels={"stations": "Unbuilt stations"},
)

def tunnel_panel(board):
    """The panel of a tunnel's extra cards (every family with tunnels uses this one)."""
    return TunnelOverlay(board.app, board)


EUROPE = WindowFamily(
    "europe",
    choices=(
        SetupChoice("europe", "europe", "Europe", {},
                    "Europe: tunnels may cost extra cards, ferries need locomotives, "
                    "everyone has 3 stations, and each player starts with one long "
                    "ticket."),
    ),
    overlays={PAY_TUNNEL: tunnel_panel},
    rules_section="Europe",
    part_labels={"stations": "Unbuilt stations"},
)
