"""Old West in the window: home cities, city markers and Alvin the Alien.

- Setup offers "Old West" and "Old West with Alvin" (2-6 seats).
- Choosing a home city: the panel lists the free cities of the seat's tickets first; every
  city that may be chosen glows on the map and the tickets' cities get a ring in the seat's
  colour; a click on one (on the map or in the list) chooses it.
- After a claim: "Place a city marker on Boise or Salt Lake City for a pair?" with one row
  per end and pair that can be paid (plain pairs first) and "No marker", always shown.
- Capturing Alvin with several cities: "Move Alvin to ..." rows (the cities glow too).
- Home cities, markers and Alvin are city tokens (``token_art``), drawn in the seat's
  colour; the player rows show each seat's markers left and who holds Alvin.
- A route's tooltip says who its points would go to when an end is marked (the engine's
  claim problem already says when it is not connected to the player's network).
- Log lines for home cities, markers, Alvin's capture and move; the route line already
  names who scores a redirected route. The score parts have labels in ``scoring_words``.
"""

from __future__ import annotations

import pygame

from ttr_desktop.rules.modules.old_west import CHOOSE_HOME, MOVE_ALVIN, PLACE_MARKER
from ttr_desktop.ui import log_text, style
from ttr_desktop.ui.families import SetupChoice, WindowFamily
from ttr_desktop.ui.scenes import board_overlays as ov

VARIANT = "old-west"
NOTE = ("The western United States, 2-6 players. Every route grows your network from "
        "your home city; city markers send route points to you. +15 for the most tickets.")
NOTE_ALVIN = ("Old West, 2-6 players, with Alvin the Alien: claim a route into his city for "
              "+10; his holder takes +10 more at the end.")


def _city(game, cid: str) -> str:
    return game.map.cities[cid].name


# Log lines --------------------------------------------------------------------------
def _home_chosen(ev, game) -> str:
    return f"{game.players[ev.seat]} chose {_city(game, ev.data['city'])} as home city."


def _marker_placed(ev, game) -> str:
    left = ev.data.get("left")
    tail = f"; {log_text.plural(left, 'marker')} left." if left is not None else "."
    return (f"{game.players[ev.seat]} placed a city marker on {_city(game, ev.data['city'])} "
            f"({log_text.pay_words(ev.data['cards'])}){tail}")


def _alvin_captured(ev, game) -> str:
    d = ev.data
    before = d.get("from", -1)
    frm = f" from {game.players[before]}" if before is not None and before >= 0 else ""
    return (f"{game.players[ev.seat]} captured Alvin the Alien in {_city(game, d['city'])}"
            f"{frm}: +{d.get('points', 10)}.")


def _alvin_moved(ev, game) -> str:
    return f"{game.players[ev.seat]} took Alvin to {_city(game, ev.data['city'])}."




# Route tooltips ----------------------------------------------------------------------
def scorer_words(game, route_id: str, claimant: int) -> str | None:
    """Who scores ``route_id`` if ``claimant`` claims it now, when a marked end changes that:
    'Scores for Bob (marker on Boise)', 'Scores twice for Bob (both ends)', 'Scores for you
    and Bob (markers on ...)'; None when the claimant simply scores it."""
    view = game.view(claimant)
    marks = view.extra.get("city_markers", {})
    r = game.map.routes[route_id]
    ends = [(c, marks[c]) for c in (r.a, r.b) if c in marks]
    if not ends:
        return None
    pts = game.ruleset.route_points.get(r.length, 0)

    def who(seat: int) -> str:
        return "you" if seat == claimant else game.players[seat]

    def whose(seat: int) -> str:
        return "yours" if seat == claimant else f"{game.players[seat]}'s"

    owners = [o for _, o in ends]
    if len(ends) == 2 and owners[0] == owners[1]:
        return (f"Both ends {whose(owners[0])}: {log_text.plural(2 * pts, 'point')} to "
                f"{who(owners[0])}")
    if len(ends) == 2:
        return (f"{log_text.plural(pts, 'point')} each to {who(owners[0])} and "
                f"{who(owners[1])} (both ends marked)")
    city, owner = ends[0]
    if owner == claimant:
        return None
    return f"{log_text.plural(pts, 'point')} to {who(owner)} (marker on {_city(game, city)})"


def _route_tip(board, route_id: str) -> list:
    g = board.table
    if not g.has_module("old_west"):
        return []
    seat = board.viewer if board.viewer is not None else g.current_seat
    words = scorer_words(g, route_id, seat)
    return [(line, style.INK, False) for line in style.wrap(words, 15, 380)] if words else []




# Overlays ---------------------------------------------------------------------------
class _OrderedStep(ov.StepOverlay):
    """The step panel with the family's own order of rows; the decline stays visible (and
    on a number key) when not every row fits."""

    def order(self, actions: list) -> list:
        return actions

    def layout(self) -> None:
        super().layout()
        acts = self.order(list(self.actions))
        room = min(len(self.rows), 9)
        if len(acts) > room:
            tail = [a for a in acts if a.kind == "decline"]
            head = [a for a in acts if a.kind != "decline"]
            acts = head[:room - len(tail)] + tail + head[room - len(tail):]
        self.actions = acts


