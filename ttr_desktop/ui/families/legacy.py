"""Legacy: Legends of the West in the window (its ``WINDOW`` descriptor):

- the setup choice, with each seat's train colour as its company
  (``seat_options``: purple is no company and is refused with a reason);
- log lines for newspapers, events and the claim steps' payouts (company bonus, an
  event's fee or payment, the large-city card), and the payouts as badges beside the
  claimed route for a few seconds;
- on the board (``painter``): the current event as a card with its text
  in the map's lower left corner, a newspaper's arrival announced over the game log for a
  few seconds (never over the map), and coins beside each player's dollars;
- the scoring screen's cards as bank slips, one per company (``slip_words``).
"""

from __future__ import annotations

import time
from typing import Any

import pygame

from ttr_desktop.rules.modules import legacy as rules
from ttr_desktop.ui import style
from ttr_desktop.ui.families import SetupChoice, WindowFamily
from ttr_desktop.ui.log_text import card_words, plural, route_name

VARIANT = "legacy"
#: Seconds a newspaper's announcement stays over the game log; the last of them it fades.
ANNOUNCE_SECONDS = 5.0
ANNOUNCE_FADE = 0.8
CARD_W = 190
GOLD = (214, 168, 48)
GOLD_DARK = (150, 108, 20)
EVENT_PAPER = (248, 240, 218)
EVENT_EDGE = (120, 86, 40)

NOTE = ("The first game of Legacy on its eastern board: 20 trains each, dollars instead of "
        "points, newspapers that bring events. Your train colour is your company.")


def seat_options(seats: list[Any]) -> dict[str, Any]:
    """Each seat's train colour is its company (ValueError names a colour that is none)."""
    colours = [s.color for s in seats]
    for c in colours:
        if c not in rules.COMPANY_COLOURS:
            raise ValueError(f"{c} runs no company — a train colour is a company: pick "
                             f"{', '.join(rules.COMPANY_COLOURS[:-1])} or "
                             f"{rules.COMPANY_COLOURS[-1]}")
    return {"companies": ",".join(rules.companies_of_seats(colours))}




# ----------------------------------------------------------------------
# Log lines
def money(amount: int) -> str:
    """'$4' or '−$2'."""
    return f"−${-amount}" if amount < 0 else f"${amount}"


def _who(game, seat) -> str:
    return game.players[seat] if seat is not None and seat < len(game.players) else ""


def _newspaper(ev, game) -> str:
    d = ev.data
    who = _who(game, ev.seat)
    if d.get("quiet"):
        return f"{who} turned up a newspaper: discarded and replaced, no new event."
    if not d.get("event"):
        return (f"{who} turned up a newspaper, but the event deck is empty: no new event. "
                "The newspaper is discarded and replaced.")
    kind = "at once" if d.get("kind") == "instant" else "while it is the current event"
    return (f"EXTRA! {who} turned up a newspaper — new event: {d['title']}. {d['text']} "
            f"({'Resolved ' if d.get('kind') == 'instant' else 'In force '}{kind}.)")


def _event_paid(ev, game) -> str:
    d = ev.data
    title = rules.event(d["event"]).title
    pays = [f"{game.players[s]} {money(a)}" for s, a in d.get("payments", ())]
    return f"{title}: " + (", ".join(pays) + "." if pays else "nobody qualifies.")


def _event_card(ev, game) -> str:
    d = ev.data
    who = _who(game, ev.seat)
    if "card" in d:
        return f"A new horizon: {who} takes {card_words(d['card'])}."
    return f"A new horizon: {who} takes a card from the deck."


def _company_bonus(ev, game) -> str:
    d = ev.data
    return (f"{_who(game, ev.seat)}: company route ({d['company']}) "
            f"{route_name(game, d['route'])} pays {money(d['amount'])}.")


def _event_claim(ev, game) -> str:
    d = ev.data
    title = rules.event(d["event"]).title
    verb = "pays" if d["amount"] > 0 else "costs"
    return f"{title}: the claim {verb} {_who(game, ev.seat)} {money(abs(d['amount']))}."


