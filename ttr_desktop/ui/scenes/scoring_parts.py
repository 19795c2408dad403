"""Pieces of the scoring screen: the tally lines, fitting text without cutting a word,
and small drawing helpers."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from ttr_desktop.rules.scoring import RouteTally, ScoreBreakdown, TicketResult
from ttr_desktop.rules.words import plural
from ttr_desktop.ui import style
from ttr_desktop.ui.scenes.scoring_words import (  # noqa: F401  (re-exported)
    DASH,
    MINUS,
    Amounts,
    join_names,
    margin_text,
    measure_text,
    number,
    part_label,
    signed,
    tie_break_text,
    winner_title,
)

#: Seconds between two tally lines at "normal" speed.
STEP = 0.35
DONE_GREEN = (58, 190, 86)
FAIL_RED = (222, 52, 44)
GOLD = (214, 168, 40)
GOLD_DARK = (196, 148, 30)
CARD_FILL = (255, 252, 244)
RULE = (226, 216, 196)
ELLIPSIS = "…"
#: Smallest text size the screen uses for names before it leaves words out.
MIN_SIZE = 12


# ----------------------------------------------------------------------
# The tally lines
@dataclass
class TallyRow:
    """One line of a player's tally."""

    kind: str                     # routes, ticket, longest, stations, part
    label: str
    value: int
    ink: tuple[int, int, int] = style.INK
    ticket: TicketResult | None = None
    ends: tuple[str, str] = ("", "")  # a ticket's city names
    part: str = ""                # the engine's name of the score part
    shorter: tuple[str, ...] = ()  # shorter wordings for narrow places, longest first

    @property
    def choices(self) -> tuple[str, ...]:
        """The label and its shorter wordings."""
        return (self.label,) + self.shorter

    @property
    def full(self) -> str:
        """The whole label, for tooltips."""
        if self.kind == "ticket":
            state = "completed" if self.ticket.done else "not completed"
            return f"{self.label} ({state})"
        return self.label


def route_rows(value: int, routes_claimed: int, tally: RouteTally | None,
               currency: str = "points") -> list[TallyRow]:
    """The ``routes`` part as lines: one ("14 routes") when every claim's points went to
    its claimant; else the points the seat's claims earned it, the points others' claims
    paid its markers, and (worth nothing to it) what its claims paid others' markers
    (Old West). Their values add up to ``value``."""
    if tally is None or not (tally.income or tally.given):
        return [TallyRow("routes", plural(routes_claimed, "route"), value, part="routes",
                         shorter=("Routes",))]
    # Neutral words: every seat's column reads the same, a bot's as well as the viewer's.
    rows = [TallyRow("routes", f"Claims: {plural(tally.own_routes, 'route')}", tally.own,
                     part="routes", shorter=("Claims",))]
    if tally.income_routes:
        rows.append(TallyRow("routes", f"Markers: {plural(tally.income_routes, 'route')}"
                             " others claimed", tally.income, part="routes",
                             shorter=(f"Markers: {plural(tally.income_routes, 'route')}",
                                      "Markers")))
    if tally.given_routes:
        paid = plural(tally.given, "dollar" if currency == "dollars" else "point")
        rows.append(TallyRow("note", f"{plural(tally.given_routes, 'claim')} gave "
                             f"{paid} to others' markers", 0, style.INK_SOFT, part="routes",
                             shorter=(f"Gave {paid} away",)))
    rest = value - tally.own - tally.income
    if rest:
        rows.append(TallyRow("routes", "Other route points", rest, part="routes"))
    return rows


