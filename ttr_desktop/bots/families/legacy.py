"""What the bots know of Legacy: Legends of the West — they play for dollars.

Routes score nothing, so a claim is worth what it brings in dollars now or later:

- the **company bonus** of a route in the seat's company colour (doubled while "Right of
  way" is the current event);
- the **current event**: "Railway improvements" pays $2 for a route of 3 or more, Mama
  O'Connell's fee costs $2 on a red route;
- the **large-city card**: a free train card, worth about half a drawing turn;
- the **trains-left table**: the dollars the table would pay after the claim minus what
  it pays now (using trains pays: $16 for none left, nothing for 11 or more).

The greedy bot's ticket planning is kept (tickets are dollars won or lost). With no
ticket route to build, instead of drawing more tickets late, the bot claims the route
that adds most to its slip — the table, the company and the large cities — preferring
long routes that run its trains down toward the $16 line; near the end it takes the
claim worth most in dollars. Events need no decision in the first game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ttr_desktop.bots.families import AsMeasuredPolicy, FamilyPolicy
from ttr_desktop.rules.modules.legacy import NAME, event, trains_left_dollars

if TYPE_CHECKING:
    from ttr_desktop.rules.actions import Action
    from ttr_desktop.rules.view import PlayerView

#: Dollars a large-city card is worth (about half of a two-card drawing turn).
CITY_CARD_VALUE = 0.8
#: With no ticket route to build: value per train of a claim (trains run down to the table).
TRAIN_VALUE = 0.4
#: The bot draws more tickets only with more trains than this left.
TICKET_TRAINS = 12
#: Claim values kept (per board, trains, company and event terms) before starting again.
CLAIM_VALUES_KEPT = 4096


def company_dollars(view: "PlayerView", route: int) -> float:
    """The company bonus claiming ``route`` pays ``view``'s seat now."""
    info = view.extra.get(NAME) or {}
    g = view.graph
    companies = info.get("companies", ())
    if view.seat >= len(companies) or g.r_color[route] != companies[view.seat]:
        return 0.0
    amount = float(info.get("company_bonus", 1))
    cur = info.get("current_event")
    if cur and event(cur).effect == "company_bonus_times":
        amount *= event(cur).param("factor")
    return amount


def event_dollars(view: "PlayerView", route: int) -> float:
    """What the current ongoing event does to a claim of ``route`` (+ pays, − costs)."""
    cur = (view.extra.get(NAME) or {}).get("current_event")
    if not cur:
        return 0.0
    ev = event(cur)
    g = view.graph
    if ev.effect == "claim_length_pays" and g.r_len[route] >= ev.param("length"):
        return float(ev.param("amount"))
    if ev.effect == "claim_colour_fee" and g.r_color[route] == ev.param("colour"):
        return -float(min(ev.param("amount"), max(0, view.points[view.seat])))
    return 0.0


def large_city_value(view: "PlayerView", route: int) -> float:
    """A large city at either end: one more train card."""
    g = view.graph
    cities = view.map.cities
    ends = (g.city_ids[g.r_a[route]], g.city_ids[g.r_b[route]])
    return CITY_CARD_VALUE if any(c in cities and cities[c].large for c in ends) else 0.0


def table_dollars(view: "PlayerView", route: int) -> float:
    """What the trains-left table gains by claiming ``route`` now."""
    trains = view.trains_left[view.seat]
    after = trains - view.graph.r_len[route]
    return float(trains_left_dollars(after) - trains_left_dollars(trains)) if after >= 0 else 0.0


