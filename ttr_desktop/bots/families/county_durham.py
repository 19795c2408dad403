"""What the bots know of County Durham: coal is worth picking up, spending with care,
and keeping for the +10 most / -5 least coal bonuses near the end.

- Picking up: a route with coal at an end is worth a little more (the token's value,
  below). With coal at both ends the bot takes the token an opponent would reach first
  (the end with more open tracks) and leaves the one at the quieter station.
- Spending: the greedy turn is played as usual; when it claims, its payment is priced
  again with coal counted at its worth: each token is worth ``COAL_VALUE`` cards (two
  coal are a wild, so spending them for a colour card the plan does not miss is a loss,
  for a locomotive or a card the plan needs a gain), plus — growing as the trains run
  down — what spending them does to the coal bonuses (losing the lead on most coal,
  falling to the least).
- The end: from half-way through the end game, a claim paid with coal that would cost
  coal bonus points is weighed: off the plan it is made only when its points beat the
  bonus lost; on the plan (but completing no ticket yet) it waits for cards, outside the
  final round. A claim that completes a ticket is always made.

Head to head against the same greedy bot without this policy (2 players, 200 games):
58% of the wins, 128 points against 116.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ttr_desktop.bots.cards import locos_in, minus_cards, shortfall
from ttr_desktop.bots.families import LateTicketsPolicy
from ttr_desktop.bots.graph import graph_for
from ttr_desktop.rules.modules.county_durham import COAL, TAKE_COAL
from ttr_desktop.rules.words import plural

if TYPE_CHECKING:
    from ttr_desktop.rules.actions import Action
    from ttr_desktop.rules.view import PlayerView

#: What one coal token is worth, in cards, while the game is young (2 coal = 1 wild).
COAL_VALUE = 0.6
#: What a card (a locomotive) is worth against coal when paying.
CARD_VALUE = 1.0
LOCO_VALUE = 2.0
#: The coal bonuses count fully once the shortest train supply is this low...
BONUS_FULL_AT = 8
#: ...and not at all while it is above this.
BONUS_FROM = 32
MOST_COAL, LEAST_COAL = 10, -5
#: Near the end, a claim on the plan that only coal can pay and that would cost this many
#: bonus points is put off for a card draw (with this chance, so it is not put off forever).
DEFER_PLAN = 1
DEFER_LOSS = 5
DEFER_CHANCE = 1.0
#: ...from this end-game weight on (see ``endgame_weight``).
DEFER_FROM = 0.5


def coal_of(view: "PlayerView") -> tuple[int, ...]:
    """Every seat's coal in hand."""
    return tuple(view.extra.get(COAL, {}).get("held", ()))


def coal_standing(held: Sequence[int], seat: int, mine: int) -> int:
    """The coal bonuses ``seat`` would score holding ``mine`` (every tie scores in full)."""
    others = [n for s, n in enumerate(held) if s != seat]
    if not others:
        return 0
    points = 0
    if mine >= max(others):
        points += MOST_COAL
    if mine <= min(others):
        points += LEAST_COAL
    return points


def endgame_weight(view: "PlayerView") -> float:
    """0 early, rising to 1 as the shortest train supply runs down (the end draws near)."""
    if view.final_round:
        return 1.0
    low = min(view.trains_left)
    if low <= BONUS_FULL_AT:
        return 1.0
    if low >= BONUS_FROM:
        return 0.0
    return (BONUS_FROM - low) / (BONUS_FROM - BONUS_FULL_AT)


def bonus_loss(view: "PlayerView", spent: int) -> int:
    """The coal bonus points spending ``spent`` coal would give up, as things stand."""
    held = coal_of(view)
    if not held or spent <= 0:
        return 0
    seat = view.seat
    mine = held[seat]
    return coal_standing(held, seat, mine) - coal_standing(held, seat, mine - spent)


def coal_cost(view: "PlayerView", spent: int) -> float:
    """What spending ``spent`` coal costs, in points: the tokens' worth as wilds fades as
    the end nears while their weight in the coal bonuses grows."""
    if spent <= 0:
        return 0.0
    w = endgame_weight(view)
    return (1.0 - 0.5 * w) * COAL_VALUE * spent + w * bonus_loss(view, spent)


def coal_gain(view: "PlayerView") -> float:
    """What taking one more coal token is worth, in points."""
    held = coal_of(view)
    if not held:
        return COAL_VALUE
    seat = view.seat
    w = endgame_weight(view)
    mine = held[seat]
    bonus = coal_standing(held, seat, mine + 1) - coal_standing(held, seat, mine)
    return (1.0 - 0.5 * w) * COAL_VALUE + w * bonus


def coal_spent(action: "Action") -> int:
    """Coal tokens a claim pays with."""
    return sum(n for name, n in getattr(action, "cards", ()) if name == COAL)