def tally_rows(sc: ScoreBreakdown, routes_claimed: int, city_names: dict[str, str],
               station_points: int = 4, tally: RouteTally | None = None,
               counts: dict[str, str] | None = None) -> list[TallyRow]:
    """The lines of ``sc`` in reveal order, one per engine part in the engine's order
    (tickets one line each; the routes split by ``route_rows`` when ``tally`` shows points
    moved by markers; ``counts``: part -> the count it was worked out from, in words);
    their values add up to ``sc.total``."""
    rows: list[TallyRow] = []
    for key, value in sc.parts.items():
        if key == "routes":
            rows.extend(route_rows(value, routes_claimed, tally))
        elif key == "tickets":
            ticket_sum = 0
            for t in sc.tickets:
                ticket_sum += t.value
                a, b = city_names.get(t.a, t.a), city_names.get(t.b, t.b)
                rows.append(TallyRow("ticket", f"{a} {DASH} {b}", t.value,
                                     style.GOOD if t.done else style.BAD, t, (a, b), key))
            if not sc.tickets:
                rows.append(TallyRow("part", "No tickets", value, part=key))
            elif ticket_sum != value:  # never expected; keep the sum honest
                rows.append(TallyRow("part", "Tickets (adjusted)", value - ticket_sum,
                                     part=key))
        elif key == "longest_path":
            trains = plural(sc.longest_path, "train")
            rows.append(TallyRow("longest", f"Longest path: {trains}", value,
                                 style.GOOD if value else style.INK_SOFT, part=key,
                                 shorter=(f"Longest path: {sc.longest_path}",
                                          f"Longest: {sc.longest_path}")))
        elif key == "stations":
            left = value // station_points if value and station_points else 0
            rows.append(TallyRow("stations", f"{plural(left, 'unbuilt station')}",
                                 value, part=key,
                                 shorter=(plural(left, "station"), "Stations")))
        elif key in sc.measures:   # an end bonus: the value it was decided on beside it
            measure, amount = sc.measures[key]
            rows.append(TallyRow("part", f"{part_label(key)}: {measure_text(measure, amount)}",
                                 value, style.GOOD if value > 0 else style.INK if value == 0
                                 else style.BAD, part=key,
                                 shorter=(f"{part_label(key)}: {amount}", part_label(key))))
        elif counts and key in counts:   # a part worked out from a count: show it
            rows.append(TallyRow("part", f"{part_label(key)}: {counts[key]}", value, part=key,
                                 shorter=(part_label(key),)))
        else:
            rows.append(TallyRow("part", part_label(key), value, part=key))
    rest = sc.total - sum(r.value for r in rows)
    if rest:  # parts that do not add up to the total: show the difference, never hide it
        rows.append(TallyRow("part", "Other", rest, part="other"))
    return rows


# ----------------------------------------------------------------------
# Fitting text: shrink, wrap at spaces, or leave whole words out (never cut a word)
@dataclass
class Fitted:
    """Text laid out for a width: its lines, the size, and whether words were left out."""

    lines: list[str]
    size: int
    shortened: bool = False

    def width(self, bold: bool = False) -> int:
        f = style.font(self.size, bold)
        return max((f.size(line)[0] for line in self.lines), default=0)


def _fits(text: str, size: int, width: int, bold: bool) -> bool:
    return style.font(size, bold).size(text)[0] <= width


def drop_words(text: str, size: int, width: int, bold: bool = False) -> str:
    """``text`` with as many leading whole words as fit, then '…' (the whole text if it
    fits; '…' alone when not even one word does)."""
    if _fits(text, size, width, bold):
        return text
    words = text.split(" ")
    for k in range(len(words) - 1, 0, -1):
        head = " ".join(words[:k]).rstrip(f" {DASH},·:") + ELLIPSIS
        if _fits(head, size, width, bold):
            return head
    return ELLIPSIS


def fit_text(text: str, size: int, width: int, bold: bool = False, max_lines: int = 1,
             min_size: int = MIN_SIZE) -> Fitted:
    """``text`` in at most ``max_lines`` lines of ``width`` pixels: the largest size from
    ``size`` down to ``min_size`` on one line, then wrapped at spaces, and only then with
    trailing words left out."""
    low = min(size, min_size)
    for s in range(size, low - 1, -1):
        if _fits(text, s, width, bold):
            return Fitted([text], s)
    if max_lines > 1:
        for s in range(size, low - 1, -1):
            lines = style.wrap(text, s, width, bold)
            if len(lines) <= max_lines and all(_fits(ln, s, width, bold) for ln in lines):
                return Fitted(lines, s)
        lines = style.wrap(text, low, width, bold)
        keep: list[str] = []
        for line in lines[:max_lines - 1]:
            if not _fits(line, low, width, bold):
                break
            keep.append(line)
        rest = " ".join(lines[len(keep):])
        return Fitted(keep + [drop_words(rest, low, width, bold)], low, True)
    return Fitted([drop_words(text, low, width, bold)], low, True)


def fit_choices(choices: tuple[str, ...], size: int, width: int, bold: bool = False,
                min_size: int = MIN_SIZE) -> Fitted:
    """The first of ``choices`` (a label and shorter wordings of it) that fits on one line,
    trying every wording at each size from ``size`` down to ``min_size``; failing that,
    the shortest wording with trailing words left out. Any wording but the first counts
    as shortened."""
    low = min(size, min_size)
    for s in range(size, low - 1, -1):
        for k, choice in enumerate(choices):
            if _fits(choice, s, width, bold):
                return Fitted([choice], s, k > 0)
    return Fitted([drop_words(choices[-1], low, width, bold)], low, True)