class LegacyPolicy(AsMeasuredPolicy):
    """Dollars, not points."""

    variants = ("legacy",)

    # Hard plans and keeps tickets as in the base families, and values its own dollars
    # besides the margin (``FamilyPolicy``'s settings, not the as-measured ones). Legacy
    # pays most of its dollars for tickets, and at three seats the winner mostly had more
    # ticket dollars than Hard: 3-player Legacy, Hard against two Normals, 100 games at 100
    # rounds a move on the same seeds (1-100), with all three: 46% to 52% wins, 33.6 to 35.4
    # dollars a game, failed tickets 0.31 to 0.15; keeps by the best mean alone: 49%,
    # 33.1 dollars, 0.24 failed. (A win bonus scaled to Legacy's dollars, 15 instead of
    # 50: 49%, 33.8 dollars; a ticket draw searched down to 9 of its 20 trains: no change.)
    search_points_weight = FamilyPolicy.search_points_weight
    search_plan_orders = FamilyPolicy.search_plan_orders
    search_keeps_by_mean = FamilyPolicy.search_keeps_by_mean

    def __init__(self) -> None:
        #: (board, trains, company, bonus, event terms) -> (board, claim values)
        self._claim_values: dict[tuple, tuple[Any, list[float]]] = {}

    def route_bonus(self, view: "PlayerView", route: int) -> float:
        return (company_dollars(view, route) + event_dollars(view, route)
                + large_city_value(view, route) + table_dollars(view, route))

    def turn_choice(self, turn: Any, legal: Sequence["Action"]) -> "Action | None":
        """With no ticket route left to build: the claim that adds most to the slip (long
        routes run the trains down to the table) rather than a claim for points."""
        view = turn.view
        if view.phase != "turn" or turn.plan.routes:
            return None
        claims = turn._claims_by_route()
        if not claims:
            return None
        trains = turn.sit.trains
        if turn.by_kind.get("draw_tickets") and not view.final_round and \
                trains > TICKET_TRAINS and turn.opponent_trains > TICKET_TRAINS:
            return None  # room for another ticket: the greedy bot draws one
        g = view.graph

        def value(r: int) -> tuple:
            gain = self.route_bonus(view, r) + TRAIN_VALUE * g.r_len[r]
            for t in turn.open_tickets:
                if turn.sit.connected(t.a, t.b, (r,)):
                    gain += 2 * t.points
            return (gain, -turn._min_locos(claims[r]), -r)

        r = max(claims, key=value)
        if value(r)[0] <= 0:
            return None
        return turn._payment(claims[r], r)

    def rollout_claim_values(self, rollout: Any, game: Any, seat: int) -> list[float]:
        """Dollars of each claim in a rollout, as ``route_bonus`` weighs them for a view:
        the trains-left table, the company bonus, the current event and the large-city
        card, plus the trains run down toward the table. Without it a rollout would claim
        for route points, which Legacy does not pay, and misjudge the table's $16."""
        b = game.board
        st = game.state.ext[NAME]
        trains = game.state.trains[seat]
        now = trains_left_dollars(trains)
        company = b.card_index.get(st.companies[seat], -2)
        bonus = float(game.ruleset.knob("company_bonus_dollars", 1))
        cur = event(st.current) if st.current else None
        long_pays = fee_colour = -2
        amount = 0.0
        if cur is not None:
            if cur.effect == "company_bonus_times":
                bonus *= cur.param("factor")
            elif cur.effect == "claim_length_pays":
                long_pays, amount = cur.param("length"), float(cur.param("amount"))
            elif cur.effect == "claim_colour_fee":
                fee_colour = b.card_index.get(cur.param("colour"), -2)
                amount = float(min(cur.param("amount"), max(0, game.state.points[seat])))
        # The values change only with the trains, the company and the event's terms: a
        # rollout asks for them every turn once its tickets are built, so each answer is
        # kept (and shared, never changed by the caller: the rollout then finds its routes
        # already in order of value instead of sorting them again).
        key = (id(b), trains, company, bonus, long_pays, fee_colour, amount)
        known = self._claim_values.get(key)
        if known is not None and known[0] is b:
            return known[1]
        if len(self._claim_values) >= CLAIM_VALUES_KEPT:
            self._claim_values.clear()
        large = _large_routes(game.map, b)
        out = []
        for r, length in enumerate(b.r_len):
            if length > trains:
                out.append(-1.0)
                continue
            v = trains_left_dollars(trains - length) - now + TRAIN_VALUE * length
            c = b.r_color[r]
            if c == company:
                v += bonus
            if c == fee_colour:
                v -= amount
            if long_pays >= 0 and length >= long_pays:
                v += amount
            if large[r]:
                v += CITY_CARD_VALUE
            out.append(v)
        self._claim_values[key] = (b, out)
        return out


_LARGE: dict[str, tuple[Any, list[bool]]] = {}


def _large_routes(game_map: Any, board: Any) -> list[bool]:
    """Per route index: does it touch a large city (cached per map, as ``graph_for``)."""
    cached = _LARGE.get(game_map.id)
    if cached is not None and cached[0] is game_map:
        return cached[1]
    cities = game_map.cities
    ids = board.city_ids

    def large(i: int) -> bool:
        c = cities.get(ids[i])
        return bool(c and c.large)

    found = [large(a) or large(z) for a, z in zip(board.r_a, board.r_b)]
    _LARGE[game_map.id] = (game_map, found)
    return found
