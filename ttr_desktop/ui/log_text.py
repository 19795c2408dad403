"""Game-log lines: public events in words, private details only for the seat they belong to.

Every event gets a line: the kinds the core and the shipped modules emit have
their own wording; any other kind (a module's own) is logged from its
``describe()``, never dropped.
"""

from __future__ import annotations

from ttr_desktop.rules import Event, Game
from ttr_desktop.rules.payment import words
from ttr_desktop.rules.words import card_name, plural, plural_word  # noqa: F401

#: Events that are bookkeeping, not news, and get no line.
QUIET = frozenset({"turn_started", "face_up_replaced"})
#: Event kinds ``event_line`` words itself (the core's, stations' and tunnels').
WORDED = frozenset({
    "card_drawn", "route_claimed", "tickets_drawn", "tickets_kept", "ticket_completed",
    "station_built", "tunnel_revealed", "tunnel_abandoned", "tunnel_paid",
    "face_up_refreshed", "deck_reshuffled", "final_round", "passed", "stalemate",
    "game_over"})
#: Module event kinds -> a function making their line (families add theirs).
EVENT_LINES: dict[str, object] = {}
#: Module event kinds whose line sums up the whole turn (a passenger's finished move):
#: the news line of another seat's turn shows it first. Families add theirs.
SUMMARY_EVENTS: set[str] = set()


def article(word: str) -> str:
    """'a red', 'an orange'."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def card_words(name: str) -> str:
    """A card name as players say it."""
    return {"passenger": "passenger", "newspaper": "newspaper"}.get(name) or card_name(name)


def route_name(game: Game, route_id: str) -> str:
    """'Denver – Omaha'."""
    r = game.map.routes[route_id]
    return f"{game.map.cities[r.a].name} – {game.map.cities[r.b].name}"


def keep_words(game: Game, pending, kept) -> str:
    """Which of the ``pending`` tickets to keep, by name: 'keep Denver – El Paso, return
    Boston – Miami' ('keep all 3: ...' when none goes back)."""
    place = game.map.place_name

    def names(tickets) -> str:
        each = [f"{place(t.a)} – {place(t.b)}" for t in tickets]
        return each[0] if len(each) == 1 else ", ".join(each[:-1]) + " and " + each[-1]

    kept = set(kept)
    back = [t for t in pending if t.id not in kept]
    if not back:
        return (f"keep all {len(pending)}: " if len(pending) > 1 else "keep ") + names(pending)
    return f"keep {names([t for t in pending if t.id in kept])}, return {names(back)}"


def pay_words(cards) -> str:
    """A payment as the log shows it: '3 red + 2 locomotives' (event data may already be
    text: the engine's ``payment.words``, with the same plural rule)."""
    if isinstance(cards, str):
        return cards
    return words([tuple(p) for p in cards])


