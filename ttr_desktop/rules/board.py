"""The static board: a map compiled once per (map, ruleset) into index arrays.

Every copy of a game shares one Board; only ownership and cards change per
game. A Board holds public data only (the map, the ruleset, interned action
values) — never anything of a particular game. Rule modules may adjust a
Board while it is compiled (``compile`` hook): ferries set the wilds a route
requires, County Durham adds coal as a pay source.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ttr_desktop.maps.model import GameMap
from ttr_desktop.rules.actions import ClaimRoute, DrawFaceUp
from ttr_desktop.rules.claimrule import ClaimRule
from ttr_desktop.rules.graph import graph_for
from ttr_desktop.rules.payment import PaySpec, Wild, cards_of

if TYPE_CHECKING:
    from ttr_desktop.rules.claimrule import ClaimTerms
    from ttr_desktop.rules.ruleset import Ruleset


class Board:
    """Index arrays for one map under one ruleset."""

    def __init__(self, game_map: GameMap, ruleset: "Ruleset") -> None:
        self.map = game_map
        self.graph = g = graph_for(game_map)
        # Cards (rules/cards.py): names and roles by index.
        kinds = ruleset.cards
        self.card_names: tuple[str, ...] = tuple(k.name for k in kinds)
        self.card_index = {name: i for i, name in enumerate(self.card_names)}
        self.n_cards = len(self.card_names)
        self.colors: tuple[int, ...] = tuple(i for i, k in enumerate(kinds) if k.color)
        #: Card indices a face-up pick may take only as the first and only card.
        self.first_pick_only: frozenset[int] = frozenset(
            i for i, k in enumerate(kinds) if k.first_pick_only)
        #: Refresh groups: card indices that count together toward a display refresh.
        groups: dict[str, list[int]] = {}
        for i, k in enumerate(kinds):
            if k.refresh_group:
                groups.setdefault(k.refresh_group, []).append(i)
        self.refresh_groups: tuple[frozenset[int], ...] = tuple(
            frozenset(v) for v in groups.values())
        #: The one card that refreshes the display, when there is exactly one (else -1).
        self.refresh_single = (next(iter(self.refresh_groups[0]))
                               if len(self.refresh_groups) == 1
                               and len(self.refresh_groups[0]) == 1 else -1)
        #: Cards shuffled back and replaced when dealt at setup (Legacy newspapers).
        self.setup_redeal: frozenset[int] = frozenset(
            i for i, k in enumerate(kinds) if k.setup_redeal)
        self._wilds = [Wild(i, 1, k.wild_min_length) for i, k in enumerate(kinds) if k.wild]
        self._sources: list[tuple[str, int]] = []

        # Cities (from the shared route graph).
        self.city_ids = g.city_ids
        self.city_index = g.city_index
        self.n_cities = g.n_cities

        # Routes.
        self.routes = g.routes
        self.route_ids = g.route_ids
        self.route_index = g.route_index
        self.n_routes = g.n_routes
        self.r_a, self.r_b, self.r_len = g.r_a, g.r_b, g.r_len
        colours = set(ruleset.colours)
        for r in g.routes:
            if r.color != "gray" and r.color not in colours:
                raise ValueError(f"route {r.id} is {r.color}, a colour this ruleset's deck lacks")
        self.r_color = [self.card_index[r.color] if r.color != "gray" else -1 for r in g.routes]
        #: Wild units a claim must include (ferries raise it).
        self.r_min_locos = [0] * self.n_routes
        #: Route is a tunnel (the tunnels module acts on it).
        self.r_tunnel = g.r_tunnel
        self.r_points = [ruleset.route_points.get(r.length, 0) for r in g.routes]
        self.r_siblings = g.r_siblings
        self.city_routes = g.city_routes
        self.max_len = max(self.r_len, default=0)

        # Tickets.
        self.tickets = list(game_map.tickets)
        self.ticket_ids = [t.id for t in self.tickets]
        self.ticket_index = {t.id: i for i, t in enumerate(self.tickets)}
        self.t_a_place = [t.a for t in self.tickets]
        self.t_b_place = [t.b for t in self.tickets]
        #: First node of each end (a city's own index; for a country, its first end point).
        self.t_a = [g.places[t.a][0] for t in self.tickets]
        self.t_b = [g.places[t.b][0] for t in self.tickets]
        self.t_simple = [len(g.places[t.a]) == 1 and len(g.places[t.b]) == 1
                         and not g.sink[g.places[t.a][0]] and not g.sink[g.places[t.b][0]]
                         for t in self.tickets]
        self.t_points = [t.points for t in self.tickets]
        self.t_deck = [t.deck for t in self.tickets]
        for deck in set(self.t_deck):
            if deck not in ruleset.ticket_decks:
                raise ValueError(f"the map has {deck!r} tickets, a deck this ruleset lacks")

        # Interned actions (values are immutable; sharing them keeps move generation fast).
        self._claims: dict[tuple, ClaimRoute] = {}
        self.face_up_actions = [[DrawFaceUp(slot, name) for name in self.card_names]
                                for slot in range(max(ruleset.face_up_slots, 1))]

    # Compile-time hooks for modules ------------------------------------------
    def add_source(self, name: str, per_unit: int) -> int:
        """Add a pay source worth one wild per ``per_unit`` items (coal: 2); its pay index."""
        if name in self.card_index or any(n == name for n, _ in self._sources):
            raise ValueError(f"pay source {name!r} already exists")
        self._sources.append((name, per_unit))
        return self.n_cards + len(self._sources) - 1

    def finalize(self, terms: Sequence["ClaimTerms"] = ()) -> None:
        """Freeze the pay items, make the claim rule (``claim_rule``: the usual rule
        with the modules' ``terms``) and compile its one-wild payment tables.

        ``pay_table[r][c][k]`` is the ClaimRoute paying k cards of colour c plus the
        wild for the rest (k >= 1); ``all_locos[r]`` pays with the wild only. The
        tables exist only when the payment rule is simple (one wild card kind,
        usable on every route, no sources, no terms); they are read from the claim
        rule's own payments for a hand rich in every card. Otherwise move generation
        asks ``claim_rule`` for every route it considers.
        """
        wilds = list(self._wilds)
        for k, (name, per) in enumerate(self._sources):
            wilds.append(Wild(self.n_cards + k, per, 1))
        self.pay = PaySpec(self.card_names + tuple(n for n, _ in self._sources), self.colors,
                           tuple(wilds))
        self.n_pay = self.pay.size
        self.pay_index = {n: i for i, n in enumerate(self.pay.names)}
        #: Pay index -> name of the module source it spends ("" for a card).
        self.source_names = [""] * self.n_cards + [n for n, _ in self._sources]
        self.claim_rule = rule = ClaimRule(self, terms)
        self.simple = self.pay.is_simple() and rule.plain
        #: The only wild (the locomotive) when the rule is simple, else -1.
        self.loco = self.pay.wilds[0].index if self.simple else -1
        # Routes by colour, sorted by length: move generation looks only at affordable ones.
        self.affordable: dict[int, list[list[int]]] = {}
        for c in list(self.colors) + [-1]:
            rows = sorted((self.r_len[i], i) for i in range(self.n_routes)
                          if self.r_color[i] == c)
            lens = [ln for ln, _ in rows]
            ids = [i for _, i in rows]
            self.affordable[c] = [ids[:sum(1 for ln in lens if ln <= n)]
                                  for n in range(self.max_len + 1)]
        self.pay_table: list[dict[int, list[ClaimRoute | None]]] = []
        self.all_locos: list[ClaimRoute | None] = []
        self.canonical_claims: dict[int, list] = {}
        self.gray_claims: dict[int, list] = {}
        if not self.simple:
            return
        loco = self.loco
        for r in range(self.n_routes):
            length, color = self.r_len[r], self.r_color[r]
            rich = [length] * self.n_pay
            per_color: dict[int, list[ClaimRoute | None]] = {
                c: [None] * (length + 1) for c in self.colors if color < 0 or c == color}
            wilds_only = None
            for vec in rule.payments(r, rich):
                c = next((c for c in self.colors if vec[c]), -1)
                if c < 0:
                    wilds_only = self.claim_action(r, vec)
                else:
                    if vec[c] + vec[loco] != length or sum(vec) != length:
                        raise AssertionError(f"route {self.route_ids[r]}: {vec} is not "
                                             "one colour plus locomotives")
                    per_color[c][vec[c]] = self.claim_action(r, vec)
            self.pay_table.append(per_color)
            self.all_locos.append(wilds_only)
        self._build_canonical_claims()

    def _build_canonical_claims(self) -> None:
        """``canonical_claims[c][have][held]``: the canonical claims (the payment a
        player is offered first) of the routes of colour ``c`` no longer than ``have``
        (the colour's cards plus the locomotives, capped at the trains left), for a hand
        holding ``held`` cards of ``c`` (both capped at the longest route); the same for
        gray routes paid in colour ``c`` in ``gray_claims[c]`` (``gray_claims[-1]``:
        paid in locomotives only). Each is ``(plain, special)``: ``plain`` pairs
        ``(route, claim)`` of routes with no parallel track and no locomotive minimum,
        which only need to be open; ``special`` rows ``(route, claim, locomotives it
        must include, parallel routes)`` for the rest. Canonical move generation reads
        one row per colour held instead of working out each route's payment."""
        top = self.max_len

        def rows(routes: list[int], c: int) -> list[list[tuple[tuple, tuple]]]:
            out = []
            for have in range(top + 1):
                per_held = []
                for held in range(top + 1):
                    plain, special = [], []
                    for r in routes:
                        if self.r_len[r] > have or (c < 0 and held):
                            continue
                        min_locos, sib = self.r_min_locos[r], self.r_siblings[r]
                        most = self.r_len[r] - min_locos   # most cards of a colour it takes
                        table, wild_only = self.pay_table[r], self.all_locos[r]
                        claim = (table[c][held if held < most else most]
                                 if c >= 0 and held and most else wild_only)
                        if sib or min_locos:
                            special.append((r, claim, min_locos, sib))
                        else:
                            plain.append((r, claim))
                    per_held.append((tuple(plain), tuple(special)))
                out.append(per_held)
            return out

        by_colour: dict[int, list[int]] = {}
        for r in range(self.n_routes):
            by_colour.setdefault(self.r_color[r], []).append(r)
        self.canonical_claims = {c: rows(by_colour.get(c, []), c) for c in self.colors}
        gray = by_colour.get(-1, [])
        self.gray_claims = {c: rows(gray, c) for c in list(self.colors) + [-1]}

    # Payments ----------------------------------------------------------------
    def claim_payments(self, r: int, hand: list[int]) -> list[ClaimRoute]:
        """Every ClaimRoute the pay items in ``hand`` (a pay vector) can pay for route ``r``."""
        return [self.claim_action(r, vec) for vec in self.claim_rule.payments(r, hand)]

    def claim_action(self, route: int, vec) -> ClaimRoute:
        """The (interned) ClaimRoute paying pay vector ``vec`` for ``route``."""
        key = (route,) + tuple(vec)
        act = self._claims.get(key)
        if act is None:
            act = ClaimRoute(self.route_ids[route], cards_of(self.pay, vec))
            self._claims[key] = act
        return act

    def cards_tuple(self, vec) -> tuple[tuple[str, int], ...]:
        """The canonical (name, count) pairs of a pay vector."""
        return cards_of(self.pay, vec)

    def cards_tuple_from(self, counts: list[int]) -> tuple[tuple[str, int], ...]:
        """The canonical payment for a list of counts indexed like a pay vector."""
        return tuple(sorted((self.pay.names[i], n) for i, n in enumerate(counts) if n))

    def hand_from_cards(self, cards: tuple[tuple[str, int], ...]) -> list[int] | None:
        """Counts indexed like a pay vector, or None when a name is unknown."""
        out = [0] * self.n_pay
        index = self.pay_index
        for name, n in cards:
            i = index.get(name)
            if i is None or n < 0:
                return None
            out[i] += n
        return out