def _large_city(ev, game) -> str:
    d = ev.data
    names = " and ".join(game.map.cities[c].name for c in d.get("cities", ()))
    who = _who(game, ev.seat)
    if "card" in d:
        return f"Large city {names}: {who} draws {card_words(d['card'])}."
    if d.get("cities"):
        return f"Large city {names}: {who} draws a card from the deck."
    return f"{who} draws a card for the large city."


EVENT_LINES = {
    "newspaper": _newspaper,
    "event_paid": _event_paid,
    "event_card": _event_card,
    "company_bonus": _company_bonus,
    "event_claim": _event_claim,
    "large_city_card": _large_city,
}


# ----------------------------------------------------------------------
# Scoring: a bank slip per company
def slip_caption(game, seat: int, kind: str) -> str:
    """'Blue company · Player' under the name on the seat's bank slip."""
    companies = game.view(seat).extra.get(rules.NAME, {}).get("companies", ())
    company = companies[seat].capitalize() if seat < len(companies) else ""
    return f"{company} company · {kind}" if company else kind




# ----------------------------------------------------------------------
# The board: the current event card, the newspaper announcement, coins
def event_card_lines(info: dict[str, Any]) -> tuple[str, str, list[str], str]:
    """(heading, title, text lines before wrapping, footer) of the event card."""
    left = info.get("events_left", 0)
    papers = info.get("newspapers_left", 0)
    footer = (f"{plural(left, 'event')} face down · "
              f"{plural(papers, 'newspaper')} in the deck")
    cur = info.get("current_event") or ""
    if not cur:
        return ("NO EVENT YET", "The news is quiet",
                ["A newspaper drawn from the deck turns up the next event."], footer)
    ev = rules.event(cur)
    if ev.instant:
        head = "CURRENT EVENT · INSTANT"
        text = [ev.text, "Resolved when it turned up; no further effect."]
    else:
        head = "CURRENT EVENT · ONGOING"
        text = [ev.text]
    return head, ev.title, text, footer


def event_card_rect(lay_map: pygame.Rect, height: int) -> pygame.Rect:
    """Where the event card sits: the map's lower left corner."""
    return pygame.Rect(lay_map.x + 8, lay_map.bottom - 8 - height, CARD_W, height)


def _event_card_text(info: dict[str, Any]):
    head, title, texts, footer = event_card_lines(info)
    inner = CARD_W - 20
    title_lines = style.wrap(title, 15, inner, bold=True)
    body: list[str] = []
    for t in texts:
        body += style.wrap(t, 13, inner)
    foot = style.wrap(footer, 11, inner)
    h = 12 + 14 + 6 + 18 * len(title_lines) + 4 + 16 * len(body) + 6 + 13 * len(foot) + 10
    return head, title_lines, body, foot, h


def event_card_height(scene) -> int:
    """How tall the event card is now (the ticket list beside the map uses the rest)."""
    game = scene.table
    seat = scene.viewer if scene.viewer is not None else game.current_seat
    info = game.view(seat).extra.get(rules.NAME)
    return _event_card_text(info)[4] if info else 0


def draw_event_card(surface: pygame.Surface, lay_map: pygame.Rect, info: dict[str, Any],
                    fresh: bool = False) -> pygame.Rect:
    """The current event as a card with its text; its rectangle."""
    head, title_lines, body, foot, h = _event_card_text(info)
    rect = event_card_rect(lay_map, h)
    pygame.draw.rect(surface, EVENT_PAPER, rect, border_radius=8)
    pygame.draw.rect(surface, GOLD if fresh else EVENT_EDGE, rect, 3 if fresh else 2,
                     border_radius=8)
    x, y = rect.x + 10, rect.y + 10
    surface.blit(style.text(head, 11, EVENT_EDGE, bold=True), (x, y))
    y += 20
    for line in title_lines:
        surface.blit(style.text(line, 15, style.INK, bold=True), (x, y))
        y += 18
    y += 4
    for line in body:
        surface.blit(style.text(line, 13, style.INK), (x, y))
        y += 16
    y += 6
    pygame.draw.line(surface, EVENT_EDGE, (x, y - 3), (rect.right - 10, y - 3))
    for line in foot:
        surface.blit(style.text(line, 11, style.INK_SOFT), (x, y))
        y += 13
    return rect