def event_line(event: Event, game: Game, viewer: int | None) -> str | None:
    """A log line for ``event`` as ``viewer`` may see it, or None for events not logged."""
    ev = event.visible_to(viewer)
    if ev is None:
        return None
    who = game.players[ev.seat] if ev.seat is not None and ev.seat < len(game.players) else ""
    d = ev.data
    kind = ev.kind
    if kind in QUIET:
        return None
    if kind == "card_drawn":
        if d["source"] == "face_up":
            return f"{who} took {article('face-up ' + card_words(d['card']))}."
        return (f"{who} drew {article(card_words(d['card']))} from the deck." if "card" in d
                else f"{who} drew a card from the deck.")
    if kind == "route_claimed":
        r = game.map.routes[d["route"]]
        pts = d.get("points", 0)
        gain = f": +{pts}" if pts else ""
        line = (f"{who} claimed {route_name(game, d['route'])} ({r.length}) with "
                f"{pay_words(d['cards'])}{gain}.")
        others: dict[int, int] = {}   # a seat owning both marked ends scores twice: one sum
        for seat, amount in d.get("scorers", ()):
            if seat != ev.seat and amount:
                others[seat] = others.get(seat, 0) + amount
        for seat, amount in others.items():
            line += f" {game.players[seat]} scores {amount}."
        return line
    if kind == "tickets_drawn":
        mix = ", ".join(f"{n} {deck}" for deck, n in d.get("mix", ()) if n)
        return f"{who} drew {plural(d['count'], 'destination ticket')}" + (
            f" ({mix})." if mix else ".")
    if kind == "tickets_kept":
        return f"{who} kept {plural(d['kept'], 'ticket')}" + (
            f" and returned {d['returned']}." if d["returned"] else ".")
    if kind == "ticket_completed" and "ticket" in d:
        t = next(t for t in game.map.tickets if t.id == d["ticket"])
        return (f"{who} completed {game.map.place_name(t.a)} – {game.map.place_name(t.b)} "
                f"({t.points}).")
    if kind == "station_built":
        return (f"{who} built a station in {game.map.cities[d['city']].name} "
                f"({pay_words(d['cards'])}).")
    if kind == "tunnel_revealed":
        cards = ", ".join(card_words(c) for c in d["cards"]) or "nothing"
        more = (f"{plural(d['extra'], 'more card')} needed" if d["extra"]
                else "nothing more to pay")
        return (f"{who} tries the tunnel {route_name(game, d['route'])}: revealed {cards} — "
                f"{more}.")
    if kind == "tunnel_abandoned":
        return f"{who} gave up the tunnel {route_name(game, d['route'])}."
    if kind == "tunnel_paid":
        return f"{who} paid {pay_words(d['cards'])} more for the tunnel."
    if kind == "face_up_refreshed":
        groups = sorted({k.refresh_group for k in game.ruleset.cards if k.refresh_group})
        if groups in ([], ["locomotive"]):
            return "Three locomotives face up: the display was replaced."
        # Several refresh groups (plain locomotives, passenger cards...): any one of them.
        alike = " or ".join("three " + ("locomotives" if g == "locomotive" else
                                        f"{card_words(g)} cards") for g in groups)
        return f"{alike[:1].upper()}{alike[1:]} face up: the display was replaced."
    if kind == "deck_reshuffled":
        return f"The discard pile was shuffled into a new deck ({plural(d['size'], 'card')})."
    if kind == "final_round":
        return (f"Final round! {who} has {plural(d['trains_left'], 'train')} left: everyone "
                "plays one more turn.")
    if kind == "passed":
        return f"{who} could not do anything and passed."
    if kind == "stalemate":
        return "Nobody can move any more: the game ends."
    if kind == "game_over":
        return "The game is over."
    maker = EVENT_LINES.get(kind)
    if maker is not None:
        return maker(ev, game)  # type: ignore[operator]
    return ev.describe(game.players) + "."


def turn_summary(events: list[Event], game: Game, seat: int) -> str | None:
    """One line saying what ``seat`` did in its turn (shown under the header); only what
    everyone at the table saw."""
    events = [e for e in (ev.visible_to(None) for ev in events) if e is not None]
    claimed = [e for e in events if e.kind == "route_claimed" and e.seat == seat]
    viewer = None
    who = game.players[seat]
    if claimed:
        d = claimed[-1].data
        pts = d.get("points", 0)
        return f"{who} claimed {route_name(game, d['route'])}" + (f" (+{pts})." if pts else ".")
    draws = [e for e in events if e.kind == "card_drawn" and e.seat == seat]
    if draws:
        faces = [card_words(e.data["card"]) for e in draws if e.data["source"] == "face_up"]
        blind = len(draws) - len(faces)
        parts = [f"took {article('face-up ' + c)}" for c in faces]
        if blind:
            parts.append(f"drew {plural(blind, 'card')} from the deck")
        return f"{who} " + " and ".join(parts) + "."
    kept = [e for e in events if e.kind == "tickets_kept" and e.seat == seat]
    if kept:
        if not any(e.kind == "tickets_drawn" for e in events):
            return f"{who} kept {plural(kept[-1].data['kept'], 'starting ticket')}."
        return f"{who} drew tickets and kept {kept[-1].data['kept']}."
    for e in reversed(events):
        if e.kind in SUMMARY_EVENTS and e.seat == seat:
            line = event_line(e, game, viewer)
            if line:
                return line
    for e in events:
        if e.seat == seat:
            line = event_line(e, game, viewer)
            if line:
                return line
    return None
