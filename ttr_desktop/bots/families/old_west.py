"""What the bots know of Old West: home cities, one growing network, markers and Alvin.

- Planning: every route must touch the seat's network, which grows from its home city,
  so a ticket is planned as two paths out of the network (to each of its cities); routes
  planned for one ticket are free for the next. Routes into an opponent's marker cost a
  little more (their points would go to that opponent).
- Tickets before the home city is known: each set of tickets is weighed with the best home
  among its own cities.
- Home city: the free city from which the kept tickets cost fewest trains, a busy one
  (more tracks, more redirected points from the others) when two are close.
- City markers: bought on the end where the seat's own planned routes (doubled when both
  ends are its own, recovered from an opponent's marker) and the others' likely claims
  bring most, when the pair spent does not set the plan back.
- Alvin: a short detour to his city joins the plan when someone else holds him; once
  captured he goes to the seat's city that the others can reach least easily.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ttr_desktop.bots.cards import minus_cards, shortfall
from ttr_desktop.bots.families import AsMeasuredPolicy
from ttr_desktop.bots.graph import Plan
from ttr_desktop.rules.graph import cheapest_path
from ttr_desktop.rules.words import plural, plural_word

if TYPE_CHECKING:
    from ttr_desktop.rules.actions import Action
    from ttr_desktop.rules.view import PlayerView

#: Extra planning cost of a route into a city marked by an opponent (per such end).
OPPONENT_MARK_COST = 1.2
#: Cost, in points, of each train a plan needs (as the greedy bot weighs tickets).
TRAIN_COST = 0.45
#: Points a rollout expects from capturing Alvin (+10 now; his +10 card if it keeps him).
ALVIN_VALUE = 15.0
#: Alvin's city joins the plan when the detour takes at most this many trains.
ALVIN_DETOUR = 3
#: Chance that one opponent claims a given open route next to a marker, over the game.
OPPONENT_CLAIM = 0.12
#: Points a pair of cards is worth keeping, and per card the plan then lacks.
PAIR_COST = 1.5
SHORTFALL_COST = 2.0
#: Home cities the Hard bot searches (the best by the plan's judgement).
HOME_CANDIDATES = 4
#: Rollout claim values kept before the store starts again (markers x seats x samples).
CLAIM_VALUES_KEPT = 4096


def _points(view: "PlayerView", length: int) -> int:
    return (view.route_points or {}).get(length, length)


def _mine(view: "PlayerView") -> set[int]:
    """City indices the seat controls (home and markers)."""
    g = view.graph
    return {g.city_index[c] for c, o in view.extra.get("city_markers", {}).items()
            if o == view.seat}


def _opponent_marks(view: "PlayerView") -> dict[int, int]:
    g = view.graph
    return {g.city_index[c]: o for c, o in view.extra.get("city_markers", {}).items()
            if o != view.seat}


def plan_from(sit: Any, view: "PlayerView", tickets: Sequence[Any], home: int,
              budget: int | None = None, alvin: bool = True) -> Plan:
    """A plan growing the network from ``home``: both cities of each ticket joined to it."""
    g = sit.graph
    budget = sit.trains if budget is None else budget
    cost = sit.cost[:]
    marks = _opponent_marks(view)
    if marks:
        for r in range(g.n_routes):
            w = cost[r]
            if w:
                cost[r] = w + OPPONENT_MARK_COST * ((g.r_a[r] in marks) + (g.r_b[r] in marks))
    out = Plan()
    chosen: set[int] = set()
    src = (home,)

    def reach(targets: Sequence[str], c: list) -> list[int] | None:
        routes: list[int] = []
        c = c[:]
        for place in targets:
            found = cheapest_path(g, c, src, g.places[place])
            if found is None:
                return None
            for r in found[1]:
                if c[r] != 0.0:
                    routes.append(r)
                    c[r] = 0.0
        return routes

    for t in tickets:
        options = [x for x in (reach((t.a, t.b), cost), reach((t.b, t.a), cost)) if x is not None]
        if not options:
            out.dropped.append(t)
            continue
        new = min(options, key=lambda rs: (sum(g.r_len[r] for r in rs), rs))
        need = sum(g.r_len[r] for r in new)
        if not new:
            (out.done if not chosen else out.planned).append(t)
            continue
        if out.trains + need > budget:
            out.dropped.append(t)
            continue
        out.planned.append(t)
        out.trains += need
        for r in new:
            chosen.add(r)
            out.routes.append(r)
            cost[r] = 0.0
    info = view.extra.get("alvin") if alvin else None
    if info and info["holder"] != view.seat:
        target = g.city_index[info["city"]]
        found = cheapest_path(g, cost, src, (target,))
        if found is not None:
            new = [r for r in found[1] if cost[r] != 0.0]
            need = sum(g.r_len[r] for r in new)
            if 0 < need <= ALVIN_DETOUR and out.trains + need <= budget:
                out.trains += need
                out.routes.extend(new)
    return out


def plan_value(plan: Plan, tickets: Sequence[Any]) -> float:
    """Ticket points planned minus those dropped, minus the trains the plan takes."""
    bad = {t.id for t in plan.dropped}
    return sum(-t.points if t.id in bad else t.points for t in tickets) - TRAIN_COST * plan.trains


class OldWestPolicy(AsMeasuredPolicy):
    """Network planning, home cities, city markers and Alvin for Old West.

    Its Hard keeps the fewest of the first tickets the rules allow (3 of 5:
    ``search_fewest_first_keep``) and draws more once those are built. 3 players, Hard
    against two Normals, 60 seat-rotated games at 20 rounds a move, seeds 1-60: with
    Normal's keep as its default and every keep size searched, Hard won 41.7% with 94.4
    points and failed 0.98 tickets a game (55 of 232 first tickets kept); keeping 3, it
    won 51.7% with 104.5 points and failed 0.55 (23 of 180; 40 tickets drawn later,
    against 13). In the matrix (100 games a cell, 0.25 s of processor time a move, seeds
    1-100), before -> after: Old West 52% -> 47% ([38%, 57%]), 102 -> 98 points, 0.92 ->
    0.60 failed tickets; with Alvin 49% -> 55.5% ([46%, 65%]), 103 -> 112 points, 1.10 ->
    0.53 failed: the failures halve, the win share holds within its noise."""

    variants = ("old-west",)
    search_fewest_first_keep = True

    def __init__(self) -> None:
        #: (board, seat, markers, Alvin's city, opponents, A-23) -> (board, claim values)
        self._claim_values: dict[tuple, tuple[Any, list[float]]] = {}

    # Planning ---------------------------------------------------------------------------
    def plan(self, sit: Any, view: "PlayerView", tickets: Sequence[Any],
             budget: int | None = None) -> Plan | None:
        homes = view.extra.get("home_cities") or ()
        home = homes[view.seat] if view.seat < len(homes) else ""
        g = sit.graph
        if home:
            return plan_from(sit, view, tickets, g.city_index[home], budget)
        # Before the home city is chosen: the best home among the tickets' cities.
        taken = set(view.extra.get("city_markers", {}))
        candidates = {c for t in tickets for c in (t.a, t.b)
                      if c in g.city_index and c not in taken}
        best, best_value = None, None
        for cid in sorted(candidates):
            p = plan_from(sit, view, tickets, g.city_index[cid], budget, alvin=False)
            v = plan_value(p, tickets)
            if best_value is None or v > best_value:
                best, best_value = p, v
        return best

    # Decisions --------------------------------------------------------------------------
    def phase_choice(self, bot: Any, view: "PlayerView",
                     legal: Sequence["Action"]) -> "Action | None":
        phase = view.phase
        if phase == "choose_home_city":
            return self._home(view, legal)
        if phase == "place_city_marker":
            return self._marker(view, legal)
        if phase == "move_alvin":
            return self._alvin(view, legal)
        return None

    def _home(self, view: "PlayerView", legal: Sequence["Action"]) -> "Action":
        ranked = self._homes_ranked(view, legal)
        return ranked[0] if ranked else legal[0]

    def _homes_ranked(self, view: "PlayerView",
                      legal: Sequence["Action"]) -> list["Action"]:
        """Home city choices, best first: the kept tickets' plan from there, and a busy city
        (more tracks, more redirected points) when two are close."""
        from ttr_desktop.bots.graph import Situation

        sit = Situation(view)
        g = sit.graph
        done = set(view.completed_tickets)
        tickets = sorted((t for t in view.tickets if t.id not in done),
                         key=lambda t: (-t.points, t.id))
        budget = max(0, sit.trains - 3)
        keyed = []
        for a in legal:
            if a.kind != "choose_home_city":
                continue
            c = g.city_index[a.city_id]
            p = plan_from(sit, view, tickets, c, budget, alvin=False)
            busy = sum(1 for _ in g.adj[c])
            keyed.append((plan_value(p, tickets) + 0.3 * busy, a.city_id, a))
        keyed.sort(key=lambda k: k[:2], reverse=True)
        return [a for _, _, a in keyed]

    weighty_phases = frozenset({"choose_home_city"})

    def phase_candidates(self, view: "PlayerView",
                         legal: Sequence["Action"]) -> Sequence["Action"]:
        """The home city decides every route the seat may claim: the best few homes by the
        plan's judgement are searched (it weighs only the seat's own tickets, not where the
        others will build or which cities pay markers). A city marker (either end, or
        none) redirects points for the rest of the game: every choice is searched."""
        if view.phase == "choose_home_city":
            return self._homes_ranked(view, legal)[:HOME_CANDIDATES]
        if view.phase == "place_city_marker":
            return list(legal)
        return ()

    def _marker(self, view: "PlayerView", legal: Sequence["Action"]) -> "Action":
        """Buy a marker where the seat's planned routes and the others' likely claims
        bring most (``marker_choice``)."""
        from ttr_desktop.bots.graph import Situation

        sit = Situation(view)
        done = set(view.completed_tickets)
        tickets = sorted((t for t in view.tickets if t.id not in done),
                         key=lambda t: (-t.points, t.id))
        routes = (self.plan(sit, view, tickets) or Plan()).routes
        return marker_choice(sit.graph, legal, routes, *marker_facts(view))

    def _alvin(self, view: "PlayerView", legal: Sequence["Action"]) -> "Action":
        """Alvin goes where the others are least likely to claim into."""
        g = view.graph
        owner = view.owner_list
        seat = view.seat
        reached: set[int] = set()
        for r, o in enumerate(owner):
            if o >= 0 and o != seat:
                reached.update((g.r_a[r], g.r_b[r]))
        for cid, o in view.extra.get("city_markers", {}).items():
            if o != seat:
                reached.add(g.city_index[cid])

        def exposure(a: "Action") -> tuple:
            c = g.city_index[a.city_id]
            near = sum(1 for r, other in g.adj[c] if owner[r] < 0 and other in reached)
            open_ = sum(1 for r, _ in g.adj[c] if owner[r] < 0)
            return (near, open_, a.city_id)

        moves = [a for a in legal if a.kind == "move_alvin"]
        return min(moves, key=exposure) if moves else legal[0]

    def rollout_choice(self, rollout: Any, game: Any,
                       legal: Sequence["Action"]) -> "Action | None":
        """Markers weighed against the rollout's own plan (no planning again), and Alvin's
        move as above: together half of an Old West rollout's time when Normal decided."""
        phase = game.state.phase
        if phase == "choose_home_city":
            return self._rollout_home(rollout, game, legal)
        if phase == "place_city_marker":
            # What the seat's view would say, read from the sampled game (a view costs
            # as much again as the choice).
            seat = game.state.current
            return marker_choice(rollout.graph, legal, rollout.plan(game, seat),
                                 *game_marker_facts(game, seat))
        if phase == "move_alvin":
            return self._alvin(game.view(game.state.current), legal)
        return None

    def _rollout_home(self, rollout: Any, game: Any,
                      legal: Sequence["Action"]) -> "Action | None":
        """A rollout seat's home: the free city among its tickets' ends from which the
        rollout's own plan keeps the most points for the fewest trains (Normal weighs every
        city on the map, which costs a rollout more than the rest of its game)."""
        seat = game.state.current
        g = rollout.graph
        tickets = sorted((game.map.tickets[i] for i in game.state.tickets[seat]),
                         key=lambda t: (-t.points, t.id))
        ends = {c for t in tickets for c in (t.a, t.b)}
        cost = rollout._costs(game, seat)
        best, best_key = None, None
        for a in legal:
            if a.kind != "choose_home_city" or a.city_id not in ends:
                continue
            kept: list = []
            routes = rollout._grow_plan(game, seat, tickets, cost[:],
                                        {g.city_index[a.city_id]}, kept)
            value = 2 * sum(t.points for t in kept) - sum(t.points for t in tickets) \
                - TRAIN_COST * sum(g.r_len[r] for r in routes)
            key = (value, a.city_id)
            if best_key is None or key > best_key:
                best, best_key = a, key
        return best

    def rollout_claim_values(self, rollout: Any, game: Any, seat: int) -> list[float]:
        """Route points as the markers redirect them (a marked end pays its owner; an
        opponent's gain counts against the seat, shared among the opponents), and Alvin's
        capture. Without it a rollout would claim for points that go to an opponent."""
        b = game.board
        marker = game.state.ext["old_west"].marker
        alvin = game.state.ext.get("alvin")
        alvin_city = alvin.city if alvin is not None and alvin.holder != seat else -1
        others = max(1, game.num_players - 1)
        double = game.ruleset.knob("oldwest_self_double", True)
        # The values change only with the markers and Alvin: a rollout asks for them
        # every turn once its tickets are built, so each answer is kept (and shared, never
        # changed by the caller).
        key = (id(b), seat, tuple(marker), alvin_city, others, double)
        known = self._claim_values.get(key)
        if known is not None and known[0] is b:
            return known[1]
        if len(self._claim_values) >= CLAIM_VALUES_KEPT:
            self._claim_values.clear()
        out = []
        for r, pts in enumerate(b.r_points):
            a, z = b.r_a[r], b.r_b[r]
            ma, mb = marker[a], marker[z]
            if (ma < 0 and mb < 0) or (ma == mb == seat and not double):
                v = float(pts)
            else:
                v = 0.0
                for m in (ma, mb):
                    if m == seat:
                        v += pts
                    elif m >= 0:
                        v -= pts / others
            if alvin_city in (a, z):
                v += ALVIN_VALUE
            out.append(v)
        self._claim_values[key] = (b, out)
        return out

    # The turn ---------------------------------------------------------------------------
    def turn_choice(self, turn: Any, legal: Sequence["Action"]) -> "Action | None":
        """Capture Alvin when a short claim into his city is in hand."""
        view = turn.view
        info = view.extra.get("alvin")
        if not info or info["holder"] == view.seat:
            return None
        g = turn.g
        target = g.city_index[info["city"]]
        claims = turn._claims_by_route()
        near = [r for r in claims if target in (g.r_a[r], g.r_b[r])
                and (g.r_len[r] <= ALVIN_DETOUR or g.r_link[r] in turn.plan_links)]
        if not near:
            return None
        r = min(near, key=lambda r: (g.r_len[r], r))
        return turn._payment(claims[r], r)

    def route_bonus(self, view: "PlayerView", route: int) -> float:
        """Alvin's capture, and the points a marker redirects."""
        g = view.graph
        a, b = g.r_a[route], g.r_b[route]
        bonus = 0.0
        info = view.extra.get("alvin")
        if info and info["holder"] != view.seat and g.city_index[info["city"]] in (a, b):
            bonus += 10 + (10 if info["holder"] >= 0 else 0)
        marks = _opponent_marks(view)
        mine = _mine(view)
        pts = _points(view, g.r_len[route])
        ends = [x for x in (a, b) if x in marks]
        if ends:
            own = sum(1 for x in (a, b) if x in mine)
            bonus += pts * own - pts  # the claimant's points go to the marked ends
        elif a in mine and b in mine:
            bonus += pts
        return bonus


    def hint_action_words(self, view: "PlayerView", action: "Action") -> str | None:
        """A home city that ends tickets; a marker that takes the points of claims into its
        city (rules.md §3)."""
        g = view.graph
        names = view.map.cities
        if action.kind == "choose_home_city":
            ends = [t for t in view.tickets if action.city_id in (t.a, t.b)]
            if not ends:
                return None
            place = view.map.place_name
            return (f"{names[action.city_id].name} ends {plural(len(ends), 'ticket')} of "
                    "yours: " + ", ".join(f"{place(t.a)}–{place(t.b)}" for t in ends))
        if action.kind == "place_city_marker":
            c = g.city_index[action.city_id]
            owner = view.owner_list
            free = sum(1 for r, _ in g.adj[c] if owner[r] < 0)
            return (f"a marker on {names[action.city_id].name} takes the points of every "
                    f"route claimed into it: {plural(free, 'open route')} still lead there")
        return None

    def hint_claim_words(self, view: "PlayerView", route: int) -> list[str]:
        """Who the claim's points go to (the markers on its ends, rules.md §3) and
        whether it captures Alvin."""
        g = view.graph
        ends = (g.r_a[route], g.r_b[route])
        names = view.map.cities
        pts = _points(view, g.r_len[route])
        marks = {g.city_index[c]: o for c, o in view.extra.get("city_markers", {}).items()}
        out: list[str] = []
        mine = [c for c in ends if marks.get(c) == view.seat]
        others = [c for c in ends if c in marks and marks[c] != view.seat]
        if not mine and not others:
            out.append(f"it scores {plural(pts, 'point')}")
        if mine:
            where = " and ".join(names[g.city_ids[c]].name for c in mine)
            out.append(f"it scores {plural(pts * len(mine), 'point')} through your "
                       f"{plural_word(len(mine), 'marker')} at {where}")
        for c in others:
            out.append(f"{view.players[marks[c]]}'s marker at {names[g.city_ids[c]].name} "
                       f"takes its {plural(pts, 'point')}")
        info = view.extra.get("alvin")
        if info and info["holder"] != view.seat and g.city_index[info["city"]] in ends:
            city = names[info["city"]].name
            out.append(f"it captures Alvin in {city}" if info["holder"] < 0 else
                       f"it takes Alvin in {city} from {view.players[info['holder']]}")
        return out