def ticket_label(a: str, b: str, size: int, width: int, max_lines: int = 2,
                 min_size: int = MIN_SIZE) -> Fitted:
    """A ticket's 'A – B' for ``width`` pixels: one line (a size smaller at most when a
    second line is allowed), then one city per line, then city names with trailing words
    left out."""
    low = min(size, min_size)
    one = f"{a} {DASH} {b}"
    for s in range(size, (max(low, size - 1) if max_lines >= 2 else low) - 1, -1):
        if _fits(one, s, width, False):
            return Fitted([one], s)
    first = f"{a} {DASH}"
    if max_lines >= 2:
        for s in range(size, low - 1, -1):
            if _fits(first, s, width, False) and _fits(b, s, width, False):
                return Fitted([first, b], s)
        return Fitted([drop_words(first, low, width), drop_words(b, low, width)], low, True)
    for s in range(size - 1, low - 1, -1):
        if _fits(one, s, width, False):
            return Fitted([one], s)
    # One line only: leave out words of the longer name first, then of both.
    best = ELLIPSIS
    best_words = -1
    wa, wb = a.split(" "), b.split(" ")
    for ka in range(len(wa), 0, -1):
        for kb in range(len(wb), 0, -1):
            ha = a if ka == len(wa) else " ".join(wa[:ka]) + ELLIPSIS
            hb = b if kb == len(wb) else " ".join(wb[:kb]) + ELLIPSIS
            text = f"{ha} {DASH} {hb}"
            if ka + kb > best_words and _fits(text, low, width, False):
                best, best_words = text, ka + kb
    return Fitted([best], low, True)


def whole_words_of(shown: str, full: str) -> bool:
    """True when every word in ``shown`` is a whole word of ``full`` (tests and checks)."""
    words = set(full.replace(ELLIPSIS, " ").split())
    return all(token in words for token in shown.replace(ELLIPSIS, " ").split())


# ----------------------------------------------------------------------
# Drawing helpers
def draw_tick(surface: pygame.Surface, center: tuple[int, int], size: int, done: bool) -> None:
    """A green tick or a red cross in a small disc."""
    x, y = center
    r = size // 2
    pygame.draw.circle(surface, style.GOOD if done else style.BAD, (x, y), r)
    w = max(2, size // 7)
    if done:
        pts = [(x - r * 0.5, y + r * 0.02), (x - r * 0.12, y + r * 0.42),
               (x + r * 0.52, y - r * 0.4)]
        pygame.draw.lines(surface, (255, 255, 255), False, pts, w)
    else:
        d = r * 0.42
        pygame.draw.line(surface, (255, 255, 255), (x - d, y - d), (x + d, y + d), w)
        pygame.draw.line(surface, (255, 255, 255), (x - d, y + d), (x + d, y - d), w)


def dashed_line(surface: pygame.Surface, color, a, b, width: int = 3, dash: int = 8,
                gap: int = 6) -> None:
    """A dashed straight line from ``a`` to ``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length < 1:
        return
    ux, uy = dx / length, dy / length
    d = 0.0
    while d < length:
        e = min(length, d + dash)
        pygame.draw.line(surface, color, (a[0] + ux * d, a[1] + uy * d),
                         (a[0] + ux * e, a[1] + uy * e), width)
        d += dash + gap


def nice_step(span: float, target: int = 5) -> int:
    """A round grid step giving about ``target`` lines over ``span``."""
    raw = max(span, 1) / max(1, target)
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if step >= raw:
            return step
    return 10000


def draw_tooltip(surface: pygame.Surface, lines: list[tuple[str, tuple[int, int, int]]],
                 pos: tuple[int, int], size: int = 14) -> pygame.Rect:
    """A small box of text lines near ``pos``, kept inside ``surface``."""
    surfs = [style.text(t, size, ink) for t, ink in lines if t]
    if not surfs:
        return pygame.Rect(pos, (0, 0))
    w = max(s.get_width() for s in surfs) + 20
    line_h = style.font(size).get_linesize()
    h = line_h * len(surfs) + 12
    box = pygame.Rect(pos[0] + 16, pos[1] + 18, w, h)
    bounds = surface.get_rect()
    if box.right > bounds.right - 4:
        box.right = pos[0] - 8
    if box.bottom > bounds.bottom - 4:
        box.bottom = pos[1] - 8
    box.clamp_ip(bounds)
    shade = pygame.Surface((box.width + 6, box.height + 6), pygame.SRCALPHA)
    pygame.draw.rect(shade, (0, 0, 0, 50), shade.get_rect().move(2, 3), border_radius=8)
    surface.blit(shade, box.topleft)
    pygame.draw.rect(surface, (255, 251, 240), box, border_radius=7)
    pygame.draw.rect(surface, style.PANEL_EDGE, box, 1, border_radius=7)
    for k, s in enumerate(surfs):
        surface.blit(s, (box.x + 10, box.y + 6 + k * line_h))
    return box
