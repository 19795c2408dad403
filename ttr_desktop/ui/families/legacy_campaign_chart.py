"""The campaign standings drawn with pygame: the vaults game by game as a table, and each
company's vault over the games as a line chart."""

from __future__ import annotations

import pygame

from ttr_desktop.campaign import Campaign
from ttr_desktop.ui import style

#: Company colour -> line colour (black and yellow stay readable on paper).
LINE_RGB = dict(style.PLAYER_COLORS)


def company_rgb(colour: str) -> tuple[int, int, int]:
    """The colour a company is drawn in."""
    return LINE_RGB.get(colour, style.INK)


def table_rows(campaign: Campaign) -> list[tuple[str, str, list[str], str]]:
    """Per company: (colour, player, one cell per game played, vault)."""
    rows = []
    for colour, slips, total in campaign.standings():
        cells = ["missed" if s is None else f"${s}" for s in slips]
        rows.append((colour, campaign.company(colour).player, cells, f"${total}"))
    return rows


def draw_table(surface: pygame.Surface, rect: pygame.Rect, campaign: Campaign,
               size: int = 16) -> pygame.Rect:
    """The standings table inside ``rect``; returns the rect it used."""
    rows = table_rows(campaign)
    n_games = campaign.length
    name_w = min(260, max(140, rect.w // 4))
    vault_w = 78
    cell_w = max(34, (rect.w - name_w - vault_w) // max(1, n_games))
    row_h = size + 14
    x0, y = rect.x, rect.y
    head = style.text("Company", size - 2, style.INK_SOFT, bold=True)
    surface.blit(head, (x0 + 6, y + 4))
    for k in range(n_games):
        cx = x0 + name_w + k * cell_w + cell_w // 2
        t = style.text(str(k + 1), size - 2, style.INK_SOFT, bold=True)
        surface.blit(t, (cx - t.get_width() // 2, y + 4))
    vt = style.text("Vault", size - 2, style.INK, bold=True)
    surface.blit(vt, (x0 + name_w + n_games * cell_w + vault_w - 8 - vt.get_width(), y + 4))
    y += row_h
    pygame.draw.line(surface, style.PANEL_EDGE, (x0, y - 3),
                     (x0 + name_w + n_games * cell_w + vault_w, y - 3))
    leader = campaign.ranking()[0] if campaign.games else None
    for i, (colour, player, cells, vault) in enumerate(rows):
        if i % 2:
            band = pygame.Rect(x0, y - 2, name_w + n_games * cell_w + vault_w, row_h)
            pygame.draw.rect(surface, (244, 236, 218), band, border_radius=6)
        rgb = company_rgb(colour)
        pygame.draw.circle(surface, rgb, (x0 + 14, y + row_h // 2 - 2), 8)
        pygame.draw.circle(surface, style.INK, (x0 + 14, y + row_h // 2 - 2), 8, 1)
        label = player
        room = name_w - 34 - (62 if colour == campaign.caboose else 0)
        while style.font(size).size(label)[0] > room and len(label) > 3:
            label = label[:-2] + "…" if not label.endswith("…") else label[:-3] + "…"
        surface.blit(style.text(label, size, style.INK), (x0 + 28, y + 2))
        if colour == campaign.caboose:
            tag = style.text("caboose", size - 4, style.ACCENT, bold=True)
            tx = min(x0 + 28 + style.font(size).size(label)[0] + 8, x0 + name_w - tag.get_width())
            surface.blit(tag, (tx, y + 5))
        for k, cell in enumerate(cells):
            cx = x0 + name_w + k * cell_w + cell_w // 2
            missed = cell == "missed"
            t = style.text("—" if missed else cell, size - 2,
                           style.INK_SOFT if missed else style.INK)
            surface.blit(t, (cx - t.get_width() // 2, y + 4))
        bold = colour == leader
        t = style.text(vault, size, style.GOOD if bold else style.INK, bold=True)
        surface.blit(t, (x0 + name_w + n_games * cell_w + vault_w - 8 - t.get_width(), y + 2))
        y += row_h
    return pygame.Rect(rect.x, rect.y, name_w + n_games * cell_w + vault_w, y - rect.y)


def nice_step(top: int) -> int:
    """A round step for the chart's dollar lines."""
    for step in (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if top / step <= 6:
            return step
    return 2000


def draw_chart(surface: pygame.Surface, rect: pygame.Rect, campaign: Campaign,
               size: int = 14) -> None:
    """Each company's vault after every game, as lines from $0 before game 1."""
    totals = campaign.running_totals()
    top = max([50] + [v for row in totals.values() for v in row])
    step = nice_step(max(top, 10))
    top = max(step, -(-top // step) * step)
    left, bottom = rect.x + 52, rect.bottom - 26
    right, upper = rect.right - 70, rect.y + 10
    w, h = right - left, bottom - upper
    n = campaign.length

    def at(game: int, value: int) -> tuple[int, int]:
        return (left + round(w * game / n), bottom - round(h * value / top))

    for v in range(0, top + 1, step):
        y = at(0, v)[1]
        pygame.draw.line(surface, (226, 214, 188), (left, y), (right, y))
        t = style.text(f"${v}", size - 1, style.INK_SOFT)
        surface.blit(t, (left - 6 - t.get_width(), y - t.get_height() // 2))
    for g in range(0, n + 1):
        x = at(g, 0)[0]
        pygame.draw.line(surface, style.PANEL_EDGE, (x, bottom), (x, bottom + 4))
        if g:
            t = style.text(str(g), size - 1, style.INK_SOFT)
            surface.blit(t, (x - t.get_width() // 2, bottom + 6))
    pygame.draw.line(surface, style.INK_SOFT, (left, bottom), (right, bottom), 2)
    pygame.draw.line(surface, style.INK_SOFT, (left, upper), (left, bottom), 2)
    ends: list[tuple[int, str, int]] = []
    for colour, row in totals.items():
        rgb = company_rgb(colour)
        points = [at(0, 0)] + [at(k + 1, v) for k, v in enumerate(row)]
        if len(points) > 1:
            pygame.draw.lines(surface, style.INK, False, [(x, y + 1) for x, y in points], 5)
            pygame.draw.lines(surface, rgb, False, points, 3)
        for p in points[1:]:
            pygame.draw.circle(surface, style.INK, p, 5)
            pygame.draw.circle(surface, rgb, p, 4)
        if row:
            ends.append((points[-1][1], colour, row[-1]))
    # Final values at the right end of each line, nudged apart so none overlap.
    ends.sort()
    last_y = -999
    x = at(len(campaign.games), 0)[0] + 10
    for y, colour, value in ends:
        y = max(y, last_y + size + 2)
        last_y = y
        t = style.text(f"${value}", size, company_rgb(colour), bold=True)
        surface.blit(t, (x, y - t.get_height() // 2))