def marker_facts(view: "PlayerView") -> tuple:
    """What ``marker_choice`` weighs, as the seat's view shows it: the seat's marked
    cities, the others' (city -> seat), the route owners, the seat count, every seat's
    trains, the hand and the route points."""
    return (_mine(view), _opponent_marks(view), tuple(view.owner_list), view.num_players,
            tuple(view.trains_left), dict(view.hand), dict(view.route_points or {}))


def game_marker_facts(game: Any, seat: int) -> tuple:
    """``marker_facts`` of ``seat``'s view, read from a game the bot sampled itself (a
    view costs a rollout as much again as the choice)."""
    s = game.state
    marker = s.ext["old_west"].marker
    return ({c for c, o in enumerate(marker) if o == seat},
            {c: o for c, o in enumerate(marker) if o >= 0 and o != seat},
            tuple(s.owner), game.num_players, tuple(s.trains),
            dict(zip(game.board.card_names, s.hands[seat])), dict(game.ruleset.route_points))


def marker_choice(g: Any, legal: Sequence["Action"], routes: Sequence[int], mine: set[int],
                  marks: dict[int, int], owner: Sequence[int], players: int,
                  trains: Sequence[int], hand: dict[str, int],
                  route_points: Any) -> "Action":
    """The city marker to buy (or none): on the end where the seat's planned ``routes``
    (doubled when both ends are its own, recovered from an opponent's marker) and the
    others' likely claims bring most, when the pair spent does not set the plan back.

    ``mine``: the seat's marked cities; ``marks``: city -> opponent for the others';
    ``owner``: per route, its seat or -1; ``trains``: every seat's trains left."""
    decline = next((a for a in legal if a.kind == "decline"), legal[0])
    places = [a for a in legal if a.kind == "place_city_marker"]
    if not places:
        return decline
    planned = set(routes)
    opponents = max(1, players - 1)
    late = min(trains) <= 8
    base = shortfall(g, routes, hand)
    best, best_value = decline, 0.0
    for a in places:
        c = g.city_index[a.city_id]
        value = 0.0
        for r, other in g.adj[c]:
            if owner[r] >= 0:
                continue
            pts = route_points.get(g.r_len[r], g.r_len[r])
            if r in planned:
                if other in mine:
                    value += pts          # both ends mine: scored twice
                elif other in marks:
                    value += pts          # recovered from the opponent's marker
                else:
                    value += 0.3 * pts    # an opponent cannot take the end from me
            elif not late:
                value += OPPONENT_CLAIM * opponents * pts
        cost = PAIR_COST + SHORTFALL_COST * (
            shortfall(g, routes, minus_cards(hand, a.cards)) - base)
        net = value - cost
        if net > best_value + 1e-9:
            best, best_value = a, net
    return best
