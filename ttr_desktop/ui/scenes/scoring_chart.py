"""The scoring screen's chart: every player's score track over the turns, then the final
jump (tickets and bonuses) drawn dashed once that player's tally is complete."""

from __future__ import annotations

import math

import pygame

from ttr_desktop.ui import style
from ttr_desktop.ui.scenes.scoring_parts import dashed_line, fit, nice_step, number


class ScoreChart:
    """Rendered once per layout; ``draw_finals`` adds the end points each frame."""

    def __init__(self, rect: pygame.Rect, history: list[list[int]], finals: list[int],
                 rgb: list[tuple[int, int, int]], names: list[str]) -> None:
        self.n = len(finals)
        self.rgb, self.names, self.history = rgb, names, history
        surf = pygame.Surface(rect.size, pygame.SRCALPHA)
        style.panel(surf, surf.get_rect().inflate(-8, -8).move(0, -3), radius=12, shadow=False)
        local = surf.get_rect().inflate(-8, -8).move(0, -3)
        surf.blit(style.text("Score after each turn", 15, style.INK, True), (local.x + 14,
                                                                         local.y + 8))
        # Legend, right-aligned on the title line.
        x = local.right - 14
        for seat in reversed(range(self.n)):
            name = style.text(fit(self.names[seat], 13, 120), 13, style.INK)
            x -= name.get_width()
            surf.blit(name, (x, local.y + 10))
            x -= 22
            pygame.draw.line(surf, self.rgb[seat], (x + 2, local.y + 19), (x + 16, local.y + 19), 4)
            x -= 14
        plot = pygame.Rect(local.x + 46, local.y + 34, local.width - 46 - 58,
                           local.height - 34 - 26)
        values = [v for snap in self.history for v in snap] + finals
        lo, hi = min(0, min(values)), max(10, max(values))
        step = nice_step(hi - lo, max(2, plot.height // 34))
        lo = math.floor(lo / step) * step
        hi = math.ceil(hi / step) * step
        turns = max(1, len(self.history) - 1)
        x_final = turns + max(3.0, turns * 0.07)

        def to_px(tx: float, v: float) -> tuple[float, float]:
            return (plot.x + plot.width * tx / x_final,
                    plot.bottom - plot.height * (v - lo) / max(1, hi - lo))

        grid = (228, 218, 198)
        v = lo
        while v <= hi:
            _, y = to_px(0, v)
            pygame.draw.line(surf, (150, 138, 118) if v == 0 else grid, (plot.x, y),
                             (plot.right, y), 2 if v == 0 else 1)
            t = style.text(number(v), 12, style.INK_SOFT)
            surf.blit(t, t.get_rect(midright=(plot.x - 6, y)))
            v += step
        tstep = nice_step(turns, max(2, plot.width // 90))
        tx = 0
        while tx <= turns:
            px, _ = to_px(tx, lo)
            pygame.draw.line(surf, (150, 138, 118), (px, plot.bottom), (px, plot.bottom + 4))
            t = style.text(str(tx), 12, style.INK_SOFT)
            surf.blit(t, t.get_rect(midtop=(px, plot.bottom + 5)))
            tx += tstep
        fx, _ = to_px(x_final, lo)
        pygame.draw.line(surf, grid, (fx, plot.y), (fx, plot.bottom), 1)
        t = style.text("Final", 12, style.INK, True)
        surf.blit(t, t.get_rect(midtop=(fx, plot.bottom + 5)))
        for seat in range(self.n):
            pts = [to_px(i, snap[seat]) for i, snap in enumerate(self.history)]
            if len(pts) >= 2:
                pygame.draw.lines(surf, self.rgb[seat], False, pts, 3)
            elif pts:
                pygame.draw.circle(surf, self.rgb[seat], pts[0], 3)
        self.surface = surf
        # The final jumps (drawn once a player's tally is complete), in screen pixels.
        self.final_segments = []
        labels = []
        for seat in range(self.n):
            a = to_px(turns if len(self.history) > 1 else 0, self.history[-1][seat])
            b = to_px(x_final, finals[seat])
            a = (a[0] + rect.x, a[1] + rect.y)
            b = (b[0] + rect.x, b[1] + rect.y)
            self.final_segments.append((a, b))
            labels.append([seat, b[1]])
        # Final labels right of the end points, pushed apart so they never overlap.
        labels.sort(key=lambda item: item[1])
        for k in range(1, len(labels)):
            labels[k][1] = max(labels[k][1], labels[k - 1][1] + 15)
        bottom = rect.y + plot.bottom - 4
        if labels and labels[-1][1] > bottom:
            labels[-1][1] = bottom
            for k in range(len(labels) - 2, -1, -1):
                labels[k][1] = min(labels[k][1], labels[k + 1][1] - 15)
        self.final_labels = {}
        for seat, y in labels:
            bx = self.final_segments[seat][1][0]
            self.final_labels[seat] = (style.text(number(finals[seat]), 13, self.rgb[seat], True),
                                       (bx + 8, y))

    def draw_finals(self, surface: pygame.Surface, complete: list[bool]) -> None:
        """The dashed final jump and end value of each player whose tally is complete."""
        for seat in range(self.n):
            if not complete[seat]:
                continue
            a, b = self.final_segments[seat]
            dashed_line(surface, self.rgb[seat], a, b, 3)
            pygame.draw.circle(surface, (30, 24, 18), b, 6)
            pygame.draw.circle(surface, self.rgb[seat], b, 5)
            label, (x, y) = self.final_labels[seat]
            surface.blit(label, label.get_rect(midleft=(x, y)))