def announcement_rect(lay, event_id: str) -> pygame.Rect:
    """Where a newspaper's announcement stands: over the top of the game log, in the side
    panel, so it hides no city or route of the map (the log says the same in its line)."""
    area = lay.log
    return pygame.Rect(area.x, area.y, area.width, _announcement_text(area, event_id)[2])


def _announcement_text(area: pygame.Rect, event_id: str) -> tuple[list[str], list[str], int]:
    ev = rules.event(event_id)
    inner = area.width - 28
    title = style.wrap(ev.title, 20, inner, bold=True)
    body = style.wrap(ev.text, 15, inner)
    return title, body, 12 + 22 + 26 * len(title) + 4 + 19 * len(body) + 12


def draw_announcement(surface: pygame.Surface, lay, event_id: str,
                      alpha: float = 1.0) -> pygame.Rect:
    """A newspaper's arrival over the game log: 'EXTRA! EXTRA!', the new event's title and
    text (fading out with ``alpha``); its rectangle."""
    rect = announcement_rect(lay, event_id)
    title, body, _ = _announcement_text(lay.log, event_id)
    band = pygame.Surface(rect.size, pygame.SRCALPHA)
    pygame.draw.rect(band, (*EVENT_PAPER, 255), band.get_rect(), border_radius=10)
    pygame.draw.rect(band, GOLD, band.get_rect(), 3, border_radius=10)
    x, y = 14, 12
    band.blit(style.text("EXTRA! EXTRA! A new event", 14, EVENT_EDGE, bold=True), (x, y))
    y += 22
    for line in title:
        band.blit(style.text(line, 20, style.INK, bold=True), (x, y))
        y += 26
    y += 4
    for line in body:
        band.blit(style.text(line, 15, style.INK), (x, y))
        y += 19
    band.set_alpha(int(255 * max(0.0, min(1.0, alpha))))
    surface.blit(band, rect)
    return rect


def draw_coin(surface: pygame.Surface, center: tuple[int, int], r: int = 8) -> None:
    """A gold dollar coin."""
    pygame.draw.circle(surface, GOLD, center, r)
    pygame.draw.circle(surface, GOLD_DARK, center, r, 2)
    t = style.text("$", max(9, r + 3), GOLD_DARK, bold=True)
    surface.blit(t, t.get_rect(center=(center[0], center[1] + 1)))


def draw_coins(surface: pygame.Surface, lay, coins: tuple[int, ...]) -> None:
    """A coin beside each seat's dollars in the player rows."""
    for i, row in enumerate(lay.player_rows[:len(coins)]):
        text_w = style.font(22, True).size(f"${coins[i]}")[0]
        draw_coin(surface, (row.right - 10 - text_w - 13, row.y + 16), 9)


#: Seconds a claim's payouts stay beside the route.
PAYOUT_SECONDS = 3.5
#: Claim-step events shown as badges beside the claimed route.
PAYOUT_KINDS = ("company_bonus", "event_claim", "large_city_card")


def payout_badges(events, viewer: int | None) -> dict[str, list[str]]:
    """Route id -> the badges a claim's steps earned ('+$1 company', '+1 card')."""
    out: dict[str, list[str]] = {}
    for ev in events:
        if ev.kind not in PAYOUT_KINDS:
            continue
        d = ev.data
        if ev.kind == "company_bonus":
            text = f"+${d['amount']} company"
        elif ev.kind == "event_claim":
            text = f"{'+' if d['amount'] > 0 else '−'}${abs(d['amount'])} event"
        else:
            text = "+1 card"
        out.setdefault(d["route"], []).append(text)
    return out


class Shown:
    """How long something has still to be shown; the clock runs only while the board is
    on top (not behind a hand-over screen or a dialog)."""

    def __init__(self) -> None:
        self.key: object = None
        self.left = 0.0
        self.last = time.monotonic()

    def tick(self, scene, key: object, seconds: float) -> bool:
        """Restart when ``key`` changes; True while there is time left."""
        now = time.monotonic()
        if key != self.key:
            self.key, self.left = key, seconds
        elif scene.on_top():
            self.left -= now - self.last
        self.last = now
        wake = getattr(scene.app, "wake_in", None)
        if self.left > 0 and scene.on_top() and wake is not None:
            wake(self.left)                   # the window draws again when it is to go
        return self.left > 0


