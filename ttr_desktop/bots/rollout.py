"""The Hard bot's rollout policy: a cheap planner that plays a determinized game out.

A search bot plays many games to the end from each candidate move. Those games are
its own determinized copies (``rules/determinize.py``), never the real game, so the
policy may read their state directly: that is what makes it cheap. Each seat

1. plans cheapest paths for its unfinished tickets on the routes still open to it and
   the routes its stations may borrow (once, and again only when someone takes a
   planned route, its tickets change or it builds a station: ``forget``); it builds
   no station itself (a station is a candidate move of the search);
   the searching seat may lean its plans toward long routes and try every order of its
   tickets as it plans its real moves (``leans`` and ``ordered``, ``graph.Situation``'s
   ``lean`` and ``orders``), the others plan as Normal does;
2. claims the longest planned route the canonical payment covers
   (``Game.legal_actions(canonical=True)``: one payment per route);
3. otherwise draws a face-up card of a colour the plan lacks (or a wild card that pays
   for that colour's longest planned route as one of its cards: Märklin's +4
   locomotive, on routes of 4 or more spaces), else a blind card;
4. with nothing planned, claims long routes for points; in the last round, the
   best-scoring route it can pay for (a family that scores claims in its own terms,
   such as Legacy's dollars, says what each route is worth: ``rollout_claim_values``);
   before that, where Normal would spend its spare cards (another seat a claim or two
   from the end and the plan out of time, ``greedy.turns_left``, its wild cards counted
   where they pay as ``cards.shortfall`` counts them: ``wild_cards``), the best-scoring route
   off the plan that those cards pay for: a rollout that hoarded to the end would make
   drawing look as good as claiming. Not where the family values claims in its own
   terms (``rollout_claim_values``): in 3-player Old West, spending so cost Hard 7 points
   and 0.15 tickets a game (30 games at 20 rounds a move: 97.1 points and 0.80 failed
   tickets against 104.9 and 0.63 without);
5. never draws tickets (a rollout only needs the tickets already held);
6. leaves a rule family's own decisions to the family's judgement — a module's
   step (a home city, a marker, coal, passengers, a company bonus), and a turn where
   the family has a move of its own to offer (a passenger move). The family decides
   quickly where it can (``FamilyPolicy.rollout_choice``, ``rollout_turn_choice``),
   else the Normal bot, with its family policy, decides on the sampled game's view.
   A rollout that played those decisions at random would value the family's scoring
   wrongly.

Hand-written Dijkstra from ``rules/graph.py`` (``cheapest_path``) rather than networkx:
on maps of 30–50 cities one search costs tens of microseconds, where building a
networkx view of the owned routes alone costs more.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from ttr_desktop.bots.cards import LOCO, other_wilds
from ttr_desktop.bots.graph import (
    CLAIM_COST,
    LEAN_FLOOR,
    ORDERED_TICKETS,
    MapGraph,
    graph_for,
)
from ttr_desktop.bots.greedy import GreedyBot
from ttr_desktop.bots.greedy import end_in_sight as _end_in_sight
from ttr_desktop.bots.greedy import turns_left as _turns_left
from ttr_desktop.rules.graph import cheapest_path, parallel_block

if TYPE_CHECKING:
    from ttr_desktop.rules.actions import Action

#: A game the bot sampled itself from its view (``rules.determinize``), never the
#: real one: bots do not import the engine's Game.
SampledGame = Any

#: Game family -> whether its seats have home cities (learnt from the first game seen).
_HOMES: dict[str, bool] = {}
#: Safety net: a rollout never takes more actions than this.
MAX_STEPS = 2000
#: Trains left at which a seat stops planning tickets and claims for points.
ENDGAME_TRAINS = 5
#: An other seat's trains from which a seat spends spare cards its plan has no time for
#: (as Normal does).
_ENDGAME_TRAINS = GreedyBot.endgame_trains
#: Route orders by claim value kept before the store starts again.
ORDERS_KEPT = 256
#: Plans made kept before the store starts again.
PLANS_KEPT = 512


#: A plan as turns read it: (routes, the same longest first, (colour, its longest planned
#: route) for each colour planned, the longest planned gray route or 0, the colours (-1:
#: gray) whose longest planned route the other wild cards pay for: ``wild_cards``).
_Planned = tuple[list[int], list[int], tuple[tuple[int, int], ...], int, frozenset[int]]
_NONE: frozenset[int] = frozenset()
_NO_PLAN: _Planned = ([], [], (), 0, _NONE)


def wild_cards(board: Any) -> tuple[int, tuple[int, ...], list[bool] | None]:
    """The board's wild train cards as the rollouts count them, the way ``cards.shortfall``
    counts them: the card index of the locomotive, which pays every route (-1 where the
    rule does not let it, or where some wild is worth a card per several items: County
    Durham's coal, weighed by its family); the indices of the other wild cards worth one
    card each, and per route whether those pay there (Märklin's +4 locomotives, on routes
    of 4 or more spaces; None without such cards)."""
    if board.loco >= 0:
        return board.loco, (), None
    rule = board.claim_rule
    if not rule.plain or any(w.per_unit != 1 for w in board.pay.wilds):
        return -1, (), None
    loco = board.card_index.get(LOCO, -1)
    others = other_wilds(rule)
    if others is None:
        return loco, (), None
    return loco, tuple(board.card_index[n] for n in others[0]), others[1]


class RolloutPolicy:
    """Plays every seat of a (determinized) game to the end, quickly."""

    def __init__(self, game: SampledGame, rng: random.Random,
                 leans: dict[int, float] | None = None,
                 ordered: Collection[int] = ()) -> None:
        self.graph: MapGraph = graph_for(game.map)
        self.rng = rng
        b = game.board
        self.colors = list(b.colors)
        #: The locomotive's card index (-1: not counted), the other wild cards worth one card
        #: (Märklin's +4 locomotives) and per route whether they pay there
        #: (``wild_cards``).
        self.loco, self.long_wilds, self.r_long = wild_cards(b)
        self.r_color = b.r_color
        self.r_len = b.r_len
        pts = game.ruleset.route_points
        self.points = [pts.get(n, 0) for n in b.r_len] if isinstance(pts, dict) else list(b.r_len)
        #: seat -> what its planning cost of each route drops by (``leans``: seat -> lean,
        #: times the route's points beyond its length); seats not named plan as Normal.
        self._lean_cuts: dict[int, list[float]] = {
            seat: [lean * max(0, p - n) for p, n in zip(self.points, self.r_len)]
            for seat, lean in (leans or {}).items() if lean}
        #: Seats that plan every order of up to ``ORDERED_TICKETS`` tickets and keep the
        #: plan that drops the fewest ticket points, then costs least; the others plan the
        #: biggest ticket first.
        self._ordered = frozenset(ordered)
        self._advisor = None
        self._variant = game.variant
        #: The game has pieces that borrow other seats' routes for tickets (stations).
        self._borrows = bool(game._hooks["ticket_borrow_choices"])
        from ttr_desktop.bots.families import FamilyPolicy, policy_for
        self._family = policy_for(game.variant)
        policy = type(self._family)
        #: The family proposes turn moves of its own (ask the advisor on such turns).
        self._family_turns = policy.turn_choice is not FamilyPolicy.turn_choice
        #: The family decides its own turn moves quickly (Märklin's passenger moves).
        self._family_turn_hook = \
            policy.rollout_turn_choice is not FamilyPolicy.rollout_turn_choice
        #: The family weighs claims in its own terms (dollars: Legacy).
        self._family_values = \
            policy.rollout_claim_values is not FamilyPolicy.rollout_claim_values
        #: Routes by points, best first (claims for points once the tickets are built).
        self.by_points = sorted(range(len(self.points)), key=lambda r: (-self.points[r], r))
        #: shortest -> how many of ``by_points`` come before the first route shorter than
        #: ``shortest`` trains (claims for points stop there).
        self.points_cut = [next((i for i, r in enumerate(self.by_points) if self.r_len[r] < m),
                                len(self.by_points)) for m in range(5)]
        #: seat -> (tickets key, ``route_paid`` and the ticket list at the plan's last
        #: check, the plan)
        self._plans: dict[int, tuple[tuple[int, ...], tuple, list[int], _Planned]] = {}
        #: (seat, tickets, trains, owners, homes) -> plans made, shared with the forks (a
        #: plan depends on nothing else)
        self._made: dict[tuple, _Planned] = {}
        #: id(claim values) -> (those values, routes best first, shortest length -> the
        #: routes worth more than nothing of that length or more, best first), for a
        #: family that answers ``rollout_claim_values`` with the same list while nothing it
        #: depends on changes (shared with the forks: it depends on the values alone)
        self._orders: dict[int, tuple[list[float], list[int], dict[int, list[int]]]] = {}

    def fork(self, rng: random.Random) -> "RolloutPolicy":
        """A policy for a copy of this policy's game (a clone playing another candidate):
        the same map facts and plans, its own random numbers — what a new policy with
        ``copy_plans(self)`` would be, without working the map facts out again."""
        other = object.__new__(RolloutPolicy)
        other.__dict__.update(self.__dict__)
        other.rng = rng
        other._advisor = None
        other.copy_plans(self)
        return other

    def copy_plans(self, other: "RolloutPolicy") -> None:
        """Start from another policy's plans (same determinization, another candidate)."""
        self._plans = dict(other._plans)     # (entries are replaced, never changed)

    # Planning ---------------------------------------------------------------
    def plan(self, game: SampledGame, seat: int) -> list[int]:
        """The open routes ``seat`` means to claim (cached until they go stale)."""
        return self._planned(game, seat)[0]

    def _planned(self, game: SampledGame, seat: int) -> "_Planned":
        """``plan`` with what turns read off it (``_Planned``). A plan is checked again only
        when a route changed hands or the seat's tickets changed since its last check: the
        game replaces ``route_paid`` on every claim and a seat's ticket list whenever it
        changes, so the same objects mean the same owners and tickets."""
        s = game.state
        tickets = s.tickets[seat]
        paid = s.route_paid
        cached = self._plans.get(seat)
        if cached is not None:
            if cached[1] is paid and cached[2] is tickets:
                return cached[3]
            key = cached[0] if cached[2] is tickets else tuple(tickets)
            if cached[0] == key:
                planned = cached[3]
                routes = planned[0]
                owner = s.owner
                stale = False
                keep = []
                for r in routes:
                    o = owner[r]
                    if o < 0:
                        keep.append(r)
                    elif o != seat:
                        stale = True
                        break
                if not stale:
                    if len(keep) != len(routes):
                        planned = self._read(keep)
                    self._plans[seat] = (key, paid, tickets, planned)
                    return planned
        else:
            key = tuple(tickets)
        # A plan depends only on the seat, its tickets, its trains, its home cities and
        # who owns what: the same in every sample of a decision for the searching seat,
        # and often again in the rollouts of another candidate.
        homes = self._homes(game, seat)
        lent = self._lent(game, seat)
        made_key = (seat, key, s.trains[seat], tuple(s.owner), frozenset(homes), lent)
        planned = self._made.get(made_key)
        if planned is None:
            planned = self._read(self._make_plan(game, seat, homes))
            if len(self._made) >= PLANS_KEPT:
                self._made.clear()
            self._made[made_key] = planned
        self._plans[seat] = (key, paid, tickets, planned)
        return planned

    def forget(self, seat: int) -> None:
        """Plan ``seat``'s tickets again at its next turn: something its plan depends on
        besides claims and tickets changed (it built a station)."""
        self._plans.pop(seat, None)

    def _lent(self, game: SampledGame, seat: int) -> tuple[int, ...]:
        """The other seats' routes ``seat``'s stations may borrow (``Game.borrow_choices``):
        free on its way, as the Normal bot plans (``graph.Situation``); empty in a family
        without stations."""
        if not self._borrows:
            return ()
        return tuple(sorted({r for routes in game.borrow_choices(seat) for r in routes}))

    def _read(self, routes: list[int]) -> "_Planned":
        """A plan with what turns read off it: its routes longest first (claimed in that
        order), and the cards its routes need (drawn toward)."""
        r_len, r_color = self.r_len, self.r_color
        longest: dict[int, int] = {}
        gray = 0
        r_long = self.r_long
        if r_long is None:
            for r in routes:
                c, n = r_color[r], r_len[r]
                if c < 0:
                    if n > gray:
                        gray = n
                elif n > longest.get(c, 0):
                    longest[c] = n
            wild_for = _NONE
        else:   # the same, noting which route is each colour's longest
            at: dict[int, int] = {}
            for r in routes:
                c, n = r_color[r], r_len[r]
                if c < 0:
                    if n > gray:
                        gray = n
                        at[-1] = r
                elif n > longest.get(c, 0):
                    longest[c] = n
                    at[c] = r
            wild_for = frozenset([c for c, r in at.items() if r_long[r]])
        return (routes, sorted(routes, key=r_len.__getitem__, reverse=True),
                tuple(longest.items()), gray, wild_for)

    def _costs(self, game: SampledGame, seat: int,
               lent: tuple[int, ...] = ()) -> list[float | None]:
        """Planning cost per route for ``seat``: 0 for its own and the ``lent`` routes its
        stations may borrow, the length plus the claim's turn (``CLAIM_COST``, as the
        Normal bot plans) for an open route it could still claim, less the seat's lean
        toward points (``leans``), None for the rest."""
        g = self.graph
        s = game.state
        owner = s.owner
        trains = s.trains[seat]
        group_open = game._group_open
        cost: list[float | None] = [None] * g.n_routes
        r_len, sib = g.r_len, g.r_siblings
        for r in range(g.n_routes):
            o = owner[r]
            if o == seat:
                cost[r] = 0.0
            elif o < 0 and r_len[r] <= trains:
                if sib[r]:
                    taken = False
                    for o2 in sib[r]:
                        if owner[o2] >= 0:
                            taken = True
                            break
                    if taken and parallel_block(owner, sib[r], seat, group_open[r]):
                        continue
                cost[r] = r_len[r] + CLAIM_COST
        for r in lent:
            cost[r] = 0.0
        cuts = self._lean_cuts.get(seat)
        if cuts is not None:
            for r, c in enumerate(cost):
                if c and cuts[r]:
                    cost[r] = max(LEAN_FLOOR, c - cuts[r])
        return cost

    def _make_plan(self, game: SampledGame, seat: int, homes: set[int]) -> list[int]:
        s = game.state
        trains = s.trains[seat]
        cost = self._costs(game, seat, self._lent(game, seat))
        tickets = [game.map.tickets[i] for i in s.tickets[seat]]
        tickets.sort(key=lambda t: -t.points)
        if homes:
            return self._grow_plan(game, seat, tickets, cost, homes)
        if seat not in self._ordered or not 2 <= len(tickets) <= ORDERED_TICKETS:
            return self._plan_in_order(tickets, cost, trains)[1]
        best = None
        # The orders share their searches: a ticket's path depends only on the routes
        # the tickets before it made free (24 orders of 4 tickets ask about 30 distinct
        # searches instead of 96).
        paths: dict[tuple, tuple[float, list[int]] | None] = {}
        for order in itertools.permutations(tickets):
            found = self._plan_in_order(order, cost[:], trains, paths)
            if best is None or found[0] < best[0]:
                best = found
        return best[1]

    def _plan_in_order(self, tickets, cost: list[float | None], trains: int,
                       paths: dict | None = None) -> tuple[tuple[int, float], list[int]]:
        """((ticket points dropped, planning cost), routes) of the cheapest paths for
        ``tickets`` in this order, each path's routes free for the next (``cost`` is
        spent: planned routes become 0). ``paths`` keeps the searches for other orders
        of the same tickets on the same costs: (ticket ends, routes made free) -> path."""
        g = self.graph
        r_len = g.r_len
        places = g.places
        out: list[int] = []
        used = 0
        dropped = 0
        spent = 0.0
        for t in tickets:
            if paths is None:
                found = cheapest_path(g, cost, places[t.a], places[t.b])
            else:
                key = (t.a, t.b, frozenset(out))
                if key in paths:
                    found = paths[key]
                else:
                    found = paths[key] = cheapest_path(g, cost, places[t.a], places[t.b])
            if found is None:
                dropped += t.points
                continue
            new = [r for r in found[1] if cost[r]]
            need = sum(r_len[r] for r in new)
            if used + need > trains:
                dropped += t.points
                continue
            used += need
            for r in new:
                spent += cost[r]
                cost[r] = 0.0
                out.append(r)
        return (dropped, round(spent, 9)), out

    def _homes(self, game: SampledGame, seat: int) -> set[int]:
        """The seat's home cities (a family where every claim grows one network from
        home: Old West), read from the board's tokens; empty elsewhere."""
        known = _HOMES.get(self._variant)
        if known is False:
            return set()
        index = self.graph.city_index
        tokens = game.city_tokens()
        homes = {index[c] for c, toks in tokens.items()
                 for t in toks if t.kind == "home" and t.seat == seat and c in index}
        if known is None and game.state.phase == "turn":
            # Learnt once per game family: do its seats have home cities at all?
            _HOMES[self._variant] = any(t.kind == "home" for toks in tokens.values()
                                        for t in toks)
        return homes

    def _grow_plan(self, game: SampledGame, seat: int, tickets, cost, homes,
                   kept: list | None = None) -> list[int]:
        """Each ticket end joined to the network that grows from home (own routes free);
        the tickets that fit go into ``kept`` when given."""
        g = self.graph
        r_len = g.r_len
        trains = game.state.trains[seat]
        owner = game.state.owner
        net = set(homes)
        for r in range(g.n_routes):
            if owner[r] == seat:
                net.add(g.r_a[r])
                net.add(g.r_b[r])
        out: list[int] = []
        used = 0
        for t in tickets:
            new: list[int] = []
            ok = True
            for end in (t.a, t.b):
                ends = g.places[end]
                if any(c in net for c in ends):
                    continue
                found = cheapest_path(g, cost, net, ends)
                if found is None:
                    ok = False
                    break
                new.extend(r for r in found[1] if cost[r] and r not in new)
            need = sum(r_len[r] for r in new)
            if not ok or used + need > trains:
                continue
            used += need
            if kept is not None:
                kept.append(t)
            for r in new:
                cost[r] = 0.0
                out.append(r)
                net.add(g.r_a[r])
                net.add(g.r_b[r])
        return out

    # Playing ---------------------------------------------------------------
    def play_out(self, game: SampledGame, max_steps: int = MAX_STEPS) -> int:
        """Play ``game`` (quiet, unchecked) to its end; the number of actions taken."""
        steps = 0
        apply = game.apply
        while not game.is_over and steps < max_steps:
            apply(self.choose(game), False)
            steps += 1
        return steps

    def choose(self, game: SampledGame) -> "Action":
        """The policy's action for the current seat."""
        s = game.state
        phase = s.phase
        if phase == "turn":
            return self._turn(game)
        if phase == "second_card":
            a = self._draw(game, s.current)
            if a is not None:
                return a
        acts = game.legal_actions()
        if phase in ("keep_tickets", "choose_initial_tickets"):
            keeps = [a for a in acts if a.kind == "keep_tickets"]
            if keeps:
                return self._keep(game, keeps)
        if len(acts) == 1:
            return acts[0]
        return self._advise(game, acts)

    def _keep(self, game: SampledGame, keeps) -> "Action":
        """Keep the drawn tickets that fit: cheapest first (on top of the seat's own routes
        and its plan, which cost nothing more), while the trains left after the plan cover
        them; at least as many as the rules ask. A rollout that kept tickets at random
        would make drawing tickets look worse than it is."""
        g = self.graph
        s = game.state
        seat = s.current
        tickets = game.map.tickets
        pending = [tickets[i] for i in s.pending[seat]]
        fewest = min(len(a.tickets) for a in keeps)
        r_len = g.r_len
        plan = self.plan(game, seat) if s.phase == "keep_tickets" else []
        cost = self._costs(game, seat)
        for r in plan:
            cost[r] = 0.0
        spare = s.trains[seat] - sum(r_len[r] for r in plan) - 2
        places = g.places
        priced = []
        for t in pending:
            found = cheapest_path(g, cost, places[t.a], places[t.b])
            # The trains the ticket still needs (the path's cost also counts its claims).
            extra = sum(r_len[r] for r in found[1] if cost[r]) if found else math.inf
            priced.append((extra, -t.points, t.id, found))
        priced.sort(key=lambda p: p[:3])
        chosen: set[str] = set()
        for extra, _, tid, found in priced:
            if found is None:
                continue
            if extra == 0.0 or extra <= spare:
                # Taken paths cost nothing for the next ticket (a rough share).
                spare -= extra
                chosen.add(tid)
                for r in found[1]:
                    cost[r] = 0.0
        for _, _, tid, _ in priced:
            if len(chosen) >= fewest:
                break
            chosen.add(tid)
        for a in keeps:
            if set(a.tickets) == chosen:
                return a
        keeps = [a for a in keeps if len(a.tickets) == fewest]
        return keeps[self.rng.randrange(len(keeps))]

    def _advise(self, game: SampledGame, acts) -> "Action":
        """The family's quick rollout choice, else the Normal bot's choice (with its family
        policy) on the sampled game's view."""
        quick = self._family.rollout_choice(self, game, acts)
        if quick is not None:
            return quick
        if self._advisor is None:
            from ttr_desktop.bots.greedy import GreedyBot
            self._advisor = GreedyBot(self.rng.getrandbits(32))
        return self._advisor.choose(game.view(game.state.current), acts)

    def _turn(self, game: SampledGame) -> "Action":
        s = game.state
        seat = s.current
        if self._family_turn_hook:
            a = self._family.rollout_turn_choice(self, game)
            if a is not None:
                return a
        elif self._family_turns and game.module_choices():
            return self._advise(game, game.legal_actions())
        trains = s.trains[seat]
        first_claim = game.first_claim
        last = s.final_turns_left >= 0 or trains <= ENDGAME_TRAINS or min(s.trains) <= 2
        if not last:
            planned = self._planned(game, seat)
            plan = planned[0]
            if plan:   # the longest planned route it can pay for (the first, on a tie)
                a = first_claim(planned[1])
                if a is not None:
                    return a
            values = self._claim_values(game, seat) if not plan else None
            if values is not None:   # every ticket built: the family's best claim
                a = self._best_claim(game, values, trains)
                if a is not None:
                    return a
            elif not plan:     # every ticket built: long routes for points (4 trains or
                # more, or the last trains; ``by_points`` is longest first)
                a = first_claim(self.by_points[:self.points_cut[min(4, trains)]])
                if a is not None:
                    return a
            if plan and not self._family_values:
                a = self._spend(game, seat, planned)
                if a is not None:
                    return a
            a = self._draw(game, seat, planned)
            if a is not None:
                return a
        # The last turns (or nothing to draw): the best-scoring claim, else anything.
        values = self._claim_values(game, seat)
        if values is not None:
            a = self._best_claim(game, values)
            if a is not None:
                return a
        # (Route by route, best first: listing every claim costs a rollout's last turns
        # more than the rest of its game where payments are enumerated.)
        a = first_claim(self.by_points)
        if a is not None:
            return a
        a = self._draw(game, seat, _NO_PLAN)
        if a is not None:
            return a
        acts = game.legal_actions(canonical=True)
        others = [a for a in acts if a.kind != "draw_tickets"] or acts
        return others[self.rng.randrange(len(others))]

    def _spend(self, game: SampledGame, seat: int, planned: "_Planned") -> "Action | None":
        """The best-scoring claim off the plan, within the trains the plan leaves and of a
        colour the plan does not take, when the seat's spare cards (those beyond what the
        plan takes) should be spent as Normal spends them (``GreedyBot``'s
        ``_plan_out_of_time``): the end in sight (``greedy.end_in_sight``) and the plan
        needing more turns (a claim per route, a turn per two missing cards) than
        ``turns_left``; else None."""
        s = game.state
        trigger = game.ruleset.end_trigger_trains
        # (A quick first check: with every other seat as close as the closest, the end is
        # in sight up to this many trains.)
        window = trigger + (_ENDGAME_TRAINS - trigger) * (len(s.trains) - 1)
        if min(n for o, n in enumerate(s.trains) if o != seat) > window \
                or not _end_in_sight(s.trains, seat, _ENDGAME_TRAINS, trigger):
            return None
        hand = s.hands[seat]
        total = sum(hand)
        r_len, r_color = self.r_len, self.r_color
        routes = planned[0]
        need: dict[int, int] = {}
        gray = 0
        r_long = self.r_long
        #: Of ``need`` and ``gray``, the cards of routes the other wild cards pay for.
        need_long: dict[int, int] = {}
        gray_long = 0
        for r in routes:
            c = r_color[r]
            if c < 0:
                gray += r_len[r]
                if r_long is not None and r_long[r]:
                    gray_long += r_len[r]
            else:
                need[c] = need.get(c, 0) + r_len[r]
                if r_long is not None and r_long[r]:
                    need_long[c] = need_long.get(c, 0) + r_len[r]
        taken = sum(need.values()) + gray
        spare = total - taken
        if spare <= 0:
            return None
        trains = s.trains[seat]
        room = trains - taken
        if room <= 0:
            return None
        missing = 0
        # Cards missing on routes the other wild cards pay for (a colour's own cards go
        # first to its routes they cannot pay for), as ``cards.shortfall`` counts them.
        long_short = 0
        for c, n in need.items():
            if hand[c] < n:
                missing += n - hand[c]
                if need_long:
                    long_short += min(n - hand[c], need_long.get(c, 0))
        spare_colour = max((hand[c] - need.get(c, 0) for c in self.colors), default=0)
        if gray > spare_colour:
            short = gray - max(0, spare_colour)
            missing += short
            long_short += min(short, gray_long)
        if long_short:
            extra = 0
            for k in self.long_wilds:
                extra += hand[k]
            missing -= min(extra, long_short)
        missing = max(0, missing - hand[self.loco]) if self.loco >= 0 \
            else missing
        left = _turns_left(s.trains, seat, trigger)
        if len(routes) + (missing + 1) // 2 <= left:
            return None
        planned_set = set(routes)
        wanted = [r for r in self.by_points
                  if r_len[r] <= room and r not in planned_set
                  and (r_color[r] < 0 or hand[r_color[r]] - r_len[r] >= need.get(r_color[r], 0))]
        return game.first_claim(wanted)

    def _claim_values(self, game: SampledGame, seat: int) -> list[float] | None:
        """What claiming each route is worth to ``seat`` now, in the family's terms
        (``FamilyPolicy.rollout_claim_values``), or None where route points say it."""
        if not self._family_values:
            return None
        return self._family.rollout_claim_values(self, game, seat)

    def _best_claim(self, game: SampledGame, values: list[float],
                    trains: int | None = None) -> "Action | None":
        """The claim of the most valuable route the canonical payment covers. With
        ``trains`` (a turn with nothing planned) only a route worth more than nothing, of
        4 trains or more or the last trains, as when claiming for points."""
        _, order, wanted_by = self._value_entry(values)
        if trains is not None:
            shortest = min(4, trains)
            wanted = wanted_by.get(shortest)
            if wanted is None:   # (kept with the order: the same for the same values)
                r_len = self.r_len
                wanted = []
                for r in order:
                    if values[r] <= 0.0:
                        break
                    if r_len[r] >= shortest:
                        wanted.append(r)
                wanted_by[shortest] = wanted
            order = wanted
        return game.first_claim(order)

    def _value_order(self, values: list[float]) -> list[int]:
        """Route indices by ``values``, best first (kept while the family answers with the
        same list)."""
        return self._value_entry(values)[1]

    def _value_entry(self, values: list[float]) -> tuple[list[float], list[int], dict]:
        """``values``, its routes best first, and the claims worth wanting by shortest
        length (filled in by ``_best_claim``): kept while the family answers with the same
        list."""
        known = self._orders.get(id(values))
        if known is not None and known[0] is values:
            return known     # the family answered with the same values as before
        entry = (values, sorted(range(len(values)), key=lambda r: (-values[r], r)), {})
        if len(self._orders) >= ORDERS_KEPT:
            self._orders.clear()
        self._orders[id(values)] = entry
        return entry

    def _draw(self, game: SampledGame, seat: int,
              planned: "_Planned | None" = None) -> "Action | None":
        """A face-up card of a colour the plan lacks (or a wild card worth one that pays
        for that colour's longest planned route: Märklin's +4 locomotive on a route of 4
        or more spaces), else a blind card, else any card draw at random (None when no
        card may be drawn)."""
        if planned is None:
            planned = (self._planned(game, seat)
                       if game.state.trains[seat] > ENDGAME_TRAINS else _NO_PLAN)
        hand = game.state.hands[seat]
        wanted: set[int] = set()
        for c, n in planned[2]:     # a colour short of its longest planned route
            if hand[c] < n:
                wanted.add(c)
        gray_need = planned[3]
        if gray_need:
            best = max(self.colors, key=hand.__getitem__)
            if hand[best] < gray_need:
                wanted.add(best)
        wild_for = planned[4]
        if wild_for and wanted and (not wild_for.isdisjoint(wanted) or (
                -1 in wild_for and hand[best] < gray_need)):
            wanted.update(self.long_wilds)
        a = game.first_draw(wanted)
        if a is not None:
            return a
        acts = game.draw_choices()   # no blind draw: a face-up card at random
        if not acts:
            return None
        draws = [a for a in acts if a.kind == "draw_face_up"] or acts
        return draws[self.rng.randrange(len(draws))]
