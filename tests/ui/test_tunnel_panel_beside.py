"""A tunnel's revealed cards show beside the tunnel: next to its spaces, never over them,
and inside the map (not in the middle of the board, hiding it, for three seconds)."""

from __future__ import annotations

import pygame
import pytest

from tests.helpers import set_hand, stack_deck
from tests.ui.boardkit import confirm_claim, post_click
from tests.ui.test_effects_window import app, start, to_anns_turn  # noqa: F401 (fixture)
from ttr_desktop.ui.animations import TunnelReveal


def covered(rect: pygame.Rect, quads) -> bool:
    """Whether ``rect`` hides any pixel of the spaces ``quads``."""
    surf = pygame.Surface((rect.right + 400, rect.bottom + 400), pygame.SRCALPHA)
    for quad in quads:
        pygame.draw.polygon(surf, (255, 255, 255, 255), quad)
    spaces = pygame.mask.from_surface(surf)
    panel = pygame.mask.Mask(rect.size, fill=True)
    return spaces.overlap(panel, rect.topleft) is not None


def middle_of(board, rid: str, k: int) -> tuple[int, int]:
    quad = board.map_view.polys[rid][k]
    return (round(sum(p[0] for p in quad) / 4), round(sum(p[1] for p in quad) / 4))


@pytest.mark.parametrize("rid", ["angora-smyrna", "munchen-venezia", "petrograd-stockholm",
                                 "madrid-pamplona-1"])
def test_the_revealed_cards_show_beside_the_tunnel_not_over_it(app, rid):  # noqa: F811
    board = start(app, "europe")
    to_anns_turn(app, board)
    g = board.game
    route = g.map.routes[rid]
    colour = "orange" if route.color == "gray" else route.color
    set_hand(g, 0, **{colour: route.length})
    stack_deck(g, [c for c in ("blue", "green", "white", "red", "black") if c != colour][:3])
    post_click(app, middle_of(board, rid, 0))
    confirm_claim(app, frames=1)
    assert g.state.owner[g.board.route_index[rid]] == 0
    reveal = next(a for a in board.anims if isinstance(a, TunnelReveal))
    quads = board.map_view.polys[rid]
    assert board.lay.map.contains(reveal.rect), "the panel leaves the map"
    assert not covered(reveal.rect, quads), "the panel hides the tunnel it is about"
    assert covered(reveal.rect.inflate(60, 60), quads), \
        f"the panel at {reveal.rect} is not beside the tunnel"
