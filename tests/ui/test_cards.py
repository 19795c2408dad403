"""Train cards measured as drawn: every kind tells apart from every other and from an
empty slot, with the colour-blind symbols on and off; a card not in hand keeps its
colour; a white card never looks blank."""

from __future__ import annotations

import itertools

import pygame
import pytest

from ttr_desktop.ui import style
from ttr_desktop.ui.cards import card_back, card_surface

COLOURS = ["red", "blue", "green", "yellow", "black", "white", "orange", "pink"]
KINDS = [*COLOURS, "locomotive", "locomotive_plus4", "passenger", "newspaper"]
#: The hand and display sizes at 1280x720 and 1920x1080, and the small overlay size.
SIZES = [(46, 66), (62, 86), (26, 38)]


@pytest.fixture(autouse=True)
def _pygame():
    pygame.init()
    style.reset_caches()
    yield


def on_panel(surf: pygame.Surface) -> list[tuple[int, int, int]]:
    """The card as it shows on a panel: its pixels over the panel colour."""
    back = pygame.Surface(surf.get_size())
    back.fill(style.PANEL)
    back.blit(surf, (0, 0))
    w, h = back.get_size()
    return [tuple(back.get_at((x, y)))[:3] for y in range(h) for x in range(w)]


def difference(a, b) -> float:
    """Mean absolute difference per channel (0..255)."""
    return sum(abs(p - q) for pa, pb in zip(a, b) for p, q in zip(pa, pb)) / (3 * len(a))


def share(pixels, rgb, tolerance: int = 0) -> float:
    """The share of pixels within ``tolerance`` of ``rgb``."""
    return sum(1 for p in pixels if max(abs(c - d) for c, d in zip(p, rgb)) <= tolerance) / len(
        pixels)


@pytest.mark.parametrize("symbols", [True, False])
@pytest.mark.parametrize("size", SIZES)
def test_every_card_kind_is_distinct_from_every_other_and_from_an_empty_slot(size, symbols):
    faces = {kind: on_panel(card_surface(kind, size, symbols)) for kind in KINDS}
    faces["empty slot"] = on_panel(card_surface(None, size, symbols))
    for a, b in itertools.combinations(faces, 2):
        assert difference(faces[a], faces[b]) > 12, (a, b)


@pytest.mark.parametrize("symbols", [True, False])
@pytest.mark.parametrize("size", SIZES)
def test_a_card_not_in_hand_keeps_its_colour_and_differs_from_one_in_hand(size, symbols):
    empty = on_panel(card_surface(None, size))
    outlines = {}
    for kind in KINDS:
        full = on_panel(card_surface(kind, size, symbols))
        out = on_panel(card_surface(kind, size, symbols, dim=True))
        outlines[kind] = out
        assert difference(full, out) > 12, kind
        assert difference(out, empty) > 12, kind
        if kind in COLOURS or kind == "passenger":
            # The real colour, not a pale wash of it, shows on a good part of the card.
            assert share(out, style.CARD_RGB[kind]) > 0.12, kind
            washed = tuple(round(c + (245 - c) * 0.6) for c in style.CARD_RGB[kind])
            assert share(out, washed, 6) < 0.02, kind
    for a, b in itertools.combinations(outlines, 2):
        assert difference(outlines[a], outlines[b]) > 4, (a, b)


@pytest.mark.parametrize("symbols", [True, False])
def test_a_white_card_has_a_clear_edge_and_a_motif(symbols):
    w, h = SIZES[0]
    white = card_surface("white", (w, h), symbols)
    pixels = on_panel(white)
    blank = [(252, 250, 244)] * len(pixels)
    assert difference(pixels, blank) > 10
    # A dark edge just inside the frame on all four sides.
    for x, y in ((w // 2, 3), (w // 2, h - 4), (3, h // 2), (w - 4, h // 2)):
        assert sum(white.get_at((x, y))[:3]) < 480, (x, y)
    # Something drawn on the face: a good share of it is not card white.
    inside = [white.get_at((x, y))[:3] for x in range(6, w - 6) for y in range(6, h - 6)]
    assert share(inside, style.CARD_RGB["white"], 8) < 0.9


def test_an_empty_display_slot_looks_empty():
    for size in SIZES:
        slot = card_surface(None, size)
        w, h = size
        inside = [slot.get_at((x, y)) for x in range(6, w - 6) for y in range(6, h - 6)]
        assert all(p.a < 80 for p in inside)          # see-through: a hollow in the panel
        edge = [slot.get_at((x, 2)) for x in range(w)]
        assert any(p.a > 200 for p in edge)          # a drawn (dashed) edge
        assert not all(p.a > 200 for p in edge[w // 5: w - w // 5])


@pytest.mark.parametrize("symbols", [True, False])
def test_the_plus_four_locomotive_is_not_the_plain_one(symbols):
    size = SIZES[0]
    plain = on_panel(card_surface("locomotive", size, symbols))
    plus = on_panel(card_surface("locomotive_plus4", size, symbols))
    assert difference(plain, plus) > 20
    # The "+4" is big: much of the card's middle is its dark pill or white text.
    w, h = size
    middle = [p for i, p in enumerate(plus) if w // 4 <= i % w < 3 * w // 4
              and h // 4 <= i // w < 3 * h // 4]
    assert share(middle, (25, 20, 15), 10) + share(middle, (255, 255, 255), 10) > 0.2


def test_a_count_badge_shows_even_zero():
    size = SIZES[0]
    for dim in (False, True):
        plain = on_panel(card_surface("red", size, True, dim))
        zero = on_panel(card_surface("red", size, True, dim, count=0))
        three = on_panel(card_surface("red", size, True, dim, count=3))
        assert difference(plain, zero) > 1 and difference(zero, three) > 0.5


def test_an_unknown_card_kind_still_draws_and_the_backs_differ_from_faces():
    odd = on_panel(card_surface("mystery", SIZES[0]))
    assert difference(odd, on_panel(card_surface(None, SIZES[0]))) > 12
    back = on_panel(card_back(SIZES[0]))
    for kind in KINDS:
        assert difference(back, on_panel(card_surface(kind, SIZES[0]))) > 12, kind
