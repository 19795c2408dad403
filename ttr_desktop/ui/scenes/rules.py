"""The rules summary: assets/rules.md typeset on a scrollable page with a table of contents.

The file uses a small Markdown subset: ``#``/``##``/``###`` headings, paragraphs,
``- `` bullets, ``| a | b |`` tables (the first row is the header), ``**bold**``
and ```Key``` (drawn as a key cap).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pygame

from ttr_desktop.resources import resource_path
from ttr_desktop.ui import style
from ttr_desktop.ui.scenes.common import GuiScene

if TYPE_CHECKING:
    from ttr_desktop.ui.app import App

BODY, LINE = 18, 28
_INLINE = re.compile(r"(\*\*.+?\*\*|`[^`]+`)")


@dataclass
class Block:
    """One piece of the document: a heading, paragraph, bullet or table."""

    kind: str                      # title, h2, h3, para, bullet, table
    text: str = ""
    rows: list[list[str]] = field(default_factory=list)


def parse_rules(source: str) -> list[Block]:
    """Blocks from the Markdown subset (unknown syntax is kept as plain text)."""
    blocks: list[Block] = []
    para: list[str] = []

    def flush() -> None:
        if para:
            blocks.append(Block("para", " ".join(para)))
            para.clear()

    for raw in source.splitlines():
        line = raw.strip()
        if not line:
            flush()
            continue
        if line.startswith("|"):
            flush()
            cells = [c.strip() for c in line.strip("|").split("|")]
            if all(re.fullmatch(r":?-+:?", c) for c in cells):
                continue
            if not blocks or blocks[-1].kind != "table":
                blocks.append(Block("table"))
            blocks[-1].rows.append(cells)
            continue
        heading = re.match(r"^(#{1,3})\s+(.*)$", line)
        if heading:
            flush()
            kind = {1: "title", 2: "h2", 3: "h3"}[len(heading.group(1))]
            blocks.append(Block(kind, heading.group(2)))
        elif line.startswith(("- ", "* ")):
            flush()
            blocks.append(Block("bullet", line[2:].strip()))
        elif blocks and blocks[-1].kind == "bullet" and not para and raw.startswith("  "):
            blocks[-1].text += " " + line          # a bullet continued on the next line
        else:
            para.append(line)
    flush()
    return blocks


# Typesetting -------------------------------------------------------------------
def _tokens(text: str) -> list[tuple[str, str]]:
    """(kind, text) pieces: 'word', 'bold' words and 'key' caps."""
    out: list[tuple[str, str]] = []
    for part in _INLINE.split(text):
        if not part:
            continue
        if part.startswith("**") and part.endswith("**"):
            out.extend(("bold", w) for w in part[2:-2].split())
        elif part.startswith("`") and part.endswith("`"):
            out.append(("key", part[1:-1]))
        else:
            # Punctuation right after a bold word or key stays attached to it.
            if out and not part[0].isspace():
                kind, last = out[-1]
                first, *rest = part.split(" ", 1)
                if first and kind != "key":
                    out[-1] = (kind, last + first)
                    part = rest[0] if rest else ""
                elif first:
                    out.append(("word", first))
                    part = rest[0] if rest else ""
            out.extend(("word", w) for w in part.split())
    return out


def key_cap(label: str, size: int = 15) -> pygame.Surface:
    """A keyboard key with ``label`` on it."""
    t = style.text(label, size, style.INK, bold=True)
    w, h = t.get_width() + 16, t.get_height() + 6
    surf = pygame.Surface((w, h + 3), pygame.SRCALPHA)
    pygame.draw.rect(surf, style.PANEL_EDGE, (0, 3, w, h), border_radius=6)
    pygame.draw.rect(surf, (255, 252, 244), (0, 0, w, h), border_radius=6)
    pygame.draw.rect(surf, style.INK_SOFT, (0, 0, w, h), 1, border_radius=6)
    surf.blit(t, (8, 3))
    return surf


def _render_token(kind: str, text: str, size: int, color) -> pygame.Surface:
    if kind == "key":
        return key_cap(text, size - 3)
    return style.text(text, size, color, bold=kind == "bold")


def typeset(text: str, width: int, size: int = BODY, color=style.INK, line: int = LINE,
            bold: bool = False) -> tuple[list[tuple[pygame.Surface, tuple[int, int]]], int]:
    """Place the words of ``text`` in lines of ``width``; returns (pieces, height)."""
    space = style.font(size).size(" ")[0]
    pieces: list[tuple[pygame.Surface, tuple[int, int]]] = []
    x = y = 0
    for kind, word in _tokens(text):
        if bold and kind == "word":
            kind = "bold"
        surf = _render_token(kind, word, size, color)
        if x and x + surf.get_width() > width:
            x, y = 0, y + line
        dy = (line - surf.get_height()) // 2 - (1 if kind == "key" else 0)
        pieces.append((surf, (x, y + dy)))
        x += surf.get_width() + space + (2 if kind == "key" else 0)
    return pieces, (y + line if pieces else 0)


def render_document(blocks: list[Block], width: int
                    ) -> tuple[pygame.Surface, list[tuple[str, int]]]:
    """The whole document on one tall transparent surface, and the y of each ``##`` heading."""
    ops: list[tuple[pygame.Surface, tuple[int, int]]] = []
    rects: list[tuple[tuple[int, int, int], pygame.Rect, int]] = []   # colour, rect, width
    anchors: list[tuple[str, int]] = []
    y = 0
    prev = ""
    for b in blocks:
        if b.kind == "title":
            pieces, h = typeset(b.text, width, 38, style.INK, 52, bold=True)
            ops += [(s, (x, y + yy)) for s, (x, yy) in pieces]
            y += h + 8
        elif b.kind == "h2":
            y += 30 if prev else 0
            anchors.append((b.text, y))
            rects.append((style.ACCENT, pygame.Rect(0, y + 6, 6, 28), 0))
            pieces, h = typeset(b.text, width - 20, 26, style.INK, 40, bold=True)
            ops += [(s, (20 + x, y + yy)) for s, (x, yy) in pieces]
            y += h
            rects.append((style.PANEL_EDGE, pygame.Rect(0, y + 2, width, 1), 0))
            y += 14
        elif b.kind == "h3":
            y += 14
            pieces, h = typeset(b.text, width, 21, style.INK, 32, bold=True)
            ops += [(s, (x, y + yy)) for s, (x, yy) in pieces]
            y += h + 4
        elif b.kind == "para":
            y += 6 if prev in ("para", "bullet", "table") else 0
            pieces, h = typeset(b.text, width, BODY, style.INK)
            ops += [(s, (x, y + yy)) for s, (x, yy) in pieces]
            y += h + 6
        elif b.kind == "bullet":
            dot = pygame.Surface((10, 10), pygame.SRCALPHA)
            pygame.draw.circle(dot, style.ACCENT, (5, 5), 3.6)
            ops.append((dot, (8, y + LINE // 2 - 5)))
            pieces, h = typeset(b.text, width - 30, BODY, style.INK)
            ops += [(s, (30 + x, y + yy)) for s, (x, yy) in pieces]
            y += h + 8
        elif b.kind == "table":
            y += 8
            y = _table(b.rows, width, y, ops, rects) + 12
        prev = b.kind
    surf = pygame.Surface((width, y + 40), pygame.SRCALPHA)
    for color, rect, w in rects:
        pygame.draw.rect(surf, color, rect, w, border_radius=3 if rect.h > 2 else 0)
    for s, pos in ops:
        surf.blit(s, pos)
    return surf, anchors


def _table(rows: list[list[str]], width: int, y: int, ops: list, rects: list) -> int:
    """Lay out a table at ``y``; the last column wraps when space is short."""
    ncol = max(len(r) for r in rows)
    rows = [r + [""] * (ncol - len(r)) for r in rows]
    pad = 14

    def natural(cell: str, bold: bool) -> int:
        pieces, _ = typeset(cell, 10_000, BODY - 1, bold=bold)
        return max((p[1][0] + p[0].get_width() for p in pieces), default=0)

    widths = [max(natural(r[c], i == 0) for i, r in enumerate(rows)) + 2 * pad
              for c in range(ncol)]
    if sum(widths) > width:
        widths[-1] = max(120, width - sum(widths[:-1]))
    total = sum(widths)
    start = y
    for i, row in enumerate(rows):
        typeset_cells = [typeset(cell, widths[c] - 2 * pad, BODY - 1, style.INK, 30, bold=i == 0)
                         for c, cell in enumerate(row)]
        h = max(hh for _, hh in typeset_cells) + 10
        fill = style.PAPER_DARK if i == 0 else ((252, 248, 238) if i % 2 else (246, 239, 224))
        rects.append((fill, pygame.Rect(0, y, total, h), 0))
        x = 0
        for c, (pieces, _) in enumerate(typeset_cells):
            ops += [(s, (x + pad + px, y + 5 + py)) for s, (px, py) in pieces]
            x += widths[c]
        y += h
    rects.append((style.PANEL_EDGE, pygame.Rect(0, start, total, y - start), 1))
    return y


def family_pages(folder) -> list:
    """The rule families' pages in ``folder``: the families' own, in their list's order
    (each once), then any other page by name."""
    from ttr_desktop.ui.families import window_families

    named = []
    for family in window_families():
        page = folder / family.rules_page if family.rules_page else None
        if page is not None and page.is_file() and page not in named:
            named.append(page)
    return named + [p for p in sorted(folder.glob("*.md")) if p not in named]


def load_rules_text() -> str:
    """The rules file, or a note when it is missing."""
    try:
        text = resource_path("assets", "rules.md").read_text(encoding="utf-8")
        # Each rule family adds its page as assets/rules/<nn>-<family>.md, in the order of
        # the families' list (``WindowFamily.rules_page``); other pages follow by name.
        extra = resource_path("assets", "rules")
        if extra.is_dir():
            pages = "".join("\n\n" + page.read_text(encoding="utf-8").strip() + "\n"
                            for page in family_pages(extra))
            # The families' pages go before the keys, which stay last as a reference.
            head, keys, tail = text.partition("\n## Keys")
            text = head.rstrip() + pages + ("\n" + keys + tail if keys else "")
        return text
    except OSError:
        return "# How to play\n\nThe rules file (assets/rules.md) is missing from this copy."


# The scene ---------------------------------------------------------------------
def _plain(text: str) -> str:
    """Lower case, accents and punctuation gone: 'Märklin (Germany)' -> 'marklin germany'."""
    bare = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return " ".join(re.findall(r"[a-z0-9]+", bare))


def family_section(variant: str, titles: list[str]) -> str | None:
    """The section (of ``titles``) about the rule family ``variant`` plays: the one whose
    title, up to a colon or bracket, begins the family's ``rules_section`` (its window
    descriptor, the same for each of its games; None there: the top of the page, as for
    the base game) or, for a family without a descriptor, the variant's name ('old-west' ->
    'Old West'); the longest such title wins, so a game never opens a longer family's."""
    from ttr_desktop.ui.families import family_of

    family = family_of(variant)
    if family is not None:
        if family.rules_section is None:
            return None
        name = _plain(family.rules_section)
    else:
        name = _plain(variant.replace("-", " "))
    if not name:
        return None
    best: tuple[int, str] | None = None
    for title in titles:
        head = _plain(re.split(r"[:(]", title, maxsplit=1)[0]).strip()
        if head and (name == head or name.startswith(head + " ")):
            if best is None or len(head) > best[0]:
                best = (len(head), title)
    return best[1] if best else None


class RulesScene(GuiScene):
    """Rules on a page: wheel, Page Up/Down, arrows, Home/End scroll; Esc or Back returns.
    Opened from a game (``variant``), the page starts at that family's section."""

    def __init__(self, app: App, variant: str | None = None) -> None:
        super().__init__(app)
        self.variant = variant
        self._opened = False
        self.blocks = parse_rules(load_rules_text())
        self.scroll = 0.0
        self.target = 0.0
        self._doc: tuple[int, pygame.Surface, list[tuple[str, int]]] | None = None
        self._drag: float | None = None

    # Layout --------------------------------------------------------------
    def build(self) -> None:
        w, h = self.size
        toc_w = 270 if w < 1500 else 300
        margin = 40
        total = min(w - 2 * margin, 1320)
        x0 = (w - total) // 2
        self.toc_rect = pygame.Rect(x0, 40, toc_w, h - 80)
        self.page = pygame.Rect(x0 + toc_w + 24, 40, total - toc_w - 24, h - 80)
        self.view = self.page.inflate(-88, -56)
        text_w = min(820, self.view.w)
        self.view.w = text_w
        self.view.x = self.page.x + (self.page.w - text_w) // 2
        if self._doc is None or self._doc[0] != text_w:
            surf, anchors = render_document(self.blocks, text_w)
            self._doc = (text_w, surf, anchors)
        self.toc_buttons = []
        y = self.toc_rect.y + 78
        # Every section's button fits above Back, however many pages the families add.
        room = self.toc_rect.bottom - 52 - 8 - y
        step = max(24, min(38, room // max(1, len(self.anchors))))
        for title, anchor in self.anchors:
            btn = self.button(pygame.Rect(self.toc_rect.x, y, toc_w, step - 2), title,
                              lambda a=anchor: self.scroll_to(a - 8), object_id="#toc")
            self.toc_buttons.append(btn)
            y += step
        self.back_button = self.button(pygame.Rect(self.toc_rect.x, self.toc_rect.bottom - 52,
                                                   toc_w, 52), "Back", self.back,
                                       object_id="#primary", tooltip="Esc")
        self.target = min(self.target, self.max_scroll)
        self.scroll = min(self.scroll, self.max_scroll)
        if not self._opened:
            self._opened = True
            title = family_section(self.variant or "", [t for t, _ in self.anchors])
            if title is not None:
                self.scroll_to(dict(self.anchors)[title] - 8, instant=True)

    @property
    def doc(self) -> pygame.Surface:
        assert self._doc is not None
        return self._doc[1]

    @property
    def anchors(self) -> list[tuple[str, int]]:
        return self._doc[2] if self._doc else []

    @property
    def max_scroll(self) -> float:
        """How far the page can scroll."""
        return max(0.0, float(self.doc.get_height() - self.view.h))

    # Scrolling -----------------------------------------------------------
    def scroll_to(self, y: float, instant: bool = False) -> None:
        """Scroll so ``y`` of the document is at the top of the page."""
        self.target = max(0.0, min(self.max_scroll, float(y)))
        if instant or self.app.settings.animation_speed == "instant":
            self.scroll = self.target

    def scroll_by(self, dy: float) -> None:
        """Scroll by ``dy`` pixels from where the page is heading."""
        self.scroll_to(self.target + dy)

    def _thumb(self) -> tuple[pygame.Rect, pygame.Rect]:
        track = pygame.Rect(self.page.right - 18, self.page.y + 16, 6, self.page.h - 32)
        doc_h = max(1, self.doc.get_height())
        th = max(40, int(track.h * min(1.0, self.view.h / doc_h)))
        frac = self.scroll / self.max_scroll if self.max_scroll else 0.0
        thumb = pygame.Rect(track.x, track.y + int((track.h - th) * frac), 6, th)
        return track, thumb

    def back(self) -> None:
        """Return to the screen below."""
        if len(self.app.scenes) > 1 and self in self.app.scenes:
            self.app.pop(self)
        else:
            from ttr_desktop.ui.scenes.menu import MenuScene
            self.app.replace(MenuScene(self.app))

    def on_event(self, event: pygame.event.Event) -> bool:
        page_step = self.view.h - 3 * LINE
        if event.type == pygame.MOUSEWHEEL:
            self.scroll_by(-event.y * 3 * LINE)
            return True
        if event.type == pygame.KEYDOWN:
            steps = {pygame.K_PAGEDOWN: page_step, pygame.K_SPACE: page_step,
                     pygame.K_PAGEUP: -page_step, pygame.K_DOWN: 2 * LINE,
                     pygame.K_UP: -2 * LINE}
            if event.key in steps:
                self.scroll_by(steps[event.key])
                return True
            if event.key == pygame.K_HOME:
                self.scroll_to(0)
                return True
            if event.key == pygame.K_END:
                self.scroll_to(self.max_scroll)
                return True
            if event.key in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
                self.back()
                return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            track, thumb = self._thumb()
            if thumb.inflate(12, 0).collidepoint(event.pos):
                self._drag = event.pos[1] - thumb.y
                return True
            if track.inflate(12, 0).collidepoint(event.pos):
                self.scroll_by(page_step if event.pos[1] > thumb.centery else -page_step)
                return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self._drag is not None:
            self._drag = None
            return True
        if event.type == pygame.MOUSEMOTION and self._drag is not None:
            track, thumb = self._thumb()
            free = max(1, track.h - thumb.h)
            frac = (event.pos[1] - self._drag - track.y) / free
            self.scroll_to(frac * self.max_scroll, instant=True)
            return True
        return False

    def update(self, dt: float) -> None:
        super().update(dt)
        if abs(self.target - self.scroll) < 0.5:
            self.scroll = self.target
        else:
            self.scroll += (self.target - self.scroll) * min(1.0, dt * 14)

    def next_wake(self) -> float | None:
        """Every frame while the page glides to where it was scrolled."""
        return 0.0 if self.scroll != self.target else super().next_wake()

    # Drawing -------------------------------------------------------------
    def current_section(self) -> int:
        """Index of the ``##`` section at the top of the page."""
        index = 0
        for i, (_, y) in enumerate(self.anchors):
            if y <= self.scroll + 40:
                index = i
        if self.max_scroll and self.scroll >= self.max_scroll - 1 and self.anchors:
            index = len(self.anchors) - 1     # the last section may be too short to reach the top
        return index

    def draw_back(self, surface: pygame.Surface) -> None:
        super().draw_back(surface)
        t = self.toc_rect
        surface.blit(style.text("Rules", 40, style.INK, bold=True), (t.x + 12, t.y - 4))
        surface.blit(style.text("Sections", 15, style.INK_SOFT), (t.x + 14, t.y + 52))
        if self.toc_buttons:
            current = self.toc_buttons[self.current_section()].rect
            pygame.draw.rect(surface, (236, 222, 192), current, border_radius=8)
            pygame.draw.rect(surface, style.ACCENT, (current.x, current.y + 6, 4, current.h - 12),
                             border_radius=2)
        style.panel(surface, self.page, fill=(252, 248, 238), radius=12)
        clip = surface.get_clip()
        surface.set_clip(self.view.inflate(40, 8))
        surface.blit(self.doc, (self.view.x, self.view.y - int(self.scroll)))
        surface.set_clip(clip)
        # Soft fades where the text runs under the page's edges.
        for top in (True, False):
            if (top and self.scroll > 1) or (not top and self.scroll < self.max_scroll - 1):
                fade = _fade(self.page.w - 40, 28, top)
                y = self.view.y - 4 if top else self.view.bottom - 24
                surface.blit(fade, (self.page.x + 8, y))
        if self.max_scroll > 0:
            track, thumb = self._thumb()
            pygame.draw.rect(surface, (232, 222, 200), track, border_radius=3)
            pygame.draw.rect(surface, style.PANEL_EDGE, thumb, border_radius=3)


_FADES: dict[tuple[int, int, bool], pygame.Surface] = {}


def _fade(w: int, h: int, top: bool) -> pygame.Surface:
    key = (w, h, top)
    if key not in _FADES:
        surf = pygame.Surface((w, h), pygame.SRCALPHA)
        for i in range(h):
            a = int(255 * (1 - i / h)) if top else int(255 * i / h)
            pygame.draw.line(surf, (252, 248, 238, a), (0, i), (w, i))
        _FADES[key] = surf
    return _FADES[key]
