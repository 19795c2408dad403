"""The window's part of Märklin: the setup choice, the passenger panels and log lines.

- Setup offers "Märklin (Germany)".
- Placing a passenger after a claim: the panel asks "Place a passenger on Köln or
  Düsseldorf?" with one row per free city (the cities glow on the map; clicking one places
  it) and "No passenger".
- Moving a passenger (a turn action: click your passenger's city, or pick it in the chooser):
  the panel says where the passenger stands, the merchandise collected and the passenger
  cards paid so far; each row names the next city, whose route it is, what it costs and
  the token waiting there. The legal routes glow, the trail travelled so far is drawn in
  the seat's colour, and "Stop here" ends the move after the first step.
- Ticket mixes (short/long) are asked by the board's generic chooser, which offers only the
  mixes the engine lists (the feasible ones).
- +4 locomotives and passenger cards are drawn by ``ui.cards``; the score parts
  ``merchandise`` and ``most_tickets`` have their labels in ``WINDOW``.
"""

from __future__ import annotations

import pygame

from ttr_desktop.rules import Phase
from ttr_desktop.rules.modules.marklin import MOVE, PASSENGER_CARD, PLACE
from ttr_desktop.ui import style
from ttr_desktop.ui.families import SetupChoice, WindowFamily
from ttr_desktop.ui.log_text import plural
from ttr_desktop.ui.scenes.board_overlays import StepOverlay
from ttr_desktop.ui.scenes.board_port import port_of

NOTE = ("Germany: +4 locomotives for long routes, and 3 passengers each who ride the "
        "network collecting merchandise. +10 for the most completed tickets.")


def _city(game, city_id: str) -> str:
    return game.map.cities[city_id].name


def _extra(board) -> dict:
    g = board.table
    return g.view(g.current_seat).extra


class PlacePassengerOverlay(StepOverlay):
    """After a claim: which end city gets a passenger (or none)."""

    def row_text(self, action) -> str:
        g = self.board.table
        if action.kind == "place_passenger":
            stack = _extra(self.board).get("merchandise", {}).get(action.city_id) or ()
            goods = f" (goods here: {', '.join(map(str, stack))})" if stack else ""
            return f"Place a passenger on {_city(g, action.city_id)}{goods}"
        if action.kind == "decline":
            return "No passenger"
        return super().row_text(action)


class PassengerMoveOverlay(StepOverlay):
    """A passenger's move, one route at a time."""

    def title_text(self) -> str:
        g = self.board.table
        move = _extra(self.board).get("passenger_move") or {}
        if not move:
            return g.prompt()
        cards = g.view(g.current_seat).hand.get(PASSENGER_CARD, 0)
        here = _city(g, move["at"])
        if not move["used"]:
            head = f"Your passenger leaves {here}: choose the first route."
        else:
            paid = (f"; paid {plural(move['fare'], 'passenger card')}" if move["fare"]
                    else "")
            head = f"Your passenger is in {here}. Collected {move['gained']} so far{paid}."
        return f"{head} You hold {plural(cards, 'passenger card')}."

    def row_text(self, action) -> str:
        g = self.board.table
        if action.kind == "stop_passenger":
            return "Stop here"
        if action.kind != "passenger_step":
            return super().row_text(action)
        move = _extra(self.board).get("passenger_move") or {}
        r = g.map.routes[action.route_id]
        nxt = r.b if r.a == move.get("at") else r.a
        owner = g.view(g.current_seat).route_owners.get(action.route_id)
        if owner == g.current_seat:
            whose = "your route, free"
        else:
            whose = f"{g.players[owner]}'s route, 1 passenger card"
        stack = _extra(self.board).get("merchandise", {}).get(nxt) or ()
        fresh = nxt != move.get("start") and nxt not in move.get("visited", ())
        if fresh and stack:
            goods = f", +{stack[0]}"
        elif fresh:
            goods = ", no goods left"
        else:
            goods = ", no goods (visited)"
        return f"To {_city(g, nxt)} ({whose}{goods})"

    def draw(self, surface: pygame.Surface) -> None:
        move = _extra(self.board).get("passenger_move") or {}
        mv = self.board.map_view
        if move:
            rgb = self.board.rgb[move["seat"]]
            for rid in move["used"]:        # the trail so far: white on a dark edge
                mv.draw_route_glow(surface, rid, (25, 20, 15), 7)
                mv.draw_route_glow(surface, rid, (255, 255, 255), 3)
            mv.draw_city_ring(surface, move["at"], self.board.clock, rgb)
        super().draw(surface)




def movable_passengers(board) -> list[str]:
    """Cities whose passenger the person at the board may start moving now (their turn, no
    panel open)."""
    board = port_of(board)
    g = board.table
    if g.phase != Phase.TURN or not board.on_top() or not board.is_human_turn():
        return []
    return [a.city_id for a in g.legal_actions() if a.kind == "move_passenger"]


def paint_board(board, surface: pygame.Surface) -> None:
    """On a person's turn, a ring in their colour around each passenger that can move
    (click the city to start the move)."""
    cities = movable_passengers(board)
    if not cities:
        return
    rgb = board.rgb[board.table.current_seat]
    for cid in cities:
        board.map_view.draw_city_ring(surface, cid, board.clock * 0.3, rgb)




# Log lines -------------------------------------------------------------------------
def _who(event, game) -> str:
    return game.players[event.seat] if event.seat is not None else ""


def _placed(event, game) -> str:
    d = event.data
    return (f"{_who(event, game)} placed a passenger on {_city(game, d['city'])} "
            f"({d['left']} left in supply).")


def _started(event, game) -> str:
    return f"{_who(event, game)}'s passenger sets off from {_city(game, event.data['city'])}."


def _step(event, game) -> str:
    d = event.data
    fare = " for 1 passenger card" if d["fare"] else ""
    goods = f": merchandise +{d['token']}" if d["token"] else ""
    return (f"{_who(event, game)}'s passenger travels from {_city(game, d['from'])} to "
            f"{_city(game, d['to'])}{fare}{goods}.")


def _moved(event, game) -> str:
    d = event.data
    paid = f", {plural(d['fare'], 'passenger card')} paid" if d["fare"] else ""
    return (f"{_who(event, game)}'s passenger rode {plural(len(d['routes']), 'route')} from "
            f"{_city(game, d['from'])} to {_city(game, d['to'])}: +{d['points']} "
            f"merchandise{paid}. It leaves the game.")


WINDOW = WindowFamily(
    "marklin",
    choices=(SetupChoice("marklin", "marklin", "Märklin (Germany)", {}, NOTE),),
    overlays={PLACE: lambda board: PlacePassengerOverlay(board.app, board),
              MOVE: lambda board: PassengerMoveOverlay(board.app, board)},
    event_lines={"passenger_placed": _placed, "passenger_move_started": _started,
                 "passenger_step": _step, "passenger_moved": _moved},
    summary_events=frozenset({"passenger_moved"}),
    part_labels={"merchandise": "Merchandise", "most_tickets": "Most tickets"},
    painter=paint_board,
    rules_page="11-marklin.md",
    rules_section="Märklin",
)