class HomeCityOverlay(_OrderedStep):
    """Choose a home city: the tickets' free cities first, every free city on the map."""

    def _ticket_counts(self) -> dict[str, int]:
        g = self.board.table
        counts: dict[str, int] = {}
        for t in g.view(g.current_seat).tickets:
            for place in (t.a, t.b):
                counts[place] = counts.get(place, 0) + 1
        return counts

    def order(self, actions: list) -> list:
        counts = self._ticket_counts()
        g = self.board.table
        return sorted(actions, key=lambda a: (-counts.get(a.city_id, 0), _city(g, a.city_id)))

    def title_text(self) -> str:
        g = self.board.table
        return (f"{g.players[g.current_seat]}: choose your home city. Your first route starts "
                "there and every later one must touch your network. Your tickets' cities are "
                "ringed; click any glowing city.")

    def row_text(self, action) -> str:
        if action.kind != "choose_home_city":
            return super().row_text(action)
        n = self._ticket_counts().get(action.city_id, 0)
        name = _city(self.board.table, action.city_id)
        return f"{name} (on {log_text.plural(n, 'ticket')})" if n else name

    def hint_words(self, action) -> str:
        if action.kind != "choose_home_city":
            return super().hint_words(action)
        return f"make {_city(self.board.table, action.city_id)} your home city"

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        g = self.board.table
        mv = self.board.map_view
        rgb = self.board.rgb[g.current_seat]
        free = {a.city_id for a in self.actions}
        for cid in self._ticket_counts():
            pos = mv.city_pos.get(cid)
            if pos is None:
                continue
            r = int(mv.marker_radius(cid)) + 7
            pygame.draw.circle(surface, (255, 255, 255), (int(pos[0]), int(pos[1])), r + 2, 2)
            pygame.draw.circle(surface, rgb if cid in free else style.INK_SOFT,
                               (int(pos[0]), int(pos[1])), r, 3)


class PlaceMarkerOverlay(_OrderedStep):
    """After a claim: a marker on either end for a pair, or none."""

    def order(self, actions: list) -> list:
        def key(a):
            if a.kind != "place_city_marker":
                return (1, 0, "", ())
            locos = sum(n for name, n in a.cards if name == "locomotive")
            return (0, locos, a.city_id, a.cards)
        return sorted(actions, key=key)

    def title_text(self) -> str:
        g = self.board.table
        left = g.view(g.current_seat).extra.get("markers_left", ())
        n = left[g.current_seat] if g.current_seat < len(left) else 0
        return (f"{g.prompt()} Routes into your marked cities score for you "
                f"({log_text.plural(n, 'marker')} left).")

    def _say(self, action, marker: str, none: str) -> str | None:
        """A marker choice in words (``marker`` with {city} and {pay}; ``none`` for no
        marker), or None for another action."""
        if action.kind == "place_city_marker":
            return marker.format(city=_city(self.board.table, action.city_id),
                                 pay=log_text.pay_words(action.cards))
        return none if action.kind == "decline" else None

    def row_text(self, action) -> str:
        return self._say(action, "Marker on {city}: pay {pay}", "No marker") \
            or super().row_text(action)

    def hint_words(self, action) -> str:
        return self._say(action, "place a marker on {city}, paying {pay}", "place no marker") \
            or super().hint_words(action)


class MoveAlvinOverlay(ov.StepOverlay):
    """Where the captured Alvin goes: one of the captor's cities."""

    def row_text(self, action) -> str:
        if action.kind == "move_alvin":
            return f"Move Alvin to {_city(self.board.table, action.city_id)}"
        return super().row_text(action)


def _mine(board) -> bool:
    return board.table.has_module("old_west")


WINDOW = WindowFamily(
    VARIANT,
    choices=(SetupChoice(VARIANT, VARIANT, "Old West", {}, NOTE),
             SetupChoice("old-west-alvin", VARIANT, "Old West with Alvin", {"alvin": True},
                         NOTE_ALVIN)),
    overlays={
        CHOOSE_HOME: lambda b: HomeCityOverlay(b.app, b) if _mine(b) else None,
        PLACE_MARKER: lambda b: PlaceMarkerOverlay(b.app, b) if _mine(b) else None,
        MOVE_ALVIN: lambda b: MoveAlvinOverlay(b.app, b) if _mine(b) else None,
    },
    event_lines={"home_city_chosen": _home_chosen, "city_marker_placed": _marker_placed,
                 "alvin_captured": _alvin_captured, "alvin_moved": _alvin_moved},
    part_labels={"alvin": "Alvin the Alien", "most_tickets": "Most tickets"},
    route_tip=_route_tip,
    rules_page="09-old-west.md",
    rules_section="Old West",
)
