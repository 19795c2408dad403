"""The greedy bot: plans cheapest paths for its tickets and builds them.

Each decision, read only from the PlayerView:

1. Plan: a cheapest path per unfinished ticket (own routes free, taken routes
   gone, closed doubles gone; an open route costs its trains plus a turn for its
   claim, ``graph.CLAIM_COST``, so fewer, longer routes are preferred), biggest
   tickets first; routes planned for one ticket are free for the next. Tickets
   that do not fit the trains left are dropped. With more train cards in hand than
   trains left, a route the hand alone cannot pay for costs a turn more per two
   cards it lacks (``_Turn._plan_for_the_hand``): the way the cards pay for.
2. Claim the longest planned route it can pay for, with the payment that
   keeps locomotives and the colours the rest of the plan needs.
3. A ticket an opponent's route cuts: a station next to that route when the ticket is
   worth more than the station's 4 points and cards — a ticket the plan drops, or whose
   way round does not fit the trains or turns left (``_Turn._station_choice``); in the
   last turns, a station that completes a ticket at once when no claim scores more.
4. Otherwise draw the cards the plan still lacks (face-up when one helps,
   a face-up locomotive when few colours help, else blind).
5. Nothing left to build: draw new tickets while there are trains to spare,
   else claim long routes for points; in the last turns, the best-scoring route (or the
   station of 3.).
6. The end a claim or two away (``end_in_sight``: as close as an only opponent
   ``GreedyBot.endgame_trains`` trains from it would bring it), a hand bigger than the
   plan takes and a plan that cannot be finished in the turns left (or nothing
   planned): the cards the plan does not need go to the best-scoring route they pay for,
   not to more draws (cards left in hand at the end score nothing). The turns left count
   every other seat (``turns_to_end``): at a bigger table the end comes sooner.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ttr_desktop.bots.base import Bot, no_choice
from ttr_desktop.bots.cards import (
    LOCO,
    TUNNEL_SPARE,
    can_pay,
    claim_rule,
    colour_needs,
    draw_turns,
    locos_in,
    minus_cards,
    payable_count,
    plus,
    route_kind,
    shortfall,
    unseen_cards,
)
from ttr_desktop.bots.families import policy_for
from ttr_desktop.bots.graph import CLAIM_COST, MapGraph, Plan, Situation, graph_for
from ttr_desktop.maps.model import CARD_COLORS

if TYPE_CHECKING:
    from ttr_desktop.maps.model import Ticket
    from ttr_desktop.rules.actions import Action
    from ttr_desktop.rules.view import PlayerView

#: Normal draws more tickets only while every opponent has more trains than this (and it
#: has more than its family's ``FamilyPolicy.ticket_draw_trains``).
TICKET_DRAW_OPPONENT_TRAINS = 10
#: Trains kept in reserve when judging whether tickets fit.
TRAIN_MARGIN = 3
#: Cost, in points, of each train a ticket plan needs (time to collect cards).
TRAIN_COST = 0.45
#: Points of the route table when the view does not carry one.
DEFAULT_ROUTE_POINTS = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21, 9: 27}
#: Points a station not built is worth at the end (rules.md §1.9 and Europe).
STATION_POINTS = 4
#: What each card a station costs could otherwise score, in points (about a point a
#: train on the routes it would pay for).
STATION_CARD_POINTS = 1.0
#: Planning cost of an opponent's route a new station would borrow, when looking for
#: the path a station would open: a detour cheaper than this keeps its way around.
BORROW_WEIGHT = 6.0
#: Trains a seat close to the end places a turn, at most (a claim of a long route): the
#: pace ``turns_left`` expects, so that it errs toward too few turns.
ENDGAME_PACE = 4


def turns_to_end(trains_left: Sequence[int], seat: int, trigger: int = 2) -> float:
    """About how many of this seat's turns come before the game's last round, from the
    other seats' trains: the last round starts once a seat is down to ``trigger`` trains,
    and a seat with ``n`` trains above it is about ``n / ENDGAME_PACE`` turns from there.
    Every other seat races toward that end: the first to get there ends the game for all,
    so at a bigger table the end comes sooner in each seat's own turns. The race is taken
    as one among seats each ending at a steady chance a turn (expected turns ``n /
    ENDGAME_PACE``): the end is then ``1 / sum(1 / turns)`` turns away — with one other
    seat, that seat's own turns (as in a 2-player game); two seats equally close halve
    it, one far behind the closest changes little. 0 once the last round has begun."""
    rate = 0.0
    for other, n in enumerate(trains_left):
        if other == seat:
            continue
        turns = (n - trigger) / ENDGAME_PACE
        if turns <= 0.0:
            return 0.0
        rate += 1.0 / turns
    return 1.0 / rate if rate > 0.0 else math.inf


def turns_left(trains_left: Sequence[int], seat: int, trigger: int = 2) -> int:
    """This seat's turns before the game ends, this one and the final one included
    (``turns_to_end`` rounded up, and the final turn)."""
    turns = turns_to_end(trains_left, seat, trigger)
    return 99 if turns == math.inf else 1 + math.ceil(turns - 1e-9)


def end_in_sight(trains_left: Sequence[int], seat: int, endgame_trains: int,
                 trigger: int = 2) -> bool:
    """Whether the game's end is as close as an only opponent ``endgame_trains`` trains
    from it would bring it (``turns_to_end``): with one other seat, that seat within
    ``endgame_trains``; at a bigger table, sooner in trains, as the others race to it."""
    return turns_to_end(trains_left, seat, trigger) <= \
        (endgame_trains - trigger) / ENDGAME_PACE + 1e-9


class GreedyBot(Bot):
    """Ticket-driven greedy play; fast (a few Dijkstra runs per decision)."""

    name = "greedy"
    level = 2
    #: Trains it draws more tickets down to, whatever the family's tempo
    #: (``FamilyPolicy.ticket_draw_trains``); None follows the family.
    late_ticket_trains: int | None = None
    #: How much it leans its plans toward routes that score more than a point a train
    #: (``graph.Situation``'s ``lean``); Normal plans by trains and turns alone.
    route_lean: float = 0.0
    #: Whether it plans its tickets in the order whose paths share most
    #: (``graph.Situation``'s ``orders``); Normal plans the biggest ticket first.
    plan_orders: bool = False
    #: Whether, of a planned double route's open tracks, it plans the one whose colour
    #: its hand covers best (``_Turn._doubles_by_colour``); Normal plans the track its
    #: path search found.
    doubles_by_colour: bool = False
    #: Opponent trains from which it expects the game to end soon: when its plan cannot
    #: be finished in the turns left and its hand holds more cards than the plan takes
    #: (``_Turn._plan_out_of_time``), it claims for points with the cards the plan does not
    #: need. Waiting for cards instead, it ended 2-player games holding 10-13 cards on
    #: average (up to 34). Against Normal without it at the same table (200 USA games):
    #: 2 players 104.0 points to 103.1 and 8.1 cards left to 10.6; 5 players 92.9 to 90.2
    #: and 6.2 cards to 8.5. Drawing the line at 12 trains gave up tickets and points in
    #: every family tried (self-play). At a bigger table the window opens as soon as the
    #: others' race to the end leaves as few turns as one opponent at these trains would
    #: (``end_in_sight``): 3-player USA, Hard against two Normals (30 games, 20 rounds a
    #: move), Hard's cards at the end 6.9 to 5.9 and the Normals' 6.7 to 6.0 on average.
    #: Spending the spare cards as soon as the hand holds as many cards as it has trains,
    #: the end not yet in sight, held fewer cards but lost points and tickets: the turns
    #: went to claims while the plan waited (all-Normal 2 players, 150 games, seeds
    #: 5000-5149: USA 102.4 -> 92.1 points, 7.0 -> 3.7 cards, 0.21 -> 0.51 failed tickets;
    #: Europe 106.5 -> 96.0 points; Märklin 143.7 -> 124.5). Only on routes of 6 trains it
    #: changed little: USA 7.0 -> 6.6 cards at 102.5 points.
    endgame_trains: int = 8
    #: Whether it prices each route its hand cannot pay for by the draw turns its missing
    #: cards are expected to take, less those whose cards the trains left will place
    #: (``cards.draw_turns``: two cards a turn, of which only the route's colour and the
    #: wild cards that pay there help), rather than, with more train cards than trains
    #: only, a turn per two cards
    #: (``_Turn._plan_for_the_hand``). The search bot's default move does: Hard against
    #: Normal, 2 players, 100 seat-rotated games at 30 rounds a move (seeds 1-100), USA:
    #: Hard's cards at the end 7.8 -> 6.0, wins 79% -> 83%, points 125 -> 124; USA with
    #: stations: 8.0 -> 5.6 cards, 78% -> 81%, 137 -> 135 points; Europe: 7.0 -> 5.8
    #: cards, 80% -> 85%, 126 -> 127 points. Normal does not: as its own move, against the
    #: Normal without it (seat-rotated, seeds 7000+), it held fewer cards at every table
    #: (2 players, 300-400 games: USA 6.7 -> 5.5, Europe 8.1 -> 7.3, Märklin 7.8 -> 6.5,
    #: USA 1910 6.6 -> 4.7) and won 54.7% of 2-player USA games, but 49-52% elsewhere at
    #: 2 players, 47% in Legacy, and at 3 players 31.2% in USA and 28.8% in Europe
    #: (parity 33.3%): the longer way it takes is more often blocked.
    #: Charging only the draws the trains left cannot place, and so planning again before
    #: the hand outgrows the trains (100 games at 30 rounds a move, seeds 301-400, 2
    #: players): USA with stations 5.7 -> 4.8 cards, 0.10 -> 0.05 failed tickets, wins
    #: 88% -> 85%, points 137.0 -> 135.1; Europe 5.8 -> 5.1 cards, 0.05 -> 0.02 failed,
    #: 82.5% -> 82%, 125.9 -> 125.1. Charging every expected draw turn from then on cut
    #: the cards further (USA with stations 4.3) but cost points (129.5, 80.5% wins).
    missing_card_turns: bool = False
    #: The last keep ranking: (view, keep choices, ranking), see ``keeps_ranked``.
    _last_ranking: tuple[PlayerView, tuple[Action, ...], list[Action]] | None = None
    #: The last decision read: (view, legal actions, settings, its ``_Turn``), see ``turn``.
    _last_turn: tuple | None = None

    def turn(self, view: PlayerView, legal: Sequence[Action]) -> "_Turn":
        """The reading of a turn decision (its plan, claims and draws): the search bot's
        default move and its candidates read the same decision, so the second asking
        (the same view and actions, the same settings) gets the first reading."""
        settings = (self.route_lean, self.plan_orders, self.doubles_by_colour,
                    self.missing_card_turns, self.late_ticket_trains, self.endgame_trains)
        last = self._last_turn
        if last is not None and last[0] is view and last[1] is legal and last[2] == settings:
            return last[3]
        turn = _Turn(self, view, legal)
        self._last_turn = (view, legal, settings, turn)
        return turn

    def choose(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """The greedy choice among ``legal_actions`` for ``view``'s seat."""
        no_choice(legal_actions)
        if len(legal_actions) == 1:
            return legal_actions[0]
        phase = view.phase
        choice = policy_for(view.variant).phase_choice(self, view, legal_actions)
        if choice is not None:
            return choice
        if phase in ("choose_initial_tickets", "keep_tickets"):
            return self._keep_tickets(view, legal_actions)
        if phase == "pay_tunnel":
            return self._pay_tunnel(view, legal_actions)
        if phase in ("turn", "second_card"):
            return self.turn(view, legal_actions).decide()
        # A phase this bot does not know (a later rule module): anything legal.
        return legal_actions[self.rng.randrange(len(legal_actions))]

    # Tickets -------------------------------------------------------------
    def _keep_tickets(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """Keep the set of tickets whose paths (with the current ones) score best."""
        ranked = self.keeps_ranked(view, legal)
        if not ranked:
            return legal[self.rng.randrange(len(legal))]
        return ranked[0]

    def keeps_ranked(self, view: PlayerView, legal: Sequence[Action]) -> list[Action]:
        """The keep choices in ``legal``, best first: the ticket points the plan (the
        family's, with the current tickets) reaches minus those it drops, less
        ``TRAIN_COST`` per train it takes. Ties keep their listed order.

        The last ranking is remembered for the same view and choices: the Hard bot
        asks for it after its own greedy choice, and an Old West ranking (a home
        for every set of tickets) takes tens of milliseconds."""
        keeps = tuple(a for a in legal if a.kind == "keep_tickets")
        last = self._last_ranking
        if last is not None and last[0] is view and last[1] == keeps:
            return list(last[2])
        ranked = _rank_keeps(view, keeps, self.route_lean, self.plan_orders)
        self._last_ranking = (view, keeps, ranked)
        return list(ranked)

    # Tunnels -------------------------------------------------------------
    def _pay_tunnel(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """Pay the tunnel when possible, with the fewest locomotives; else give it up."""
        pays = [a for a in legal if a.kind == "pay_tunnel"]
        if not pays:
            return next((a for a in legal if a.kind == "decline_tunnel"), legal[0])
        return min(pays, key=lambda a: (locos_in(a.cards), a.cards))


def _rank_keeps(view: PlayerView, keeps: Sequence[Action], lean: float = 0.0,
                orders: bool = False) -> list[Action]:
    """``GreedyBot.keeps_ranked`` without the memory: one keep per set of kept tickets,
    planned with ``lean`` and ``orders`` (``graph.Situation``)."""
    sit = Situation(view, lean=lean, orders=orders)
    done = set(view.completed_tickets)
    current = [t for t in view.tickets if t.id not in done]
    valued: list[tuple[float, int, Action]] = []
    seen: set[tuple[str, ...]] = set()
    budget = max(0, sit.trains - TRAIN_MARGIN)
    policy = policy_for(view.variant)
    for i, act in enumerate(keeps):
        kept = tuple(sorted(act.tickets))
        if kept in seen:
            continue
        seen.add(kept)
        chosen = [t for t in view.pending_tickets if t.id in act.tickets]
        tickets = sorted(current + chosen, key=lambda t: (-t.points, t.id))
        plan = policy.plan(sit, view, tickets, budget)
        if plan is None:
            plan = sit.plan(tickets, budget=budget)
        bad = {t.id for t in plan.dropped}
        value = sum(-t.points if t.id in bad else t.points for t in tickets)
        value -= TRAIN_COST * plan.trains
        valued.append((value, i, act))
    # Best value first; within 1e-9 of each other the earlier listed stays first.
    valued.sort(key=lambda v: (-round(v[0], 9), v[1]))
    return [act for _, _, act in valued]


class _Turn:
    """One decision in the turn or second-card phase."""

    def __init__(self, bot: GreedyBot, view: PlayerView, legal: Sequence[Action]) -> None:
        self.bot = bot
        self.view = view
        self.legal = legal
        self.g: MapGraph = graph_for(view.map)
        #: The game's claim rule: where locomotives pay, and substitutes (Nordic's sets).
        self.rule = claim_rule(view)
        self.sit = Situation(view, self.g, lean=bot.route_lean, orders=bot.plan_orders)
        self.hand = dict(view.hand)
        done = set(view.completed_tickets)
        self.open_tickets: list[Ticket] = sorted(
            (t for t in view.tickets if t.id not in done), key=lambda t: (-t.points, t.id))
        plan = policy_for(view.variant).plan(self.sit, view, self.open_tickets)
        self.plan: Plan = plan if plan is not None else self.sit.plan(self.open_tickets)
        self._plan_for_the_hand()
        if bot.doubles_by_colour:
            self._doubles_by_colour()
        self.plan_links = {self.g.r_link[r] for r in self.plan.routes}
        self.route_points = (view.route_points if view.route_points is not None
                             else DEFAULT_ROUTE_POINTS)
        seat = view.seat
        others = [n for s, n in enumerate(view.trains_left) if s != seat]
        self.opponent_trains = min(others) if others else 99
        self.by_kind: dict[str, list[Action]] = {}
        for a in legal:
            self.by_kind.setdefault(a.kind, []).append(a)

    def _plan_for_the_hand(self) -> None:
        """With more train cards in hand than trains left to place them, plan again with
        each route the hand alone cannot pay for dearer, and keep that plan when it drops
        no more ticket points: cards are then plenty and turns short, so a way the hand
        already pays for beats a shorter one that waits on a colour drawn blind, turn
        after turn, while the hand grows. Normal charges a turn (``CLAIM_COST``) per two
        cards missing. The search bot's default move (``GreedyBot.missing_card_turns``)
        charges the turns the missing cards are expected to take, less the turns whose
        cards the trains left will still place (half the trains beyond the hand): it
        plans again whenever a wait would fill the hand past its trains, not only once it
        has.

        A turn per two cards, against no re-planning, all-Normal 2 players, 200 games
        (seeds 1001-1200): Märklin 143.3 -> 143.2 points, 9.45 -> 7.81 cards at the end,
        0.53 -> 0.52 failed tickets; USA 102.1 -> 102.8, 9.28 -> 7.49 cards, 0.28 -> 0.22
        failed; Europe 109.5 -> 108.9, 9.35 -> 8.93 cards, 0.38 -> 0.39 failed."""
        plan, sit, g, hand, rule = self.plan, self.sit, self.g, self.hand, self.rule
        if not plan.routes:
            return
        priced = self.bot.missing_card_turns
        cards = self._train_cards()
        if cards < sit.trains and not priced:
            return
        if shortfall(g, plan.routes, hand, rule) == 0:
            return
        unseen = unseen_cards(self.view) if priced else None
        # Turns of drawing whose cards the trains left will still place: not lost.
        useful = max(0, sit.trains - cards) / 2

        known: dict[tuple, float] = {}

        def lost(r: int) -> float:
            kind = route_kind(g, r, rule)     # routes of a kind wait alike
            turns = known.get(kind)
            if turns is None:
                miss = shortfall(g, (r,), hand, rule)
                if not miss:
                    turns = 0.0
                elif unseen is None:
                    turns = float((miss + 1) // 2)
                else:
                    turns = max(0.0, draw_turns(g, r, hand, rule, miss, unseen) - useful)
                known[kind] = turns
            return turns

        # Only a wait on a planned route is worth planning again for.
        if unseen is not None and not any(lost(r) > 0 for r in plan.routes):
            return
        saved = sit.cost
        cost = saved[:]
        for r, c in enumerate(cost):
            if c:
                turns = lost(r)
                if turns:
                    cost[r] = c + CLAIM_COST * turns
        sit.cost = cost
        try:
            other = policy_for(self.view.variant).plan(sit, self.view, self.open_tickets)
            if other is None:
                other = sit.plan(self.open_tickets)
        finally:
            sit.cost = saved
        if sum(t.points for t in other.dropped) <= sum(t.points for t in plan.dropped):
            self.plan = other

    def _train_cards(self) -> int:
        """Cards of the hand that pay for routes (colours and wild cards; not Märklin's
        passenger cards)."""
        pay = self.rule.pay
        names = pay.names
        paying = {names[c] for c in pay.colours} | {names[w.index] for w in pay.wilds}
        return sum(n for name, n in self.hand.items() if name in paying)

    def _doubles_by_colour(self) -> None:
        """Of each planned double route's open tracks, plan the one whose colour the hand
        covers best after the plan's longer routes (a track of any colour, a gray one,
        first): draws and payments then chase a colour the hand already holds, not the
        track the path search happened to find."""
        g, sit, hand, plan = self.g, self.sit, self.hand, self.plan
        if not plan.routes:
            return
        need = dict.fromkeys(CARD_COLORS, 0)
        chosen: dict[int, int] = {}

        def spare(r: int) -> float:
            colour = g.r_color[r]
            if colour not in need:
                return float("inf")
            return hand.get(colour, 0) - need[colour]

        for r in sorted(plan.routes, key=lambda r: (-g.r_len[r], r)):
            tracks = [r] + [o for o in g.r_siblings[r] if sit.open(o)]
            if len(tracks) > 1 and g.r_color[r] in need:
                r = max(tracks, key=lambda t: (spare(t), t == r))
            if g.r_color[r] in need:
                need[g.r_color[r]] += g.r_len[r]
            chosen[g.r_link[r]] = r
        plan.routes = [chosen[g.r_link[r]] for r in plan.routes]

    def decide(self) -> Action:
        """The action for this decision."""
        if self.view.phase == "second_card":
            return self._draw()
        return self._turn()

    # The turn ---------------------------------------------------------------
    def _turn(self) -> Action:
        family = policy_for(self.view.variant).turn_choice(self, self.legal)
        if family is not None:
            return family
        claims = self._claims_by_route()
        view = self.view
        if not view.final_round:
            # A tunnel without a spare card is a likely wasted turn; wait for one.
            claims = {r: acts for r, acts in claims.items()
                      if not self.g.r_tunnel[r] or can_pay(self.g, r, self.hand, self.rule)}
        if self._last_turns():
            # A station that completes a ticket now, against the best-scoring claim.
            station = self._station_choice()
            if claims:
                best = self._best_scoring_route(claims)
                if station is None or station[0] <= self._claim_gain(best):
                    return self._payment(claims[best], best)
            if station is not None:
                return station[1]
        needed = [r for r in claims if self.g.r_link[r] in self.plan_links]
        if needed:
            r = max(needed, key=lambda r: (self.g.r_len[r], -self._min_locos(claims[r]), -r))
            return self._payment(claims[r], r)
        station = self._station_for_blocked_ticket()
        if station is not None:
            return station
        if claims and self._plan_out_of_time():
            spend = self._spend_spare_cards(claims)
            if spend is not None:
                return spend
        if not self.plan.routes:
            if self._should_draw_tickets():
                return self.by_kind["draw_tickets"][0]
            pick = self._claim_for_points(claims)
            if pick is not None:
                return pick
        if self.by_kind.get("draw_blind") or self.by_kind.get("draw_face_up"):
            return self._draw()
        # No card can be drawn: claim anything, else a station, else tickets, else pass.
        if claims:
            return self._best_scoring_claim(claims)
        for kind in ("build_station", "draw_tickets", "pass"):
            if self.by_kind.get(kind):
                if kind == "build_station":
                    return self._cheapest_station(self.by_kind[kind])
                return self.by_kind[kind][0]
        return self.legal[0]

    def _claims_by_route(self) -> dict[int, list[Action]]:
        out: dict[int, list[Action]] = {}
        index = self.g.route_index
        for a in self.by_kind.get("claim_route", ()):
            out.setdefault(index[a.route_id], []).append(a)
        return out

    @staticmethod
    def _min_locos(acts: list[Action]) -> int:
        return min(locos_in(a.cards) for a in acts)

    def _payment(self, acts: list[Action], route: int) -> Action:
        """The payment that leaves the rest of the plan shortest of cards, using few locomotives."""
        rest = [r for r in self.plan.routes if self.g.r_link[r] != self.g.r_link[route]]
        g, hand, rule = self.g, self.hand, self.rule
        substitutes = rule.substitutes
        tunnel = g.r_tunnel[route]

        def key(a: Action):
            after = minus_cards(hand, a.cards)
            no_spare = False
            if tunnel:  # keep cards of the paid colour (or locomotives) for the extra cost
                colour = next((name for name, _ in a.cards if name != LOCO), None)
                spare = after.get(LOCO, 0) + (after.get(colour, 0) if colour else 0)
                no_spare = spare < TUNNEL_SPARE
            # Where substitutes exist (any 3 cards for a locomotive), fewest cards first.
            spent = sum(n for _, n in a.cards) if substitutes else 0
            return (no_spare, spent, locos_in(a.cards), shortfall(g, rest, after, rule),
                    a.cards)

        return min(acts, key=key)

    def _should_draw_tickets(self) -> bool:
        v = self.view
        return (bool(self.by_kind.get("draw_tickets")) and not v.final_round
                and self.sit.trains > self._ticket_draw_trains()
                and self.opponent_trains > TICKET_DRAW_OPPONENT_TRAINS)

    def _ticket_draw_trains(self) -> int:
        late = self.bot.late_ticket_trains
        return late if late is not None else policy_for(self.view.variant).ticket_draw_trains(
            self.view)

    def _points(self, r: int) -> int:
        return self.route_points.get(self.g.r_len[r], 0)

    def _claim_for_points(self, claims: dict[int, list[Action]]) -> Action | None:
        """With nothing to build: a long route (or, with few trains, the longest that fits)."""
        if not claims:
            return None
        want = min(4, self.sit.trains)
        good = [r for r in claims if self.g.r_len[r] >= want]
        if not good:
            return None
        r = max(good, key=lambda r: (self._points(r), -self._min_locos(claims[r]), -r))
        return self._payment(claims[r], r)

    def _plan_out_of_time(self) -> bool:
        """Whether the end is close enough (``end_in_sight``: as an only opponent
        ``GreedyBot.endgame_trains`` trains from it would bring it) that the plan cannot be
        finished in the turns left (``turns_left``): a claim per planned route and a turn
        per two missing cards. A hand the plan can still use every card of is never out of
        time (there is nothing spare to spend); nothing planned always is: the hand is
        worth most as points now."""
        if not end_in_sight(self.view.trains_left, self.view.seat, self.bot.endgame_trains,
                            self.end_trigger()):
            return False
        routes = self.plan.routes
        if not routes:
            return True
        if self._spare_cards() <= 0:
            return False  # every card may yet go into the plan
        missing = shortfall(self.g, routes, self.hand, self.rule)
        return len(routes) + -(-missing // 2) > self.turns_left()

    def turns_left(self) -> int:
        """This seat's turns before the game ends (``turns_left``)."""
        return turns_left(self.view.trains_left, self.view.seat, self.end_trigger())

    def end_trigger(self) -> int:
        """Trains at which a seat starts the game's last round (the ruleset's)."""
        from ttr_desktop.rules.ruleset import get_ruleset

        try:
            return get_ruleset(self.view.variant).end_trigger_trains
        except (KeyError, ValueError):
            return 2

    def _spare_cards(self) -> int:
        """Cards of the hand the plan does not take (0 when it takes every one)."""
        need, ferry = colour_needs(self.g, self.plan.routes, self.hand, self.rule)
        return max(0, sum(self.hand.values()) - sum(need.values()) - ferry)

    def _spend_spare_cards(self, claims: dict[int, list[Action]]) -> Action | None:
        """The best-scoring claim paid with cards the plan does not need: a route off the
        plan whose payment leaves the plan as short of cards as before and whose trains
        leave enough for the plan (should the game last longer than it looks), or None."""
        g, hand, rule = self.g, self.hand, self.rule
        routes = self.plan.routes
        base = shortfall(g, routes, hand, rule)
        room = self.sit.trains - self.plan.trains
        policy = policy_for(self.view.variant)
        best, best_key = None, None
        for r, acts in claims.items():
            length = g.r_len[r]
            if length > room or g.r_link[r] in self.plan_links:
                continue
            spare = [a for a in acts
                     if shortfall(g, routes, minus_cards(hand, a.cards), rule) <= base]
            if not spare:
                continue
            worth = self._points(r) + policy.route_bonus(self.view, r)
            if worth <= 0:
                continue
            pay = self._payment(spare, r)
            key = (worth, -locos_in(pay.cards), -r)
            if best_key is None or key > best_key:
                best, best_key = pay, key
        return best

    def _best_scoring_claim(self, claims: dict[int, list[Action]]) -> Action:
        """The claim worth most now: route points plus the tickets it would complete."""
        r = self._best_scoring_route(claims)
        return self._payment(claims[r], r)

    def _best_scoring_route(self, claims: dict[int, list[Action]]) -> int:
        """The route of ``_best_scoring_claim``: most ``_claim_gain``, then one the plan
        needs, then the fewest locomotives."""
        g = self.g

        def value(r: int) -> tuple:
            needed = g.r_link[r] in self.plan_links
            return (self._claim_gain(r), needed, -self._min_locos(claims[r]), -r)

        return max(claims, key=value)

    def _claim_gain(self, r: int) -> float:
        """What claiming ``r`` scores now: its points (and the family's bonus) plus twice
        the points of each open ticket it completes (won instead of lost)."""
        sit = self.sit
        gain = self._points(r) + policy_for(self.view.variant).route_bonus(self.view, r)
        for t in self.open_tickets:
            if sit.connected(t.a, t.b, (r,)):
                gain += 2 * t.points
        return gain

    # Stations ---------------------------------------------------------------
    def _station_for_blocked_ticket(self) -> Action | None:
        """A station worth building now (``_station_choice``), or None."""
        found = self._station_choice()
        return None if found is None else found[1]

    def _station_choice(self) -> tuple[float, Action] | None:
        """(points it gains, the build) of the best station next to an opponent route that
        blocks a ticket, when it gains more than it costs; else None.

        Each opponent route that the cheapest path of an open ticket needs (the one such
        route on it, ``BORROW_WEIGHT`` a route) is tried: the tickets are planned again
        with that route free, as a station next to it lets the final scoring borrow it.
        A ticket is failing when the plan drops it (no path, or not in the trains left),
        or is the smallest planned one of a plan short of trains (``TRAIN_MARGIN``) or of
        turns (``_turns_left``): a long detour. The station gains the points of each
        failing ticket the plan with the route no longer fails (not twice its points,
        lost and then won: the rest of its path must still be built, and a station kept
        may rescue a bigger ticket later). In the last turns it gains what it completes
        at once: those tickets' swing at the final scoring (``PlayerView.ticket_status``
        with the route as if owned; the stations borrow as the final scoring chooses).

        and costs the ``STATION_POINTS`` it is worth unbuilt and what its cards could
        otherwise score (``STATION_CARD_POINTS`` a card; none in the last turns, where
        ``_turn`` weighs it against the best-scoring claim instead)."""
        builds = self.by_kind.get("build_station")
        if not builds or not self.open_tickets:
            return None
        g, sit, view = self.g, self.sit, self.view
        last = self._last_turns()
        turns_left = self._turns_left()
        card_points = 0.0 if last else STATION_CARD_POINTS * min(
            sum(n for _, n in a.cards) for a in builds)
        if last:
            at_stake = 2 * sum(t.points for t in self.open_tickets)
            looked_at = self.open_tickets
        else:
            base_fail = self._failing(self.plan, turns_left)
            at_stake = sum(t.points for t in self.open_tickets if t.id in base_fail)
            dropped = {t.id for t in self.plan.dropped}
            # A plan short of trains or turns: any ticket's path may hold the detour.
            looked_at = (self.open_tickets if base_fail - dropped else
                         [t for t in self.open_tickets if t.id in dropped])
        if at_stake - STATION_POINTS - card_points <= 0:
            return None     # nothing failing is worth a station
        by_city: dict[int, list[Action]] = {}
        for a in builds:
            by_city.setdefault(g.city_index[a.city_id], []).append(a)
        # Opponent routes a new station could borrow: claimed by another seat, not
        # borrowable yet, with a city free for a station at one end.
        cost = sit.cost[:]
        borrowable = False
        for r in range(g.n_routes):
            if (sit.owner[r] >= 0 and cost[r] is None
                    and (g.r_a[r] in by_city or g.r_b[r] in by_city)):
                cost[r] = BORROW_WEIGHT
                borrowable = True
        if not borrowable:
            return None
        candidates: list[int] = []
        for t in looked_at:
            path = sit.shortest_path(t.a, t.b, cost)
            if path is None:
                continue
            borrowed = [r for r in path[1] if sit.owner[r] >= 0 and sit.cost[r] is None]
            if len(borrowed) == 1 and borrowed[0] not in candidates:
                candidates.append(borrowed[0])
        if not candidates:
            return None
        status = view.ticket_status() if last else None
        best: tuple[float, int] | None = None
        for r in candidates:
            if last:   # what it completes now (won instead of lost), no more
                gain = float(view.ticket_status(extra=(r,)).net - status.net)
            else:
                # One turn goes to the station itself.
                fail = self._failing(sit.plan(self.open_tickets, extra_free=(r,)),
                                     turns_left - 1)
                gain = float(sum(t.points for t in self.open_tickets
                                 if t.id in base_fail and t.id not in fail))
            value = gain - STATION_POINTS - card_points
            if value > 0 and (best is None or value > best[0]):
                best = (value, r)
        if best is None:
            return None
        value, r = best
        return value, self._cheapest_station(self._station_city(r, by_city))

    def _failing(self, plan: Plan, turns_left: int) -> set[str]:
        """Ids of the tickets ``plan`` is expected to fail: those it drops, and the
        smallest planned one when it is short of trains or turns."""
        lost = {t.id for t in plan.dropped}
        if plan.planned and (plan.trains + TRAIN_MARGIN > self.sit.trains
                             or self._turns_needed(plan) > turns_left):
            lost.add(min(plan.planned, key=lambda t: (t.points, t.id)).id)
        return lost

    def _turns_needed(self, plan: Plan) -> int:
        """Turns to build ``plan``: a claim per route and a turn per two missing cards."""
        missing = shortfall(self.g, plan.routes, self.hand, self.rule)
        return len(plan.routes) + -(-missing // 2)

    def _turns_left(self) -> int:
        """About how many turns this seat has left, this one included: one in the final
        round, else one per two trains the opponent nearest the end has above 2. It errs
        toward more turns than ``turns_left`` (which errs toward fewer, so that spare cards
        are spent in time): a station is given up for good, so it goes only to a way
        round that surely cannot be built. With ``turns_left`` here instead, all-Normal
        Europe (200 games, 3 and 4 seats) scored the same and failed a few more tickets
        (0.67 against 0.63 a seat at 3, 0.67 against 0.57 at 4)."""
        if self.view.final_round:
            return 1
        return 1 + max(0, self.opponent_trains - 2) // 2

    def _last_turns(self) -> bool:
        """The final round, an opponent a claim from the end, or few own trains left."""
        return (self.view.final_round or self.opponent_trains <= 2
                or self.sit.trains <= 4)

    def _station_city(self, r: int, by_city: dict[int, list[Action]]) -> list[Action]:
        """The station builds at the end of route ``r`` to use: the end the seat's own
        routes reach (its network grows across the borrowed route), else the end with
        more opponent routes to choose from at the final scoring."""
        g, sit = self.g, self.sit
        ends = [c for c in (g.r_a[r], g.r_b[r]) if c in by_city]
        own = {c for q in sit.own for c in (g.r_a[q], g.r_b[q])}

        def key(c: int) -> tuple:
            others = sum(1 for q in g.city_routes[c] if sit.owner[q] >= 0
                         and sit.owner[q] != sit.seat)
            return (c in own, others, -c)

        return by_city[max(ends, key=key)]

    def _cheapest_station(self, acts: list[Action]) -> Action:
        g, hand, rest = self.g, self.hand, self.plan.routes

        def key(a: Action):
            return (locos_in(a.cards), shortfall(g, rest, minus_cards(hand, a.cards), self.rule),
                    a.cards)

        return min(acts, key=key)

    # Drawing cards ----------------------------------------------------------
    def _draw(self) -> Action:
        """Take the face-up card the plan needs most, else a blind card."""
        blind = self.by_kind.get("draw_blind")
        face = self.by_kind.get("draw_face_up", [])
        g, hand = self.g, self.hand
        routes = self.plan.routes
        if not routes:
            routes = self._points_target()
        rule = self.rule
        base = shortfall(g, routes, hand, rule)
        pay = rule
        base_pay = payable_count(g, routes, hand, pay)
        best, best_key = None, None
        helpful_colours = 0
        loco_act = None
        for colour in CARD_COLORS:
            if shortfall(g, routes, plus(hand, colour), rule) < base:
                helpful_colours += 1
        for a in face:
            if a.card == LOCO:
                loco_act = a
                continue
            after = plus(hand, a.card)
            gain = base - shortfall(g, routes, after, rule)
            if gain <= 0:
                continue
            k = (gain, payable_count(g, routes, after, pay) - base_pay, -a.slot)
            if best_key is None or k > best_key:
                best, best_key = a, k
        if best is not None:
            return best
        if loco_act is not None and base > 0 and (helpful_colours <= 3 or not blind):
            return loco_act
        if blind:
            return blind[0]
        if face:
            return max(face, key=lambda a: (a.card != LOCO, hand.get(a.card, 0), -a.slot))
        return self.legal[0]

    def _points_target(self) -> list[int]:
        """With no ticket left to build: the best long open route to collect cards for."""
        g, sit = self.g, self.sit
        want = min(6, sit.trains)
        best, best_key = None, None
        for r in range(g.n_routes):
            if not sit.open(r) or g.r_len[r] > want or g.r_ferry[r]:
                continue
            key = (g.r_len[r], -shortfall(g, (r,), self.hand, self.rule), -r)
            if best_key is None or key > best_key:
                best, best_key = r, key
        return [] if best is None else [best]