class Payouts:
    """The payout badges under way: each claim's for a few seconds of the board on top."""

    def __init__(self, seen: int) -> None:
        self.seen = seen                      # events of the session already looked at
        self.badges: list[tuple[dict[str, list[str]], Shown]] = []

    def update(self, scene) -> dict[str, list[str]]:
        """Route id -> the badges still showing."""
        events = scene.table.events
        if len(events) < self.seen:           # a move was taken back
            self.seen, self.badges = len(events), []
        fresh = payout_badges(events[self.seen:], scene.viewer)
        self.seen = len(events)
        if fresh:
            self.badges.append((fresh, Shown()))
        out: dict[str, list[str]] = {}
        keep = []
        for badges, shown in self.badges:
            if shown.tick(scene, 1, PAYOUT_SECONDS):
                keep.append((badges, shown))
                for rid, texts in badges.items():
                    out.setdefault(rid, []).extend(texts)
        self.badges = keep
        return out


def draw_payouts(scene, surface: pygame.Surface) -> None:
    """Each claim's payouts beside its route for a few seconds after it was made."""
    if "_legacy_pay" not in scene.memo:
        scene.memo["_legacy_pay"] = Payouts(len(scene.table.events))
    for rid, badges in scene.memo["_legacy_pay"].update(scene).items():
        try:
            centres = scene.map_view.space_centers(rid)
        except KeyError:
            continue
        if not centres:
            continue
        x, y = centres[len(centres) // 2]
        surfs = [style.text(text, 14, GOLD_DARK if not text.startswith("−") else style.BAD,
                            bold=True) for text in badges]
        stack = pygame.Rect(0, 0, max(t.get_width() for t in surfs), 22 * len(surfs))
        stack.midbottom = (int(x), int(y) - 8)
        stack.clamp_ip(scene.lay.map.inflate(-16, -12))      # inside the map's frame
        for k, t in enumerate(surfs):
            rect = t.get_rect(midtop=(stack.centerx, stack.y + 22 * k + 3))
            pygame.draw.rect(surface, EVENT_PAPER, rect.inflate(12, 6), border_radius=8)
            pygame.draw.rect(surface, GOLD, rect.inflate(12, 6), 2, border_radius=8)
            surface.blit(t, rect)


def paint_board(scene, surface: pygame.Surface) -> None:
    """Everything Legacy adds over the board scene (drawing only)."""
    game = scene.table
    seat = scene.viewer if scene.viewer is not None else game.current_seat
    info = game.view(seat).extra.get(rules.NAME)
    if not info:
        return
    seen = tuple(info.get("events_seen", ()))
    memo = scene.memo.setdefault("_legacy_news", {"seen": seen, "event": ""})
    if "shown" not in memo:
        memo["shown"] = Shown()
        memo["shown"].key = len(seen)      # what was there when the board opened is old news
    if len(seen) > len(memo["seen"]):
        memo["event"] = seen[-1]
    memo["seen"] = seen
    fresh = bool(memo["event"]) and memo["shown"].tick(scene, len(seen), ANNOUNCE_SECONDS)
    draw_coins(surface, scene.lay, info.get("coins", ()))
    draw_payouts(scene, surface)
    draw_event_card(surface, getattr(scene.lay, "aside", None) or scene.lay.map, info, fresh)
    if fresh and not game.is_over:
        left = memo["shown"].left
        draw_announcement(surface, scene.lay, memo["event"], min(1.0, left / ANNOUNCE_FADE))


WINDOW = WindowFamily(
    VARIANT,
    choices=(SetupChoice(VARIANT, VARIANT, "Legacy: Legends of the West", {}, NOTE),),
    event_lines=EVENT_LINES,
    part_labels={"coins": "Coins in hand", "trains_left": "Trains left"},
    painter=paint_board,
    aside_height=220,      # the event card (at most)
    aside_used=event_card_height,
    slip_words=("Bank slips", slip_caption),
    seat_options=seat_options,
    rules_page="40-legacy.md",
    rules_section="Legacy",
)
