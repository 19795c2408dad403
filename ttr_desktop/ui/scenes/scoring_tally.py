"""The tally panel's layout: one card per seat, as side-by-side columns when they are wide
enough, otherwise as bands (one per seat, stacked) whose lines flow in sub-columns.

Every tally line is rendered once per layout; a line takes one or two slots (a ticket
whose city names need two lines). Tickets that do not fit share one summary line. The
text of every line is kept (``PlacedRow.texts``) so tests can check that no word is cut.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from ttr_desktop.ui import style
from ttr_desktop.ui.scenes.scoring_parts import (
    CARD_FILL,
    RULE,
    Amounts,
    Fitted,
    TallyRow,
    draw_tick,
    fit_choices,
    fit_text,
    ticket_label,
)

#: Narrowest column (pixels) before the panel switches to bands.
MIN_COLUMN = 150
#: Narrowest sub-column of tally lines inside a band.
MIN_SUBCOLUMN = 200


@dataclass
class PlacedRow:
    """One tally line on screen (several tally rows when it is a summary)."""

    rect: pygame.Rect
    entry: list[int]
    surface: pygame.Surface
    texts: list[str]
    full: list[str]
    shortened: bool
    size: int = 0                 # text size of ``texts``
    bold: bool = False


@dataclass
class SeatBox:
    """One seat's card: header (name, kind, total) and its placed lines."""

    seat: int
    rect: pygame.Rect
    rows_rect: pygame.Rect
    name: Fitted
    name_rect: pygame.Rect
    total_pos: tuple[int, int] = (0, 0)
    total_anchor: str = "topright"
    total_size: int = 30
    badge_pos: tuple[int, int] = (0, 0)
    badge_anchor: str = "topright"
    kind_pos: tuple[int, int] = (0, 0)
    rows: list[PlacedRow] = field(default_factory=list)


def _arrange(slots: list[int], per_col: int, cols: int) -> list[tuple[int, int]] | None:
    """(sub-column, slot) of each entry, top to bottom then left to right; None if they
    do not fit. An entry never straddles two sub-columns."""
    out = []
    c, r = 0, 0
    for s in slots:
        if r + s > per_col:
            c, r = c + 1, 0
        if c >= cols or s > per_col:
            return None
        out.append((c, r))
        r += s
    return out


