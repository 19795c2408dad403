"""The scoring screen's chart: every player's score track over the rounds, then the final
jump (tickets and bonuses) that follows the tally as it counts.

The vertical scale covers only what has been shown so far (the game's score track and
the values the tally has revealed), so the chart never gives a final total away early;
the scene builds a new chart when a revealed value leaves the scale.
"""

from __future__ import annotations

import math

import pygame

from ttr_desktop.ui import style
from ttr_desktop.ui.scenes.scoring_parts import Amounts, dashed_line, fit_text, nice_step

GRID = (228, 218, 198)
AXIS = (150, 138, 118)


class ScoreChart:
    """Rendered once per layout and scale; ``draw_finals`` adds the end points each frame."""

    def __init__(self, rect: pygame.Rect, history: list[list[int]], seats: int,
                 rgb: list[tuple[int, int, int]], names: list[str], amounts: Amounts,
                 shown_values: list[float] = (), scale: float = 1.0) -> None:
        self.rect = pygame.Rect(rect)
        self.scale = scale

        def px(value: float) -> int:
            return round(value * scale)

        self.label_size = px(13)
        axis_size = px(12)
        self.n = seats
        self.rgb, self.names, self.history, self.amounts = rgb, names, history, amounts
        surf = pygame.Surface(rect.size, pygame.SRCALPHA)
        local = surf.get_rect()
        # Legend: entries flow left to right, onto more lines when needed.
        self.legend: list[tuple[str, pygame.Rect]] = []
        x, y = local.x + 4, local.y + 2
        row_h = px(18)
        for seat in range(self.n):
            fitted = fit_text(names[seat], self.label_size, max(60, local.width // 3),
                              min_size=11)
            name = style.text(fitted.lines[0], fitted.size, style.INK)
            w = px(20) + name.get_width()
            if x + w > local.right - 4 and x > local.x + 4:
                x, y = local.x + 4, y + row_h
            pygame.draw.line(surf, rgb[seat], (x, y + row_h // 2), (x + px(14), y + row_h // 2),
                             4)
            surf.blit(name, (x + px(20), y + row_h // 2 - name.get_height() // 2))
            self.legend.append((fitted.lines[0], pygame.Rect(x + rect.x, y + rect.y, w, row_h)))
            x += w + px(16)
        legend_h = y + row_h - local.y
        left = style.font(axis_size).size(amounts.total(-8888))[0] + 10
        right = style.font(self.label_size, True).size(amounts.total(-888))[0] + 14
        bottom = style.font(axis_size).get_linesize() + 8
        plot = pygame.Rect(local.x + left, local.y + legend_h + 10, local.width - left - right,
                           local.height - legend_h - 10 - bottom)
        self.plot = plot.move(rect.x, rect.y)
        values = [v for snap in history for v in snap] + [float(v) for v in shown_values]
        lo, hi = min(0, min(values)), max(10, max(values))
        step = nice_step(hi - lo, max(2, plot.height // px(34)))
        self.lo = math.floor(lo / step) * step
        self.hi = math.ceil(hi / step) * step
        if self.hi <= hi:  # leave headroom so the next ticket rarely needs a new scale
            self.hi += step
        turns = max(1, len(history) - 1)
        self.rounds = turns / max(1, seats)
        self.x_final = self.rounds + max(0.8, self.rounds * 0.08)
        lo, hi = self.lo, self.hi

        def to_px(rx: float, v: float) -> tuple[float, float]:
            return (plot.x + plot.width * rx / self.x_final,
                    plot.bottom - plot.height * (v - lo) / max(1, hi - lo))

        v = lo
        while v <= hi:
            _, py = to_px(0, v)
            pygame.draw.line(surf, AXIS if v == 0 else GRID, (plot.x, py), (plot.right, py),
                             2 if v == 0 else 1)
            t = style.text(amounts.total(v), axis_size, style.INK_SOFT)
            surf.blit(t, t.get_rect(midright=(plot.x - 6, py)))
            v += step
        self.axis_labels = [amounts.total(k) for k in range(lo, hi + 1, step)]
        rstep = nice_step(self.rounds, max(2, plot.width // px(80)))
        r = 0
        while r <= self.rounds + 1e-9:
            px, _ = to_px(r, lo)
            pygame.draw.line(surf, AXIS, (px, plot.bottom), (px, plot.bottom + 4))
            t = style.text(str(r), axis_size, style.INK_SOFT)
            surf.blit(t, t.get_rect(midtop=(px, plot.bottom + 5)))
            r += rstep
        fx, _ = to_px(self.x_final, lo)
        pygame.draw.line(surf, GRID, (fx, plot.y), (fx, plot.bottom), 1)
        t = style.text("Final", axis_size, style.INK, True)
        surf.blit(t, t.get_rect(midtop=(fx, plot.bottom + 5)))
        for seat in range(self.n):
            pts = [to_px(i / max(1, seats), snap[seat]) for i, snap in enumerate(history)]
            if len(pts) >= 2:
                pygame.draw.lines(surf, rgb[seat], False, pts, 3)
            elif pts:
                pygame.draw.circle(surf, rgb[seat], pts[0], 3)
        self.surface = surf
        self._to_px = to_px
        self.starts = [self._screen(to_px(self.rounds if len(history) > 1 else 0,
                                          history[-1][seat])) for seat in range(self.n)]

    def _screen(self, p: tuple[float, float]) -> tuple[float, float]:
        return p[0] + self.rect.x, p[1] + self.rect.y

    def covers(self, values) -> bool:
        """True when every value in ``values`` lies on the current scale."""
        return all(self.lo <= v <= self.hi for v in values)

    def end_point(self, value: float) -> tuple[float, float]:
        """Screen position of ``value`` on the Final line."""
        return self._screen(self._to_px(self.x_final, max(self.lo, min(self.hi, value))))

    def end_labels(self, ends: list[float | None]) -> list[tuple[int, str, tuple[float, float]]]:
        """(seat, text, left-middle position) of each end value, pushed apart."""
        items = [[seat, self.end_point(v)[1], v] for seat, v in enumerate(ends) if v is not None]
        items.sort(key=lambda item: item[1])
        gap = style.font(self.label_size, True).get_linesize() - 3
        for k in range(1, len(items)):
            items[k][1] = max(items[k][1], items[k - 1][1] + gap)
        bottom = self.plot.bottom - 4
        if items and items[-1][1] > bottom:
            items[-1][1] = bottom
            for k in range(len(items) - 2, -1, -1):
                items[k][1] = min(items[k][1], items[k + 1][1] - gap)
        x = self.end_point(0)[0] + 8
        return [(seat, self.amounts.total(round(v)), (x, y)) for seat, y, v in items]

    def draw(self, surface: pygame.Surface, ends: list[float | None]) -> None:
        """The chart with the final jump of each seat whose value is not None."""
        surface.blit(self.surface, self.rect)
        for seat, v in enumerate(ends):
            if v is None:
                continue
            a, b = self.starts[seat], self.end_point(v)
            dashed_line(surface, self.rgb[seat], a, b, 3)
            pygame.draw.circle(surface, (30, 24, 18), b, 6)
            pygame.draw.circle(surface, self.rgb[seat], b, 5)
        for seat, text, pos in self.end_labels(ends):
            t = style.text(text, self.label_size, self.rgb[seat], True)
            surface.blit(t, t.get_rect(midleft=pos))
