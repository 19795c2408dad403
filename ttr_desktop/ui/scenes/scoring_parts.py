"""Pieces of the scoring screen: the tally lines, their texts and small drawing helpers."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pygame

from ttr_desktop.rules.scoring import Result, ScoreBreakdown, TicketResult
from ttr_desktop.ui import style

#: Seconds between two tally lines at "normal" speed.
STEP = 0.35
DONE_GREEN = (58, 190, 86)
FAIL_RED = (222, 52, 44)
MINUS = "\u2212"
DASH = "\u2013"


# ----------------------------------------------------------------------
# Words
def join_names(names: list[str]) -> str:
    """'Ann', 'Ann and Bob', 'Ann, Bob and Cy'."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def signed(value: int) -> str:
    """'+4', '−8' (a true minus sign), '0'."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"{MINUS}{-value}"
    return "0"


def number(value: int) -> str:
    """'12', '−8' (a true minus sign)."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


def winner_title(result: Result, names: list[str]) -> str:
    """'Ann wins!' or 'Shared victory: Ann and Bob'."""
    winners = [names[s] for s in result.winners]
    if len(winners) == 1:
        return f"{winners[0]} wins!"
    return f"Shared victory: {join_names(winners)}"


def tie_break_text(result: Result, names: list[str]) -> str:
    """How a tie on points was decided, in plain words ('' when there was no tie)."""
    tb = result.tie_break
    if tb is None:
        return ""
    if tb == "shared":
        return "Tie on points — and every tie-break was level too."
    who = join_names([names[s] for s in result.winners])
    reason = {
        "tickets": "completed more tickets",
        "fewest_stations": "built fewer stations",
        "longest_path": "holds the longest path",
    }.get(tb, f"wins the tie-break ({tb.replace('_', ' ')})")
    return f"Tie on points — {who} {reason}"


def margin_text(result: Result, names: list[str]) -> str:
    """'151 points, 40 ahead of Bob' for a clear win."""
    scores = result.scores
    win = result.winners[0]
    top = scores[win].total
    others = [sc for sc in scores if sc.seat not in result.winners]
    pts = f"{top} point{'s' if abs(top) != 1 else ''}"
    if not others:
        return pts
    second = max(others, key=lambda sc: sc.total)
    if result.tie_break is None:
        return f"{pts}, {top - second.total} ahead of {names[second.seat]}"
    return pts


# ----------------------------------------------------------------------
# The tally lines
@dataclass
class TallyRow:
    """One line of a player's tally."""

    kind: str                     # routes, ticket, longest, stations, other
    label: str
    value: int
    ink: tuple[int, int, int] = style.INK
    ticket: TicketResult | None = None
    short: str = ""               # for narrow columns
    ends: tuple[str, str] = ("", "")  # a ticket's city names


def tally_rows(sc: ScoreBreakdown, routes_claimed: int, city_names: dict[str, str],
               stations_in_play: bool, station_points: int = 4) -> list[TallyRow]:
    """The lines of ``sc`` in reveal order; their values add up to ``sc.total``."""
    plural = "s" if routes_claimed != 1 else ""
    rows = [TallyRow("routes", f"{routes_claimed} route{plural}", sc.parts.get("routes", 0),
                     short=f"{routes_claimed} route{plural}" if routes_claimed < 10 else "Routes")]
    ticket_sum = 0
    for t in sc.tickets:
        ticket_sum += t.value
        a, b = city_names.get(t.a, t.a), city_names.get(t.b, t.b)
        rows.append(TallyRow("ticket", f"{a} {DASH} {b}", t.value,
                             style.GOOD if t.done else style.BAD, t, ends=(a, b)))
    if ticket_sum != sc.parts.get("tickets", 0):  # never expected; keep the sum honest
        rows.append(TallyRow("other", "Tickets (adjusted)", sc.parts.get("tickets", 0) -
                             ticket_sum, short="Tickets"))
    bonus = sc.parts.get("longest_path", 0)
    rows.append(TallyRow("longest", f"Longest path: {sc.longest_path}", bonus,
                         style.GOOD if bonus else style.INK_SOFT,
                         short=f"Longest {sc.longest_path}"))
    if stations_in_play or "stations" in sc.parts:
        pts = sc.parts.get("stations", 0)
        left = pts // station_points if pts and station_points else 0
        rows.append(TallyRow("stations", f"{left} unused station{'s' if left != 1 else ''}",
                             pts, short=f"Stations {left}"))
    for key, value in sc.parts.items():
        if key not in ("routes", "tickets", "longest_path", "stations"):
            rows.append(TallyRow("other", key.replace("_", " ").capitalize(), value))
    return rows


def row_label(row: TallyRow, size: int, width: int, bold: bool = False) -> str:
    """The row's label, shortened to fit ``width`` pixels: ticket city names are cut
    to a few letters each ('Barcel.–Madrid'), other rows use their short label."""
    f = style.font(size, bold)
    if f.size(row.label)[0] <= width:
        return row.label
    if row.kind == "ticket":
        a, b = row.ends
        for k in range(max(len(a), len(b)), 2, -1):
            def cut(name: str) -> str:
                return name if len(name) <= k else name[:k].rstrip() + "."
            label = f"{cut(a)}{DASH}{cut(b)}"
            if f.size(label)[0] <= width:
                return label
        return fit(f"{a[:3]}{DASH}{b[:3]}", size, width, bold)
    return fit(row.short or row.label, size, width, bold)


def fit(string: str, size: int, width: int, bold: bool = False) -> str:
    """``string`` shortened with an ellipsis to fit ``width`` pixels."""
    f = style.font(size, bold)
    if f.size(string)[0] <= width:
        return string
    while string and f.size(string + "…")[0] > width:
        string = string[:-1]
    return string.rstrip() + "…"


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
    raw = max(span, 1) / target
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if step >= raw:
            return step
    return 1000


# ----------------------------------------------------------------------
@dataclass
class Column:
    """Where one player's tally sits on screen (rebuilt on resize)."""

    rect: pygame.Rect
    rows_top: int
    row_rects: list[pygame.Rect] = field(default_factory=list)
    row_surfs: list[pygame.Surface] = field(default_factory=list)
    total_pos: tuple[int, int] = (0, 0)
    total_anchor: str = "topright"
