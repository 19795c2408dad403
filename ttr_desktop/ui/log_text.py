"""Game-log lines: public events in words, private details only for the seat they belong to."""

from __future__ import annotations

from ttr_desktop.rules import Event, Game


def route_name(game: Game, route_id: str) -> str:
    """'Denver – Omaha'."""
    r = game.map.routes[route_id]
    return f"{game.map.cities[r.a].name} – {game.map.cities[r.b].name}"


def event_line(event: Event, game: Game, viewer: int | None) -> str | None:
    """A log line for ``event`` as ``viewer`` may see it, or None for events not logged."""
    ev = event.visible_to(viewer)
    if ev is None:
        return None
    who = game.players[ev.seat] if ev.seat is not None else ""
    d = ev.data
    kind = ev.kind
    if kind == "card_drawn":
        if d["source"] == "face_up":
            return f"{who} took a face-up {d['card']}."
        return f"{who} drew a {d['card']} from the deck." if "card" in d else \
            f"{who} drew a card from the deck."
    if kind == "route_claimed":
        r = game.map.routes[d["route"]]
        return (f"{who} claimed {route_name(game, d['route'])} ({r.length}) with "
                f"{d['cards']}: +{d['points']}.")
    if kind == "tickets_drawn":
        return f"{who} drew {d['count']} destination tickets."
    if kind == "tickets_kept":
        return f"{who} kept {d['kept']} ticket(s)" + (
            f" and returned {d['returned']}." if d["returned"] else ".")
    if kind == "ticket_completed" and "ticket" in d:
        t = next(t for t in game.map.tickets if t.id == d["ticket"])
        return (f"{who} completed {game.map.cities[t.a].name} – {game.map.cities[t.b].name} "
                f"({t.points}).")
    if kind == "station_built":
        return f"{who} built a station in {game.map.cities[d['city']].name} ({d['cards']})."
    if kind == "tunnel_revealed":
        cards = ", ".join(d["cards"]) or "nothing"
        return (f"{who} tries the tunnel {route_name(game, d['route'])}: revealed {cards} — "
                f"{d['extra']} more card(s) needed.")
    if kind == "tunnel_abandoned":
        return f"{who} gave up the tunnel {route_name(game, d['route'])}."
    if kind == "tunnel_paid":
        return f"{who} paid {d['cards']} more for the tunnel."
    if kind == "face_up_refreshed":
        return "Three locomotives face up: the display was replaced."
    if kind == "deck_reshuffled":
        return f"The discard pile was shuffled into a new deck ({d['size']} cards)."
    if kind == "final_round":
        return (f"Final round! {who} has {d['trains_left']} train(s) left: everyone plays "
                "one more turn.")
    if kind == "passed":
        return f"{who} could not do anything and passed."
    if kind == "stalemate":
        return "Nobody can move any more: the game ends."
    if kind == "game_over":
        return "The game is over."
    return None
