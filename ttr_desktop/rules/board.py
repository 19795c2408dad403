"""The static board: a map compiled once per (map, ruleset) into index arrays.

Every copy of a game shares one Board; only ownership and cards change per
game. Rule modules may adjust a Board while it is compiled (``compile`` hook),
e.g. ferries set the locomotives a route requires.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttr_desktop.maps.model import CARD_COLORS, GameMap
from ttr_desktop.rules.actions import ClaimRoute, DrawFaceUp

if TYPE_CHECKING:
    from ttr_desktop.rules.ruleset import Ruleset

LOCO = len(CARD_COLORS)  # index of "locomotive" in a hand


class Board:
    """Index arrays for one map under one ruleset."""

    def __init__(self, game_map: GameMap, ruleset: "Ruleset") -> None:
        self.map = game_map
        self.card_names: tuple[str, ...] = ruleset.card_names
        self.card_index = {name: i for i, name in enumerate(self.card_names)}
        self.n_cards = len(self.card_names)
        self.n_colors = len(CARD_COLORS)
        #: Card indices a face-up pick may take only as the first and only card.
        self.first_pick_only: frozenset[int] = frozenset({LOCO})
        #: Card indices that count toward the face-up refresh.
        self.refresh_cards: frozenset[int] = frozenset({LOCO})

        # Cities.
        self.city_ids: list[str] = list(game_map.cities)
        self.city_index = {cid: i for i, cid in enumerate(self.city_ids)}
        self.n_cities = len(self.city_ids)

        # Routes.
        routes = game_map.route_list()
        self.routes = routes
        self.route_ids = [r.id for r in routes]
        self.route_index = {r.id: i for i, r in enumerate(routes)}
        self.n_routes = len(routes)
        self.r_a = [self.city_index[r.a] for r in routes]
        self.r_b = [self.city_index[r.b] for r in routes]
        self.r_len = [r.length for r in routes]
        self.r_color = [self.card_index[r.color] if r.color != "gray" else -1 for r in routes]
        #: Locomotives a claim must include (ferries raise it).
        self.r_min_locos = [0] * self.n_routes
        #: Route is a tunnel (the tunnels module acts on it).
        self.r_tunnel = [bool(r.tunnel) for r in routes]
        self.r_points = [ruleset.route_points.get(r.length, 0) for r in routes]
        groups: dict[str, list[int]] = {}
        for i, r in enumerate(routes):
            groups.setdefault(r.group, []).append(i)
        self.r_siblings: list[tuple[int, ...]] = [
            tuple(j for j in groups[r.group] if j != i) for i, r in enumerate(routes)]
        # Routes by colour, sorted by length: move generation looks only at affordable ones.
        self.by_color_len: list[list[int]] = []
        self.by_color_route: list[list[int]] = []
        for c in list(range(self.n_colors)) + [-1]:
            rows = sorted((self.r_len[i], i) for i in range(self.n_routes) if self.r_color[i] == c)
            self.by_color_len.append([ln for ln, _ in rows])
            self.by_color_route.append([i for _, i in rows])
        #: ``affordable[c][n]``: routes of colour c (index n_colors = gray) of length <= n,
        #: for n up to the longest route — a lookup instead of a search per turn.
        self.max_len = max(self.r_len, default=0)
        self.affordable = [[routes[:sum(1 for ln in lens if ln <= n)]
                            for n in range(self.max_len + 1)]
                           for lens, routes in zip(self.by_color_len, self.by_color_route)]
        self.city_routes: list[list[int]] = [[] for _ in range(self.n_cities)]
        for i in range(self.n_routes):
            self.city_routes[self.r_a[i]].append(i)
            self.city_routes[self.r_b[i]].append(i)

        # Tickets.
        self.tickets = list(game_map.tickets)
        self.ticket_ids = [t.id for t in self.tickets]
        self.ticket_index = {t.id: i for i, t in enumerate(self.tickets)}
        self.t_a = [self.city_index[t.a] for t in self.tickets]
        self.t_b = [self.city_index[t.b] for t in self.tickets]
        self.t_points = [t.points for t in self.tickets]
        self.t_deck = ["long" if t.long else "regular" for t in self.tickets]

        # Interned actions (values are immutable; sharing them keeps move generation fast).
        self.keep_cache: dict[tuple, list] = {}
        self._claims: dict[tuple[int, int, int, int], ClaimRoute] = {}
        self.face_up_actions = [[DrawFaceUp(slot, name) for name in self.card_names]
                                for slot in range(max(ruleset.face_up_slots, 1))]

    def finalize(self) -> None:
        """Build the per-route payment tables once the modules have adjusted the board.

        ``pay_table[r][c][k]`` is the ClaimRoute paying k cards of colour c plus
        locomotives for the rest (k >= 1); ``all_locos[r]`` pays with locomotives only.
        """
        self.pay_table: list[list[list[ClaimRoute] | None]] = []
        self.all_locos: list[ClaimRoute] = []
        for r in range(self.n_routes):
            length, color = self.r_len[r], self.r_color[r]
            per_color: list[list[ClaimRoute] | None] = []
            for c in range(self.n_colors):
                if color >= 0 and c != color:
                    per_color.append(None)
                    continue
                per_color.append([self.claim_action(r, c, k, length - k) if k else None
                                  for k in range(length + 1)])
            self.pay_table.append(per_color)
            self.all_locos.append(self.claim_action(r, -1, 0, length))

    def claim_payments(self, r: int, hand: list[int]) -> list[ClaimRoute]:
        """Every ClaimRoute the hand can pay for route ``r`` (one colour, locomotives wild)."""
        length, color, min_locos = self.r_len[r], self.r_color[r], self.r_min_locos[r]
        locos = hand[LOCO]
        if locos < min_locos:
            return []
        lo = length - locos
        if lo < 1:
            lo = 1
        top = length - min_locos
        table = self.pay_table[r]
        out: list[ClaimRoute] = []
        if color >= 0:
            hi = hand[color]
            if hi > top:
                hi = top
            if hi >= lo:
                out = table[color][lo:hi + 1]
        else:
            for c in range(self.n_colors):
                hi = hand[c]
                if hi > top:
                    hi = top
                if hi >= lo:
                    out.extend(table[c][lo:hi + 1])
        if locos >= length:
            out.append(self.all_locos[r])
        return out

    def cards_tuple(self, color: int, n_color: int, n_loco: int) -> tuple[tuple[str, int], ...]:
        """The canonical payment for n_color cards of ``color`` plus n_loco locomotives."""
        parts = []
        if n_color:
            parts.append((self.card_names[color], n_color))
        if n_loco:
            parts.append((self.card_names[LOCO], n_loco))
        return tuple(sorted(parts))

    def cards_tuple_from(self, counts: list[int]) -> tuple[tuple[str, int], ...]:
        """The canonical payment for a list of counts indexed like a hand."""
        return tuple(sorted((self.card_names[i], n) for i, n in enumerate(counts) if n))

    def claim_action(self, route: int, color: int, n_color: int, n_loco: int) -> ClaimRoute:
        """The (interned) ClaimRoute for this payment."""
        key = (route, color if n_color else -1, n_color, n_loco)
        act = self._claims.get(key)
        if act is None:
            act = ClaimRoute(self.route_ids[route], self.cards_tuple(color, n_color, n_loco))
            self._claims[key] = act
        return act

    def hand_from_cards(self, cards: tuple[tuple[str, int], ...]) -> list[int] | None:
        """Card counts indexed like a hand, or None when a card name is unknown."""
        out = [0] * self.n_cards
        for name, n in cards:
            i = self.card_index.get(name)
            if i is None or n < 0:
                return None
            out[i] += n
        return out


def set_payments(length: int, color: int, min_locos: int, hand: list[int],
                 n_colors: int) -> list[tuple[int, int, int]]:
    """Every way to pay ``length`` cards of one colour with locomotives wild.

    ``color`` -1 means any one colour (gray). At least ``min_locos`` of the
    cards must be locomotives. Returns (colour, colour cards, locomotives)
    triples; the all-locomotive payment appears once, with colour -1.
    """
    locos = hand[LOCO]
    if locos < min_locos:
        return []
    out = []
    lo = length - locos
    if lo < 1:
        lo = 1
    top = length - min_locos
    for c in (range(n_colors) if color < 0 else (color,)):
        hi = hand[c]
        if hi > top:
            hi = top
        for k in range(lo, hi + 1):
            out.append((c, k, length - k))
    if locos >= length:
        out.append((-1, 0, length))
    return out
