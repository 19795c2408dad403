"""After-game statistics: tickets done and failed, routes by length, cards drawn, trains
placed and points per train, per seat; and the table that shows them.

Computed from the public engine surface only: the final scores, the final route owners
and a replay of ``game.log`` from the seed (the seat of each action is the replay's
``current_seat`` before it is applied).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from ttr_desktop.rules import IllegalAction, new_game
from ttr_desktop.rules.scoring import ScoreBreakdown
from ttr_desktop.rules.words import plural
from ttr_desktop.ui import style
from ttr_desktop.ui.scenes.scoring_parts import Amounts, fit_text
from ttr_desktop.ui.scenes.scoring_words import MEASURE_WORDS, readable

#: Bonus measures the Tickets columns already show.
TICKET_MEASURES = frozenset({"completed_tickets", "durham_most"})


@dataclass
class SeatStats:
    """One seat's numbers after the game."""

    seat: int
    total: int
    tickets_done: int
    tickets_failed: int
    routes_by_length: dict[int, int]
    trains: int                      # trains placed on claimed routes
    blind: int | None = None         # cards drawn from the deck (None: log unreadable)
    face_up: int | None = None       # face-up cards taken
    face_up_locomotives: int | None = None
    ticket_draws: int | None = None
    kinds: dict[str, int] = field(default_factory=dict)   # every action kind, counted
    #: What the end bonuses were decided on (measure -> value: coal held, longest path in
    #: trains...) and Märklin's merchandise points.
    measures: dict[str, int] = field(default_factory=dict)

    @property
    def routes(self) -> int:
        """Routes claimed."""
        return sum(self.routes_by_length.values())

    @property
    def per_train(self) -> float | None:
        """Final score per train placed (None with no train placed)."""
        return self.total / self.trains if self.trains else None


def count_actions(game) -> list[dict[str, int]] | None:
    """Per seat, how many actions of each kind it took (face-up locomotives counted as
    'draw_face_up:locomotive' too); None when the log cannot be replayed."""
    try:
        replay = new_game(game.variant, list(game.players), seed=game.seed,
                          options=dict(game.options))
        counts: list[dict[str, int]] = [{} for _ in game.players]
        for action in game.log:
            seat = replay.current_seat
            kind = action.kind
            counts[seat][kind] = counts[seat].get(kind, 0) + 1
            if kind == "draw_face_up" and getattr(action, "card", "") == "locomotive":
                key = "draw_face_up:locomotive"
                counts[seat][key] = counts[seat].get(key, 0) + 1
            replay.apply(action)
        return counts
    except (IllegalAction, ValueError, LookupError, AttributeError, TypeError):
        # An engine that cannot replay its own log: show what is known.
        return None


def game_stats(game, scores: list[ScoreBreakdown], owners: dict[str, int]) -> list[SeatStats]:
    """The statistics of every seat of the finished ``game``."""
    routes = game.map.routes
    counts = count_actions(game)
    out = []
    for sc in scores:
        by_length: dict[int, int] = {}
        trains = 0
        for rid, owner in owners.items():
            if owner == sc.seat:
                length = routes[rid].length
                by_length[length] = by_length.get(length, 0) + 1
                trains += length
        done = sum(1 for t in sc.tickets if t.done)
        stats = SeatStats(sc.seat, sc.total, done, len(sc.tickets) - done, by_length, trains)
        for measure, value in sc.measures.values():
            if measure not in TICKET_MEASURES:   # the Tickets columns already count them
                stats.measures[measure] = value
        if "merchandise" in sc.parts:
            stats.measures["merchandise"] = sc.parts["merchandise"]
        if counts is not None:
            c = counts[sc.seat]
            stats.kinds = dict(c)
            stats.blind = c.get("draw_blind", 0)
            stats.face_up = c.get("draw_face_up", 0)
            stats.face_up_locomotives = c.get("draw_face_up:locomotive", 0)
            stats.ticket_draws = c.get("draw_tickets", 0)
        out.append(stats)
    return out


# ----------------------------------------------------------------------
# The table
@dataclass
class Cell:
    """One table cell as drawn."""

    text: str
    rect: pygame.Rect
    ink: tuple[int, int, int] = style.INK
    bold: bool = False
    tip: str = ""
    size: int = 0


