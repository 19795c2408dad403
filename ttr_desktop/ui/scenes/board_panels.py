"""The board's side panels: players, the card market, the log, the hand and the tickets.

Each panel is rendered into a cached surface keyed by what it shows, so an
ordinary frame only blits it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from ttr_desktop.ui import style
from ttr_desktop.rules.words import plural, plural_word
from ttr_desktop.ui.cards import card_back, card_surface

CARD_ORDER = ("red", "orange", "yellow", "green", "blue", "pink", "white", "black", "locomotive",
              "locomotive_plus4", "passenger")


def hand_order(card_names, never_held=()) -> tuple[str, ...]:
    """The card kinds a hand shows, in the order players sort them (colours by the rainbow,
    then wilds, then the rest); kinds that never stay in a hand are left out."""
    names = [n for n in card_names if n not in never_held]
    rank = {n: i for i, n in enumerate(CARD_ORDER)}
    return tuple(sorted(names, key=lambda n: (rank.get(n, len(rank)), names.index(n))))


#: Engine variant -> fn(scene, surface): a family's own pieces drawn over the board after
#: the panels (an event card, coins). Drawing only: it must not change the game.
BOARD_PAINTERS: dict[str, object] = {}
#: Engine variant -> the height of a card of the family's own (Legacy's event card) drawn
#: at the lower left of ``Layout.aside``: with the hand beside the map, room is kept for
#: it under the tickets; with the hand under the map it stands in the map's corner.
ASIDE_HEIGHT: dict[str, int] = {}
#: Engine variant -> fn(scene) -> the height that card takes now (at most its
#: ASIDE_HEIGHT): the ticket list beside the map uses the room the card leaves.
ASIDE_USED: dict[str, object] = {}


def fit_tickets_to_aside(lay: Layout, used: int) -> None:
    """Give the ticket list (beside the map, above a family's card) the room down to
    the card's top as drawn now: a short card leaves room for more tickets."""
    aside = getattr(lay, "aside", None)
    if not lay.beside or not aside:
        return
    card_top = aside.bottom - 8 - max(0, min(used, aside.height))
    bottom = max(aside.y - 4, card_top - 10)
    lay.tickets.height = max(0, bottom - lay.tickets.y)


def ordered_tickets(tickets, done: set[str]) -> list:
    """Open tickets first, newest first; then finished ones, newest first."""
    newest = list(reversed(tickets))
    return [t for t in newest if t.id not in done] + [t for t in newest if t.id in done]


def money(value: int, currency: str) -> str:
    """'12' points or '$12'."""
    if currency == "dollars":
        return f"-${-value}" if value < 0 else f"${value}"
    return str(value)


@dataclass
class Layout:
    """Screen rectangles of the board scene."""

    top: pygame.Rect
    map: pygame.Rect
    right: pygame.Rect
    bottom: pygame.Rect
    players: pygame.Rect
    market: pygame.Rect
    log: pygame.Rect
    deck: pygame.Rect = field(default_factory=pygame.Rect)
    face_up: list[pygame.Rect] = field(default_factory=list)
    tickets_deck: pygame.Rect = field(default_factory=pygame.Rect)
    hand: list[pygame.Rect] = field(default_factory=list)
    tickets: pygame.Rect = field(default_factory=pygame.Rect)
    info: pygame.Rect = field(default_factory=pygame.Rect)
    player_rows: list[pygame.Rect] = field(default_factory=list)
    card_size: tuple[int, int] = (46, 68)
    #: Where a family's own card goes (its lower left corner; see ASIDE_HEIGHT).
    aside: pygame.Rect = field(default_factory=pygame.Rect)
    #: True when the hand, tickets and trains left stand in a column beside the map.
    beside: bool = False


def compute_layout(size: tuple[int, int], n_players: int, n_hand: int = 9,
                   map_size: tuple[float, float] | None = None, aside_h: int = 0) -> Layout:
    """Rectangles for a window of ``size``.

    The hand, tickets and trains left go under the map, or, for a map whose shape
    would leave much of the space under-used there (a tall map such as Märklin or
    Legacy, given its ``map_size``), in a column beside it: whichever draws the map
    larger."""
    w, h = size
    right_w = 340 if w < 1500 else 380
    bottom_h = 150 if h < 850 else 176
    side_w = 260 if w < 1500 else 300
    top_h = 40
    side = False
    if map_size is not None and map_size[0] > 0 and map_size[1] > 0:
        mw, mh = map_size
        under = min((w - right_w) / mw, (h - bottom_h - top_h) / mh)
        beside = min((w - right_w - side_w) / mw, (h - top_h) / mh)
        side = beside > 1.03 * under
    top = pygame.Rect(0, 0, w - right_w, top_h)
    right = pygame.Rect(w - right_w, 0, right_w, h)
    if side:
        map_rect = pygame.Rect(0, top_h, w - right_w - side_w, h - top_h)
        bottom = pygame.Rect(map_rect.right, top_h, side_w, h - top_h)
    else:
        map_rect = pygame.Rect(0, top_h, w - right_w, h - bottom_h - top_h)
        bottom = pygame.Rect(0, h - bottom_h, w - right_w, bottom_h)
    row_h = 56 if h < 850 else 62
    players = pygame.Rect(right.x + 10, 10, right_w - 20, 8 + row_h * n_players)
    card_w = (right_w - 20 - 7 * 6) // 6
    card_h = int(card_w * 1.45)
    market = pygame.Rect(right.x + 10, players.bottom + 10, right_w - 20, card_h + 82)
    log = pygame.Rect(right.x + 10, market.bottom + 10, right_w - 20, h - market.bottom - 20)
    lay = Layout(top, map_rect, right, bottom, players, market, log)
    lay.aside, lay.beside = map_rect.copy(), side
    lay.card_size = (card_w, card_h)
    lay.player_rows = [pygame.Rect(players.x + 4, players.y + 4 + i * row_h, players.width - 8,
                                   row_h - 4) for i in range(n_players)]
    x = market.x + 7
    y = market.y + 30
    lay.deck = pygame.Rect(x, y, card_w, card_h)
    lay.face_up = [pygame.Rect(x + (i + 1) * (card_w + 6), y, card_w, card_h) for i in range(5)]
    lay.tickets_deck = pygame.Rect(x, y + card_h + 8, 2 * card_w + 6, 38)
    if side:
        _side_column(lay, n_hand, aside_h)
        return lay
    hand_w = int(min(62, (bottom.width * 0.48 - 20) // max(n_hand, 9)))
    hand_h = min(int(hand_w * 1.4), bottom_h - 44)
    lay.hand = [pygame.Rect(bottom.x + 14 + i * (hand_w + 6), bottom.y + 30, hand_w, hand_h)
                for i in range(n_hand)]
    hand_right = lay.hand[-1].right + 16
    lay.info = pygame.Rect(bottom.right - 170, bottom.y + 8, 160, bottom_h - 16)
    lay.tickets = pygame.Rect(hand_right, bottom.y + 8, lay.info.x - hand_right - 10,
                              bottom_h - 16)
    return lay


def _side_column(lay: Layout, n_hand: int, aside_h: int) -> None:
    """The hand in rows of four, the tickets under it (and a family's card, given its
    height) and the trains left at the foot, in the column beside the map."""
    col = lay.bottom
    cols, gap = 4, 6
    hand_w = int(min(62, (col.width - 28 - (cols - 1) * gap) // cols))
    hand_h = int(hand_w * 1.4)
    lay.hand = [pygame.Rect(col.x + 14 + (i % cols) * (hand_w + gap),
                            col.y + 30 + (i // cols) * (hand_h + gap), hand_w, hand_h)
                for i in range(n_hand)]
    lay.info = pygame.Rect(col.x + 14, col.bottom - 8 - 124, col.width - 28, 116)
    top = lay.hand[-1].bottom + 12
    bottom = lay.info.y - 8
    if aside_h:
        lay.aside = pygame.Rect(col.x + 6, bottom - aside_h, col.width - 12, aside_h + 8)
        bottom = lay.aside.y - 4
    lay.tickets = pygame.Rect(col.x + 14, top, col.width - 28, bottom - top)


def draw_players(surface: pygame.Surface, lay: Layout, view: dict) -> None:
    """Every seat: colour, name, level, points, trains, cards, tickets; whose turn it is."""
    style.panel(surface, lay.players)
    for i, row in enumerate(lay.player_rows):
        seat = view["seats"][i]
        current = view["current"] == i
        if current:
            pygame.draw.rect(surface, (255, 240, 200), row, border_radius=8)
            pygame.draw.rect(surface, style.ACCENT, row, 2, border_radius=8)
        rgb = view["rgb"][i]
        pygame.draw.circle(surface, rgb, (row.x + 16, row.y + 17), 10)
        pygame.draw.circle(surface, (20, 16, 12), (row.x + 16, row.y + 17), 10, 2)
        name = seat.name if len(seat.name) <= 16 else seat.name[:15] + "…"
        surface.blit(style.text(name, 17, style.INK, bold=True), (row.x + 32, row.y + 4))
        if seat.is_bot:
            lvl = style.text(view["levels"][i], 13, style.INK_SOFT)
            surface.blit(lvl, (row.x + 34 + style.font(17, True).size(name)[0] + 6, row.y + 8))
        pts = style.text(money(view["points"][i], view.get("currency", "points")), 22,
                         style.ACCENT, bold=True)
        surface.blit(pts, pts.get_rect(topright=(row.right - 10, row.y + 2)))
        stats = (f"{plural(view['trains'][i], 'train')} · "
                 f"{plural(view['hand_sizes'][i], 'card')} · "
                 f"{plural(view['ticket_counts'][i], 'ticket')}")
        if view.get("stations_left") is not None:
            stats += f" · {view['stations_left'][i]} st."
        extras = view.get("seat_stats") or ()
        if extras and isinstance(extras[0], str):  # one tuple of texts, one per seat
            extras = (extras,)
        for extra in extras:
            stats += f" · {extra[i]}"
        surface.blit(style.text(stats, 13, style.INK_SOFT), (row.x + 32, row.y + 28))
        if current:
            arrow = [(row.x - 2, row.centery - 7), (row.x + 5, row.centery),
                     (row.x - 2, row.centery + 7)]
            pygame.draw.polygon(surface, style.ACCENT, arrow)


def market_title(view: dict) -> str:
    """The card panel's heading: whose move it is when a bot's, else what to take. While
    the bot waits for a possible take-back it has not started thinking (the top line
    counts the wait down)."""
    if view.get("waiting"):
        return f"{view['waiting']} plays next"
    if view.get("thinking"):
        return f"{view['thinking']} is thinking…"
    if view["phase"] == "second_card" and view["human_turn"]:
        return "Take your second card"
    return "Train cards"


def draw_market(surface: pygame.Surface, lay: Layout, view: dict, hover: str | None) -> None:
    """The deck, the five face-up cards, the ticket deck and the discard count."""
    style.panel(surface, lay.market)
    head = style.text(market_title(view), 15, style.INK, bold=True)
    surface.blit(head, (lay.market.x + 10, lay.market.y + 7))
    counts = market_counts(lay, head.get_width(), view["deck_size"], view["discard_size"])
    if counts is not None:
        surface.blit(counts[0], counts[1])
    if view["deck_size"] or view["discard_size"]:
        surface.blit(card_back(lay.card_size), lay.deck)
    else:
        surface.blit(card_surface(None, lay.card_size), lay.deck)
    if hover == "deck":
        pygame.draw.rect(surface, style.HIGHLIGHT, lay.deck.inflate(6, 6), 3, border_radius=9)
    for i, rect in enumerate(lay.face_up):
        card = view["face_up"][i] if i < len(view["face_up"]) else None
        dim = (card == "locomotive" and view["phase"] == "second_card"
               and view["human_turn"])
        surface.blit(card_surface(card, lay.card_size, view["symbols"], dim), rect)
        if hover == f"face_up:{i}" and card:
            pygame.draw.rect(surface, style.HIGHLIGHT, rect.inflate(6, 6), 3, border_radius=9)
    t = lay.tickets_deck
    decks = view.get("ticket_decks") or ()
    if len(decks) > 1:   # a draw announces how many from each deck: show each deck's size
        label = "\n".join(f"{name.title()} {size}" for name, size in decks)
    else:
        label = f"Tickets {view['ticket_deck_size']}"
    surface.blit(pygame.transform.smoothscale(card_back((t.width, t.height), label), t.size), t)
    if hover == "tickets":
        pygame.draw.rect(surface, style.HIGHLIGHT, t.inflate(6, 6), 3, border_radius=9)
    hint = "D deck · T tickets" if view["human_turn"] else ""
    if hint:
        surface.blit(style.text(hint, 13, style.INK_SOFT), (t.right + 12, t.y + 11))


def market_counts(lay: Layout, title_width: int, deck: int,
                  discard: int) -> tuple[pygame.Surface, pygame.Rect] | None:
    """The deck and discard counts, right-aligned on the train cards' title row, and where
    they go: "deck 96 · discard 3", or just "deck 96" beside a long title ("Take your
    second card", "Bot 2 is thinking…"), never over it."""
    left = lay.market.x + 10 + title_width + 12
    for words in (f"deck {deck} · discard {discard}", f"deck {deck}"):
        surf = style.text(words, 13, style.INK_SOFT)
        rect = surf.get_rect(topright=(lay.market.right - 10, lay.market.y + 9))
        if rect.x >= left:
            return surf, rect
    return None


def draw_log(surface: pygame.Surface, lay: Layout, lines: list[tuple[str, tuple]],
             skip: int = 0) -> None:
    """The newest public events, newest at the bottom; ``skip`` pixels under the title are
    left for the news pinned there."""
    style.panel(surface, lay.log)
    surface.blit(style.text("Game log", 15, style.INK, bold=True), (lay.log.x + 10,
                                                                    lay.log.y + 7))
    room = (lay.log.height - 36 - skip) // 18
    y = lay.log.y + 30 + skip
    for part, rgb in log_rows(lines, lay.log.width - 20, room):
        surface.blit(style.text(part, 13, rgb), (lay.log.x + 10, y))
        y += 18


def log_rows(lines: list[tuple[str, tuple]], width: int, room: int) -> list[tuple[str, tuple]]:
    """The rows of the log that fit ``room`` rows ``width`` pixels wide: the newest entries,
    each whole (an entry's second line without its first read as an entry of its own), or
    the start of the newest alone when even it is longer than the room."""
    rows: list[tuple[str, tuple]] = []
    for text, rgb in reversed(lines[-40:]):
        parts = [(part, rgb) for part in style.wrap(text, 13, width)]
        if len(rows) + len(parts) > room:
            return rows or parts[:max(0, room)]
        rows[:0] = parts
    return rows


#: Functions called as ``fn(seat, part)`` whenever a seat's private part is drawn (its
#: hand, tickets, trains and keys, a card it drew, a panel about its decision): the window
#: tests record per frame whose private parts were on screen.
PRIVATE_DRAW_HOOKS: list = []


def drew_private(seat: int, part: str) -> None:
    """Say that ``seat``'s private ``part`` was drawn this frame (see PRIVATE_DRAW_HOOKS)."""
    for hook in PRIVATE_DRAW_HOOKS:
        hook(seat, part)


def draw_hand(surface: pygame.Surface, lay: Layout, view: dict) -> None:
    """The visible seat's cards (count per colour) or a closed hand between players."""
    style.panel(surface, lay.bottom.inflate(-10, -10), radius=12)
    viewer = view["viewer"]
    if viewer is None:
        msg = view.get("hidden_message") or "Hands are hidden"
        lines = style.wrap(msg, 20, lay.bottom.width - 40, bold=True)   # a narrow column
        step = style.font(20, True).get_linesize()
        y = lay.bottom.centery - step * len(lines) // 2
        for line in lines:
            t = style.text(line, 20, style.INK_SOFT, bold=True)
            surface.blit(t, t.get_rect(midtop=(lay.bottom.centerx, y)))
            y += step
        return
    drew_private(viewer, "hand")
    name = view["seats"][viewer].name
    surface.blit(style.text(f"{name}'s hand", 15, style.INK, bold=True),
                 (lay.hand[0].x, lay.bottom.y + 8))
    hand = view["hand"]
    for rect, card in zip(lay.hand, view["hand_order"]):
        n = hand.get(card, 0)
        surface.blit(card_surface(card, rect.size, view["symbols"], dim=n == 0), rect)
        if n:
            badge = pygame.Rect(0, 0, 26, 22)
            badge.center = (rect.right - 6, rect.top + 6)
            pygame.draw.rect(surface, (255, 252, 244), badge, border_radius=11)
            pygame.draw.rect(surface, (40, 30, 20), badge, 2, border_radius=11)
            t = style.text(str(n), 15, style.INK, bold=True)
            surface.blit(t, t.get_rect(center=badge.center))


def ticket_columns(lay: Layout) -> int:
    """One or two columns of ticket chips, by the room there is."""
    return 2 if lay.tickets.width > 460 else 1


def tickets_visible(lay: Layout) -> int:
    """How many ticket chips fit at once (24 pixels each, 4 between, under the title)."""
    return max(1, (lay.tickets.height - 24 + 4) // 28) * ticket_columns(lay)


def ticket_rows(lay: Layout, count: int, scroll: int = 0) -> list[tuple[int, pygame.Rect]]:
    """(ticket index, rectangle) of the chips on screen, starting at ticket ``scroll``."""
    area = lay.tickets
    cols = ticket_columns(lay)
    w = (area.width - 8 * (cols - 1)) // cols
    h = 24
    rows = []
    for k, i in enumerate(range(scroll, min(count, scroll + tickets_visible(lay)))):
        c, r = k % cols, k // cols
        rows.append((i, pygame.Rect(area.x + c * (w + 8), area.y + 24 + r * (h + 4), w, h)))
    return rows


def draw_tickets(surface: pygame.Surface, lay: Layout, view: dict, hover: int | None,
                 scroll: int = 0) -> None:
    """The visible seat's tickets — open ones first, newest first, finished ones ticked after
    them — with their values; a scroll bar shows when there are more than fit."""
    if view["viewer"] is None:
        return
    drew_private(view["viewer"], "tickets")
    done = view["done"]
    tickets = ordered_tickets(view["tickets"], done)
    area = lay.tickets
    open_count = sum(1 for t in tickets if t.id not in done)
    title = f"Tickets: {open_count} open, {len(tickets) - open_count} done"
    if style.font(15, True).size(title)[0] > area.width - 90:
        title = f"Tickets ({open_count} open)"
    surface.blit(style.text(title, 15, style.INK, bold=True), (area.x, area.y))
    shown = ticket_rows(lay, len(tickets), scroll)
    if len(tickets) > len(shown):
        first, last = scroll + 1, scroll + len(shown)
        more = style.text(f"{first}–{last} of {len(tickets)} · scroll", 12, style.INK_SOFT)
        surface.blit(more, (area.right - more.get_width() - 12, area.y + 3))
        # The scroll bar: a track with a thumb as tall as the part shown.
        track = pygame.Rect(area.right - 6, area.y + 22, 6, area.height - 24)
        pygame.draw.rect(surface, (214, 204, 182), track, border_radius=3)
        h = max(12, track.height * len(shown) // len(tickets))
        y = track.y + (track.height - h) * scroll // max(1, len(tickets) - len(shown))
        pygame.draw.rect(surface, style.INK_SOFT, (track.x, y, 6, h), border_radius=3)
    for i, rect in shown:
        rect = rect.copy()
        if len(tickets) > len(shown):
            rect.width -= 10
        ticket = tickets[i]
        ok = ticket.id in done
        fill = (226, 244, 222) if ok else (252, 248, 238)
        if hover == i:
            fill = (210, 246, 250)
        pygame.draw.rect(surface, fill, rect, border_radius=6)
        pygame.draw.rect(surface, style.GOOD if ok else style.PANEL_EDGE, rect, 1,
                         border_radius=6)
        box = pygame.Rect(rect.x + 5, rect.y + 4, 16, 16)
        pygame.draw.rect(surface, (255, 255, 255), box, border_radius=4)
        pygame.draw.rect(surface, style.GOOD if ok else (150, 140, 125), box, 1, border_radius=4)
        if ok:
            from ttr_desktop.ui.scenes.board_overlays import draw_check
            draw_check(surface, box, style.GOOD)
        a, b = view["city_names"][ticket.a], view["city_names"][ticket.b]
        room = rect.width - 60
        size = 14
        label = f"{a} – {b}"
        while size > 11 and style.font(size).size(label)[0] > room:
            size -= 1
        if style.font(size).size(label)[0] > room:   # shorten whole words, never mid-word
            words_a, words_b = a.split(), b.split()
            while style.font(size).size(label)[0] > room and (len(words_a) > 1 or
                                                               len(words_b) > 1):
                if len(words_a) >= len(words_b):
                    words_a.pop()
                else:
                    words_b.pop()
                label = f"{' '.join(words_a)}… – {' '.join(words_b)}…"
        surface.blit(style.text(label, size, style.INK), (rect.x + 24, rect.y + 3))
        pts = style.text(str(ticket.points), 15, style.ACCENT if not ok else style.GOOD,
                         bold=True)
        surface.blit(pts, pts.get_rect(midright=(rect.right - 8, rect.centery)))


def draw_info(surface: pygame.Surface, lay: Layout, view: dict) -> None:
    """Trains and stations left, and the keys that work now."""
    if view["viewer"] is None:
        return
    area = lay.info
    v = view["viewer"]
    drew_private(v, "trains and keys")
    surface.blit(style.text(f"{view['trains'][v]}", 30, style.ACCENT, bold=True),
                 (area.x, area.y))
    surface.blit(style.text(f"{plural_word(view['trains'][v], 'train')} left", 14,
                            style.INK_SOFT), (area.x + 4, area.y + 40))
    y = area.y + 62
    if view.get("stations_left") is not None:
        surface.blit(style.text(f"{plural(view['stations_left'][v], 'station')} left", 14,
                                style.INK),
                     (area.x + 4, y))
        y += 20
        surface.blit(style.text("click a city to build", 12, style.INK_SOFT), (area.x + 4, y))
        y += 20
    keys = ("Esc menu · Ctrl+Z undo · H hint" if view.get("can_undo")
            else "Esc menu · H hint · wheel zoom")
    while style.text(keys, 12, style.INK_SOFT).get_width() > area.width - 8 and " · " in keys:
        keys = keys.rsplit(" · ", 1)[0]   # a narrow window: the last keys give way
    surface.blit(style.text(keys, 12, style.INK_SOFT), (area.x + 4, y))