class TallyLayout:
    """Where every seat's card and tally line sits for one panel rectangle."""

    def __init__(self, panel: pygame.Rect, rows: list[list[TallyRow]], names: list[str],
                 kinds: list[str], rgb: list[tuple[int, int, int]], amounts: Amounts,
                 title: str, info: list[str], scale: float = 1.0) -> None:
        self.panel = pygame.Rect(panel)
        self.scale = scale
        self.rows, self.names, self.kinds, self.rgb = rows, names, kinds, rgb
        self.amounts = amounts
        self.n = len(rows)
        inner = self.panel.inflate(-20, -20)
        self.inner = inner
        self.top = inner.y + self.px(36)
        gap = 8
        col_w = (inner.width - gap * (self.n - 1)) // self.n
        self.mode = "columns" if col_w >= self.px(MIN_COLUMN) else "bands"
        #: Row key -> the wording (index into its choices) every seat's row of that key
        #: starts from: one row reads alike in every column ("Globetrotter: 3" beside
        #: "Globetrotter: 4", never beside "Globetrotter: 4 tickets").
        self.wording: dict[tuple, int] = {}
        self._chosen: dict[tuple, int] = {}
        for _ in range(2):
            if self.mode == "columns":
                self._columns(col_w, gap)
            else:
                self._bands(gap)
            if all(self._chosen.get(k, 0) <= self.wording.get(k, 0) for k in self._chosen):
                break
            self.wording = dict(self._chosen)
        self._render_panel(title, info)

    def px(self, value: float) -> int:
        """``value`` pixels at this layout's scale."""
        return round(value * self.scale)

    # Columns ---------------------------------------------------------------
    def _columns(self, col_w: int, gap: int) -> None:
        inner = self.inner
        px = self.px
        self.wide = col_w >= px(230)
        total_size = px(30)
        total_w = style.font(total_size, True).size(self.amounts.total(888))[0]
        name_w = col_w - 24 - (total_w + 12 if self.wide else 0)
        names = [fit_text(nm, px(18), name_w, True, max_lines=2, min_size=px(14))
                 for nm in self.names]
        name_h = max(len(f.lines) * style.font(f.size, True).get_linesize() for f in names)
        kind_y = 10 + name_h
        self.kind_size = px(13)
        total_h = style.font(total_size, True).get_linesize()
        header_h = kind_y + px(20) + (0 if self.wide else total_h) + 6
        if self.wide:
            header_h = max(header_h, 12 + total_h + px(26))
        self.boxes: list[SeatBox] = []
        bottom = inner.bottom
        for seat in range(self.n):
            rect = pygame.Rect(inner.x + seat * (col_w + gap), self.top, col_w, bottom - self.top)
            rows_rect = pygame.Rect(rect.x + 4, rect.y + header_h + 4, rect.width - 8,
                                    rect.bottom - rect.y - header_h - 10)
            box = SeatBox(seat, rect, rows_rect, names[seat],
                          pygame.Rect(rect.x + 12, rect.y + 10, name_w, name_h))
            box.kind_pos = (rect.x + 12, rect.y + kind_y)
            box.total_size = total_size
            if self.wide:
                box.total_pos, box.total_anchor = (rect.right - 12, rect.y + 10), "topright"
                box.badge_pos, box.badge_anchor = (rect.right - 12, rect.y + 14 + total_h), \
                    "topright"
            else:
                ty = rect.y + kind_y + px(20)
                box.total_pos, box.total_anchor = (rect.x + 12, ty), "topleft"
                box.badge_pos, box.badge_anchor = (rect.right - 10, ty + total_h // 2), \
                    "midright"
            self.boxes.append(box)
        width = self.boxes[0].rows_rect.width
        size = px(15 if width >= px(200) else 14 if width >= px(170) else 13)
        slots = [self._slots(seat, width, size) for seat in range(self.n)]
        most = max(sum(s) for s in slots)
        avail = self.boxes[0].rows_rect.height
        line_h = max(px(18), min(px(26), avail // max(1, most)))
        size = min(size, line_h - 4)
        for box in self.boxes:
            self._place(box, 1, line_h, size)

    # Bands -----------------------------------------------------------------
    def _bands(self, gap: int) -> None:
        inner = self.inner
        px = self.px
        gap = 6
        band_h = (inner.bottom - self.top - gap * (self.n - 1)) // self.n
        head_w = max(px(130), min(px(200), inner.width // 4))
        total_size = px(26)
        total_w = style.font(total_size, True).size(self.amounts.total(888))[0] + 16
        total_h = style.font(total_size, True).get_linesize()
        self.kind_size = px(13)
        two = band_h >= px(70)
        names = [fit_text(nm, px(16), head_w - 26, True, max_lines=2 if two else 1,
                          min_size=px(13)) for nm in self.names]
        self.wide = False
        self.boxes = []
        for seat in range(self.n):
            rect = pygame.Rect(inner.x, self.top + seat * (band_h + gap), inner.width, band_h)
            rows_rect = pygame.Rect(rect.x + head_w, rect.y + 5, rect.width - head_w - total_w,
                                    rect.height - 10)
            f = names[seat]
            name_h = len(f.lines) * style.font(f.size, True).get_linesize()
            box = SeatBox(seat, rect, rows_rect, f,
                          pygame.Rect(rect.x + 16, rect.y + 6, head_w - 26, name_h))
            box.kind_pos = (rect.x + 16, rect.y + 6 + name_h)
            box.total_size = total_size
            box.total_pos, box.total_anchor = (rect.right - 12, rect.y + 6), "topright"
            box.badge_pos, box.badge_anchor = (rect.right - 12, rect.y + 8 + total_h), "topright"
            if band_h < total_h + px(24):
                box.badge_pos, box.badge_anchor = (rect.right - total_w - 4, rect.y + 8), \
                    "topright"
            self.boxes.append(box)
        area = self.boxes[0].rows_rect
        cols = max(1, (area.width + 8) // (px(MIN_SUBCOLUMN) + 8))
        width = (area.width - 8 * (cols - 1)) // cols
        per_col = max(1, area.height // px(19))
        line_h = min(px(24), area.height // per_col)
        size = min(px(15 if width >= px(230) else 14), line_h - 5)
        for box in self.boxes:
            self._place(box, cols, line_h, size)

    # Lines -----------------------------------------------------------------
    def _room(self, width: int, row: TallyRow | None, value: int, size: int) -> tuple[int, int]:
        """(x where the label starts, pixels it may use) on a line of ``width``."""
        icon = row is not None and row.kind == "ticket" and width >= self.px(150)
        x = 4 + (self.px(18) if icon else 0)
        if row is not None and row.kind == "note":   # a note counts nothing: no value
            return x, width - x - 4
        vw = style.font(size + 1, True).size(self.amounts.signed(value))[0]
        return x, width - x - vw - 10

    def _slots(self, seat: int, width: int, size: int) -> list[int]:
        """Slots each tally row of ``seat`` takes (2 for a ticket needing two lines)."""
        out = []
        for row in self.rows[seat]:
            if row.kind == "ticket":
                _, room = self._room(width, row, row.value, size)
                out.append(len(ticket_label(*row.ends, size, room, max_lines=2).lines))
            else:
                out.append(1)
        return out

    def _place(self, box: SeatBox, cols: int, line_h: int, size: int) -> None:
        area = box.rows_rect
        width = (area.width - 8 * (cols - 1)) // cols
        per_col = max(1, area.height // line_h)
        rows = self.rows[box.seat]
        slots = self._slots(box.seat, width, size)
        tickets = [i for i, r in enumerate(rows) if r.kind == "ticket"]
        entries: list[list[int]] = [[i] for i in range(len(rows))]
        sizes = list(slots)
        spots = _arrange(sizes, per_col, cols)
        # Fold trailing tickets into one summary line (a lone one onto one line) until
        # everything fits.
        keep = len(tickets)
        while spots is None and keep > 0:
            keep -= 1
            folded = set(tickets[keep:])
            entries = []
            for i in range(len(rows)):
                if i in folded and entries and entries[-1][0] in folded:
                    entries[-1].append(i)
                else:
                    entries.append([i])
            sizes = [1 if e[0] in folded else slots[e[0]] for e in entries]
            spots = _arrange(sizes, per_col, cols)
        # Last resort: fold trailing lines of any kind.
        while spots is None and len(entries) > 1:
            last = entries.pop()
            sizes.pop()
            entries[-1] = entries[-1] + last
            sizes[-1] = 1
            spots = _arrange(sizes, per_col, cols)
        if spots is None:
            spots = [(0, 0)] * len(entries)
        box.rows = []
        for entry, n_slots, (c, r) in zip(entries, sizes, spots):
            rect = pygame.Rect(area.x + c * (width + 8), area.y + r * line_h, width,
                               n_slots * line_h)
            box.rows.append(self._render_row(box.seat, entry, rect, line_h, size))

    def row_key(self, seat: int, index: int) -> tuple:
        """What a seat's row is across seats: its kind, part and place among that part's
        rows (a seat's second route line matches another's second)."""
        rows = self.rows[seat]
        row = rows[index]
        nth = sum(1 for r in rows[:index] if (r.kind, r.part) == (row.kind, row.part))
        return row.kind, row.part, nth

    def _render_row(self, seat: int, entry: list[int], rect: pygame.Rect, line_h: int,
                    size: int) -> PlacedRow:
        rows = [self.rows[seat][i] for i in entry]
        value = sum(r.value for r in rows)
        surf = pygame.Surface(rect.size, pygame.SRCALPHA)
        single = rows[0] if len(rows) == 1 else None
        x, room = self._room(rect.width, single, value, size)
        bold = False
        ink, vink = style.INK, single.ink if single is not None else style.INK_SOFT
        if single is None:
            tickets = [r for r in rows if r.kind == "ticket"]
            if len(tickets) == len(rows):
                done = sum(1 for r in rows if r.ticket.done)
                choices = (f"{len(rows)} more tickets ({done} done)", f"{len(rows)} more tickets",
                           f"{len(rows)} more")
            else:
                choices = (f"{len(rows)} more lines", f"{len(rows)} more")
            fitted = fit_choices(choices, size, room)
            ink = style.INK_SOFT
            vink = style.GOOD if value > 0 else style.BAD if value < 0 else style.INK_SOFT
            full = [f"{r.full}: {self.amounts.signed(r.value)}" for r in rows]
        elif single.kind == "ticket":
            fitted = ticket_label(*single.ends, size, room, max_lines=max(1, rect.height // line_h))
            full = [f"{single.full}: {self.amounts.signed(single.value)}"]
        else:
            key = self.row_key(seat, entry[0])
            start = min(self.wording.get(key, 0), len(single.choices) - 1)
            fitted = fit_choices(single.choices[start:], size, room, bold)
            fitted.shortened = fitted.shortened or start > 0
            chosen = next((k for k, c in enumerate(single.choices) if [c] == fitted.lines),
                          len(single.choices) - 1)
            self._chosen[key] = max(self._chosen.get(key, 0), chosen)
            if single.kind == "longest" and not single.value:
                vink = style.INK_SOFT
            full = [f"{single.full}: {self.amounts.signed(single.value)}"]
            if single.kind == "note":     # "Gave 10 points away" is not worth "0"
                ink, full = style.INK_SOFT, [single.full]
        # Lines centred as a block; the value and the tick on the first line's middle
        # for one line, on the block's middle for two.
        lh = style.font(fitted.size, bold).get_linesize()
        block = lh * len(fitted.lines)
        y0 = (rect.height - block) // 2
        mid = rect.height // 2
        if single is not None and single.kind == "ticket" and x > 4:
            draw_tick(surf, (x - self.px(11), mid), min(self.px(14), line_h - 4),
                      single.ticket.done)
        if single is None or single.kind != "note":
            vt = style.text(self.amounts.signed(value), size + 1, vink, bold=True)
            surf.blit(vt, vt.get_rect(midright=(rect.width - 4, mid)))
        for k, line in enumerate(fitted.lines):
            t = style.text(line, fitted.size, ink, bold)
            surf.blit(t, t.get_rect(midleft=(x, y0 + k * lh + lh // 2)))
        return PlacedRow(rect, entry, surf, list(fitted.lines), full,
                         fitted.shortened or single is None, fitted.size, bold)

    # The static panel ------------------------------------------------------
    def _render_panel(self, title: str, info: list[str]) -> None:
        panel = self.panel
        m = 8  # room for the shadow
        surf = pygame.Surface((panel.width + 2 * m, panel.height + 2 * m), pygame.SRCALPHA)
        ox, oy = panel.x - m, panel.y - m
        style.panel(surf, panel.move(-ox, -oy), radius=12)
        inner = self.inner.move(-ox, -oy)
        head = style.text(title, self.px(22), style.INK, bold=True)
        surf.blit(head, (inner.x, inner.y - 2))
        room = inner.width - head.get_width() - 16
        self.info_text = ""
        for candidate in info:
            if style.font(self.px(14)).size(candidate)[0] <= room:
                self.info_text = candidate
                break
        t = style.text(self.info_text, self.px(14), style.INK_SOFT)
        surf.blit(t, t.get_rect(bottomright=(inner.right, inner.y - 2 + head.get_height() - 4)))
        for box in self.boxes:
            rect = box.rect.move(-ox, -oy)
            pygame.draw.rect(surf, CARD_FILL, rect, border_radius=9)
            pygame.draw.rect(surf, style.PANEL_EDGE, rect, 1, border_radius=9)
            color = self.rgb[box.seat]
            if self.mode == "columns":
                strip = pygame.Rect(rect.x, rect.y, rect.width, 7)
                pygame.draw.rect(surf, color, strip, border_top_left_radius=9,
                                 border_top_right_radius=9)
                y = box.rows_rect.y - 4 - oy
                pygame.draw.line(surf, RULE, (rect.x + 8, y), (rect.right - 8, y))
            else:
                strip = pygame.Rect(rect.x, rect.y, 7, rect.height)
                pygame.draw.rect(surf, color, strip, border_top_left_radius=9,
                                 border_bottom_left_radius=9)
                x = box.rows_rect.x - 6 - ox
                pygame.draw.line(surf, RULE, (x, rect.y + 8), (x, rect.bottom - 8))
            f = box.name
            lh = style.font(f.size, True).get_linesize()
            for k, line in enumerate(f.lines):
                surf.blit(style.text(line, f.size, style.INK, True),
                          (box.name_rect.x - ox, box.name_rect.y - oy + k * lh))
            kx, ky = box.kind_pos
            kind = fit_text(self.kinds[box.seat], self.kind_size, box.name_rect.width)
            surf.blit(style.text(kind.lines[0], kind.size, style.INK_SOFT), (kx - ox, ky - oy))
        self.surface = surf
        self.pos = (ox, oy)

    # Queries ---------------------------------------------------------------
    def seat_at(self, pos) -> int | None:
        """The seat whose card is under ``pos``."""
        for box in self.boxes:
            if box.rect.collidepoint(pos):
                return box.seat
        return None

    def row_at(self, pos) -> tuple[int, int] | None:
        """(seat, placed line index) under ``pos``."""
        for box in self.boxes:
            if box.rect.collidepoint(pos):
                for k, row in enumerate(box.rows):
                    if row.rect.collidepoint(pos):
                        return box.seat, k
        return None