class CountyDurhamPolicy(LateTicketsPolicy):
    """Coal for the greedy bot (and the easy bot built on it).

    Hard searches County Durham with the base settings (``FamilyPolicy``'s: its own points
    weighed with the margin, plans leaning to long routes and ordered to share, keeps by
    the best mean, the stricter bar for leaving Normal's move). 4-player County Durham,
    Hard against three Normals, 100 seat-rotated games at 0.25 s of processor time a move
    (seeds 1-100): 57% of the wins [47%, 66%], 118.8 points against 92.4, 0.10 failed
    tickets (64% [54%, 73%] when the matrix cell was played again on the committed
    code); with the settings measured at 2 players before (margin alone), 34.5%
    [26%, 44%] and 110 points against 94."""

    variants = ("county-durham",)

    def phase_choice(self, bot: Any, view: "PlayerView",
                     legal: Sequence["Action"]) -> "Action | None":
        if view.phase == TAKE_COAL:
            return self._take_coal(view, legal)
        if view.phase == "turn" and any(coal_spent(a) for a in legal):
            return self._turn(bot, view, legal)
        return None

    # Taking -------------------------------------------------------------------
    @staticmethod
    def _take_coal(view: "PlayerView", legal: Sequence["Action"]) -> "Action":
        takes = [a for a in legal if a.kind == "take_coal"]
        if not takes:
            return legal[0]
        g = graph_for(view.map)
        owner = view.owner_list

        def open_tracks(action: "Action") -> tuple[int, str]:
            c = g.city_index[action.city_id]
            return (sum(1 for r, _ in g.adj[c] if owner[r] < 0), action.city_id)

        return max(takes, key=open_tracks)

    def route_bonus(self, view: "PlayerView", route: int) -> float:
        cities = view.extra.get(COAL, {}).get("cities", {})
        g = graph_for(view.map)
        if cities.get(g.city_ids[g.r_a[route]]) or cities.get(g.city_ids[g.r_b[route]]):
            return coal_gain(view)
        return 0.0

    def hint_action_words(self, view: "PlayerView", action: "Action") -> str | None:
        """Coal taken: what the seat will hold against the others (rules.md §6)."""
        if action.kind != TAKE_COAL:
            return None
        held = view.extra.get(COAL, {}).get("held", ())
        if not held:
            return None
        mine = held[view.seat] + 1
        best = max((n for s, n in enumerate(held) if s != view.seat), default=0)
        where = ("the most" if mine > best else "level with the most" if mine == best
                 else f"{best - mine} fewer than the most")
        return (f"you will hold {plural(mine, 'coal')}, {where} (+10 at the end); "
                "2 coal pay as 1 locomotive")

    def hint_claim_words(self, view: "PlayerView", route: int) -> list[str]:
        """The claim's points, and the coal it lets the seat take (one token, rules.md §6)."""
        g = graph_for(view.map)
        out = []
        pts = (view.route_points or {}).get(g.r_len[route])
        if pts:
            out.append(f"it scores {plural(pts, 'point')}")
        cities = view.extra.get(COAL, {}).get("cities", {})
        coal = [g.city_ids[c] for c in (g.r_a[route], g.r_b[route]) if cities.get(g.city_ids[c])]
        if coal:
            where = " or ".join(view.map.cities[c].name for c in coal)
            out.append(f"it takes a coal token from {where}")
        return out

    # Spending ------------------------------------------------------------------
    def _turn(self, bot: Any, view: "PlayerView", legal: Sequence["Action"]) -> "Action":
        from ttr_desktop.bots.greedy import _Turn  # the usual turn, its payment priced again

        acts = list(legal)
        for _ in range(4):
            turn = _Turn(bot, view, acts)
            choice = turn.decide()
            if choice.kind != "claim_route":
                return choice
            same = [a for a in acts if a.kind == "claim_route" and a.route_id == choice.route_id]
            pay = min(same, key=lambda a: self._pay_cost(turn, view, a))
            if not self._coal_not_worth_it(turn, view, pay):
                return pay
            acts = [a for a in acts if not (a.kind == "claim_route"
                                            and a.route_id == choice.route_id)]
            if not acts:
                return pay
        return _Turn(bot, view, acts).decide()

    @staticmethod
    def _pay_cost(turn: Any, view: "PlayerView", action: "Action") -> tuple:
        g = turn.g
        route = g.route_index[action.route_id]
        rest = [r for r in turn.plan.routes if g.r_link[r] != g.r_link[route]]
        cards = tuple((n, k) for n, k in action.cards if n != COAL)
        after = minus_cards(turn.hand, cards)
        locos = locos_in(cards)
        plain = sum(k for _, k in cards) - locos
        cost = (CARD_VALUE * (plain + shortfall(g, rest, after)) + LOCO_VALUE * locos
                + coal_cost(view, coal_spent(action)))
        return (cost, action.cards)

    @staticmethod
    def _coal_not_worth_it(turn: Any, view: "PlayerView", pay: "Action") -> bool:
        """Whether a late claim paid with coal is better put off: it completes no ticket and
        is either off the plan and worth less than the coal bonus it gives up, or on the plan
        and would cost bonus points (it waits for cards, outside the final round)."""
        spent = coal_spent(pay)
        if not spent or endgame_weight(view) < DEFER_FROM:
            return False
        g = turn.g
        r = g.route_index[pay.route_id]
        loss = bonus_loss(view, spent)
        if any(turn.sit.connected(t.a, t.b, (r,)) for t in turn.open_tickets):
            return False
        if g.r_link[r] in turn.plan_links:
            # A route on the way to a ticket waits for cards while there is time.
            return (DEFER_PLAN and not view.final_round and loss >= DEFER_LOSS
                    and turn.bot.rng.random() < DEFER_CHANCE)
        return turn._points(r) < loss