class StatsTable:
    """The statistics as a table fitted into ``rect``: a row per seat, column groups
    Tickets (done, failed), Routes by length, Trains, Cards drawn (deck, face-up) and
    points per train. Fonts shrink until it fits; header tooltips say what each means."""

    def __init__(self, rect: pygame.Rect, stats: list[SeatStats], names: list[str],
                 rgb: list[tuple[int, int, int]], amounts: Amounts, lengths: list[int],
                 scale: float = 1.0) -> None:
        self.rect = pygame.Rect(rect)
        self.stats, self.names, self.rgb, self.amounts = stats, names, rgb, amounts
        self.lengths = lengths
        self.note = "Face-up: locomotives in brackets. Point at a heading for more."
        # Routes by length, one column each, while they fit; else one Routes column.
        self.compact = False
        for size in range(round(15 * scale), 11, -1):
            if self._build(size, last=False):
                return
        self.compact = True
        for size in range(round(15 * scale), 10, -1):
            if self._build(size):
                break

    def _columns(self) -> list[tuple[str, str, str, list[tuple[str, tuple]]]]:
        """(group, header, tooltip, cells) per column; a cell is (text, ink)."""
        if self.compact:
            return self._compact_columns()
        return self._full_columns()

    def _compact_columns(self) -> list[tuple[str, str, str, list[tuple[str, tuple]]]]:
        """The columns with the routes counted in one column."""
        cols = self._full_columns()
        first = next(k for k, c in enumerate(cols) if c[0] == "Routes by length")
        rest = [c for c in cols if c[0] != "Routes by length"]
        lengths = ", ".join(str(n) for n in self.lengths)
        rest.insert(first, ("", "Routes", f"Routes claimed (of {lengths} trains)",
                            [(str(s.routes), style.INK) for s in self.stats]))
        return rest

    def _full_columns(self) -> list[tuple[str, str, str, list[tuple[str, tuple]]]]:
        """Every column, routes by length one column each."""
        cols = []
        soft = style.INK_SOFT
        cols.append(("Tickets", "done", "Tickets completed",
                     [(str(s.tickets_done), style.GOOD if s.tickets_done else soft)
                      for s in self.stats]))
        cols.append(("Tickets", "failed", "Tickets not completed (their points are lost)",
                     [(str(s.tickets_failed), style.BAD if s.tickets_failed else soft)
                      for s in self.stats]))
        for length in self.lengths:
            cols.append(("Routes by length", str(length),
                         f"Routes of {plural(length, 'train')} claimed",
                         [(str(s.routes_by_length.get(length, 0)) if
                           s.routes_by_length.get(length) else "·",
                           style.INK if s.routes_by_length.get(length) else soft)
                          for s in self.stats]))
        for measure in dict.fromkeys(m for s in self.stats for m in s.measures):
            header, tip, _ = MEASURE_WORDS.get(measure, (readable(measure), readable(measure),
                                                         ""))
            cols.append(("", header, tip + " (decides an end bonus)"
                         if measure != "merchandise" else tip,
                         [(str(s.measures.get(measure, 0)), style.INK) for s in self.stats]))
        cols.append(("", "Trains", "Trains placed on the board",
                     [(str(s.trains), style.INK) for s in self.stats]))
        cols.append(("Cards drawn", "deck", "Train cards drawn blind from the deck",
                     [(str(s.blind) if s.blind is not None else "–", style.INK)
                      for s in self.stats]))
        cols.append(("Cards drawn", "face-up",
                     "Face-up train cards taken (locomotives in brackets)",
                     [(self._face_up(s), style.INK) for s in self.stats]))
        unit = "$" if self.amounts.dollars else "Points"
        cols.append(("", f"{unit}/train",
                     f"{self.amounts.what} per train placed: final total ÷ trains",
                     [(self.amounts.per_train(s.per_train) if s.per_train is not None
                       else "–", style.INK) for s in self.stats]))
        return cols

    @staticmethod
    def _face_up(s: SeatStats) -> str:
        if s.face_up is None:
            return "–"
        if s.face_up_locomotives:
            return f"{s.face_up} ({s.face_up_locomotives})"
        return str(s.face_up)

    def _build(self, size: int, last: bool = True) -> bool:
        """Lay out at text ``size``; False when it does not fit (at size 11 with ``last``,
        laid out anyway)."""
        rect = self.rect
        f, fb = style.font(size), style.font(size, True)
        small = max(11, size - 2)
        fs = style.font(small)
        cols = self._columns()
        pad = 5
        widths = [max(fs.size(h)[0], max(f.size(c[0])[0] for c in cells)) + 2 * pad
                  for _, h, _, cells in cols]
        # A group's heading must fit over its columns: widen them evenly when it does not.
        fsb = style.font(small, True)
        for group in dict.fromkeys(g for g, _, _, _ in cols if g):
            members = [k for k, c in enumerate(cols) if c[0] == group]
            short = fsb.size(group)[0] + 2 * pad - sum(widths[k] for k in members)
            for j, k in enumerate(members):
                widths[k] += max(0, short) // len(members) + (1 if j < max(0, short) %
                                                               len(members) else 0)
        name_w = max(fb.size(nm)[0] for nm in self.names) + 18 + pad
        name_w = min(name_w, max(90, rect.width // 4))
        line = max(f.get_linesize(), small + 6)
        head_h = 2 * (fs.get_linesize())
        self.note_h = fs.get_linesize() + 4
        avail_h = rect.height - head_h - self.note_h - 4
        row_h = max(line + 2, min(round(line * 1.6), avail_h // max(1, len(self.stats))))
        note_w = fs.size(self.note)[0]
        too_big = name_w + sum(widths) > rect.width or row_h * len(self.stats) > avail_h or \
            note_w > rect.width
        if too_big and (size > 11 or not last):
            return False
        # Spread the spare width over the gaps.
        spare = max(0, rect.width - name_w - sum(widths))
        extra = spare // (len(widths) + 1)
        widths = [w + extra for w in widths]
        self.size, self.row_h = size, row_h
        self.cells: list[Cell] = []
        self.headers: list[Cell] = []
        self.groups: list[Cell] = []
        x = rect.x + name_w + extra
        y_group, y_head = rect.y, rect.y + fs.get_linesize()
        top = rect.y + head_h + 2
        group_start: dict[str, int] = {}
        for (group, header, tip, cells), w in zip(cols, widths):
            self.headers.append(Cell(header, pygame.Rect(x, y_head, w, fs.get_linesize()),
                                     style.INK_SOFT, tip=tip, size=small))
            if group:
                if group not in group_start:
                    group_start[group] = x
                    self.groups.append(Cell(group, pygame.Rect(x, y_group, w,
                                                               fs.get_linesize()),
                                            style.INK, True, size=small))
                else:
                    g = self.groups[-1]
                    g.rect.width = x + w - g.rect.x
            for seat, (text, ink) in enumerate(cells):
                self.cells.append(Cell(text, pygame.Rect(x, top + seat * row_h, w, row_h), ink))
            x += w
        self.name_cells: list[Cell] = []
        for seat, name in enumerate(self.names):
            fitted = fit_text(name, size, name_w - 18 - pad, True, min_size=11)
            self.name_cells.append(Cell(fitted.lines[0], pygame.Rect(
                rect.x, top + seat * row_h, name_w, row_h), style.INK, True,
                tip=name if fitted.shortened else "", size=fitted.size))
        self.bottom = top + row_h * len(self.stats)
        return True

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the table (no state changes)."""
        size = self.size
        small = max(11, size - 2)
        rule = (228, 218, 198)
        for seat in range(len(self.stats)):
            cell = self.name_cells[seat]
            if seat % 2 == 0:
                band = pygame.Rect(self.rect.x, cell.rect.y, self.rect.width, self.row_h)
                pygame.draw.rect(surface, (244, 236, 218), band, border_radius=5)
        for g in self.groups:
            t = style.text(g.text, small, style.INK, True)
            surface.blit(t, t.get_rect(midbottom=(g.rect.centerx, g.rect.bottom)))
            pygame.draw.line(surface, rule, (g.rect.x + 6, g.rect.bottom + 1),
                             (g.rect.right - 6, g.rect.bottom + 1))
        for h in self.headers:
            t = style.text(h.text, small, h.ink)
            surface.blit(t, t.get_rect(midtop=(h.rect.centerx, h.rect.y + 2)))
        for cell in self.cells:
            t = style.text(cell.text, size, cell.ink, cell.bold)
            surface.blit(t, t.get_rect(center=cell.rect.center))
        t = style.text(self.note, small, style.INK_SOFT)
        surface.blit(t, (self.rect.x + 4, self.bottom + 6))
        for seat, cell in enumerate(self.name_cells):
            r = cell.rect
            pygame.draw.circle(surface, (30, 24, 18), (r.x + 8, r.centery + 1), 6)
            pygame.draw.circle(surface, self.rgb[seat], (r.x + 8, r.centery), 5)
            t = style.text(cell.text, cell.size, style.INK, True)
            surface.blit(t, t.get_rect(midleft=(r.x + 18, r.centery)))

    def tip_at(self, pos) -> str:
        """The tooltip under ``pos`` ('' for none)."""
        for cell in self.headers + self.name_cells:
            if cell.tip and cell.rect.collidepoint(pos):
                return cell.tip
        return ""

    def texts(self) -> list[str]:
        """Every text the table shows (tests)."""
        return [c.text for c in self.groups + self.headers + self.name_cells + self.cells] + \
            [self.note]
