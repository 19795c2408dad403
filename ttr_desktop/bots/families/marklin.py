"""What the bots know of Märklin: ticket mixes, passengers and merchandise.

- Ticket mixes: the first choice takes two long tickets (one for an easy bot) next to the
  short ones, so the keep decision has something to weigh; later draws lean to short
  tickets as the trains run down. Only the mixes offered (the feasible ones) are chosen.
- Placing: a passenger goes on the busier end of a claim — many tracks, many claimed
  routes, a rich merchandise stack — early only on a really busy city, later on any.
- Moving: the best trail from each passenger is searched over the claimed routes (a
  bounded depth-first search: own routes free, opponents' for a passenger card each,
  one token per new city); the bot moves when the haul is big, or late in the game when
  it beats what a claim would score. During the move it follows the best continuation
  and stops when no step adds anything.
- +4 locomotives: the engine only offers payments where they are allowed; the greedy
  payment choice already spends them before plain locomotives, and the bots' card
  arithmetic (``cards.shortfall``) counts them toward routes of 4 or more spaces, so
  Normal takes one face up for a long route and does not treat those it holds as spare.
  The Hard bot's rollouts count them the same way (``rollout.wild_cards``): they take one
  face up for a colour short of a long planned route, and count those in hand (and the
  plain locomotives) before spending cards off the plan near the end. Hard against
  Normals (60 games, 20 rounds a move), before -> after: 3 players 46.7% -> 48.3% wins,
  131.5 -> 132.1 points, 4.7 -> 5.3 cards; 2 players 68.3% -> 68.3%, 150.6 -> 150.9
  points, 6.2 -> 6.0 cards.
- With more cards than trains, Normal (and Hard's own turns) plans the way its hand pays
  for (``greedy._Turn._plan_for_the_hand``): all-Normal 2 players ended with 7.8 cards
  instead of 9.45, 3 players 6.6 instead of 7.4, for the same points. Hard against one
  Normal, 60 games: 66.7% wins (68.3% before), Normal 129.7 points instead of 126.6,
  8.3 cards instead of 9.4; against two Normals 43.3% wins (48.3% before), the
  Normals 109.0 and 107.2 points instead of 111.2 and 103.7.
- In the Hard bot's rollouts (thousands of games a second) a passenger walks greedily,
  always to the richest next token, and moves late in the game when that walk brings
  enough; placing is judged as above. A move the Hard bot weighs for the real turn is
  played in its rollouts along the best trail, as Normal walks it (``search_followups``).
  The Hard bot weighs a move only when its haul is one Normal would move for now
  (``turn_candidates``): rollouts undervalue a passenger kept for later.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ttr_desktop.bots.families import LateTicketsPolicy
from ttr_desktop.rules.modules.marklin import MOVE, PASSENGER_CARD, PLACE

if TYPE_CHECKING:
    from ttr_desktop.rules.actions import Action
    from ttr_desktop.rules.view import PlayerView

#: Search effort per passenger (trail prefixes looked at).
SEARCH_NODES = 1500
#: Points a passenger card is worth keeping (it pays a later step).
CARD_VALUE = 0.5
#: A haul this big is worth a turn at any time.
BIG_HAUL = 11
#: Late in the game (own or an opponent's trains at or below this) a smaller haul will do.
LATE_TRAINS = 14
LATE_HAUL = 6


def _mix_key(mix: tuple[tuple[str, int], ...]) -> int:
    return dict(mix).get("long", 0)


def choose_mix(draws: Sequence["Action"], want_long: int) -> "Action":
    """The offered mix with the number of long tickets closest to ``want_long`` (fewer
    long ones when two are as close)."""
    return min(draws, key=lambda a: (abs(_mix_key(a.mix) - want_long), _mix_key(a.mix)))


class Trails:
    """Best passenger trails over the claimed routes, read from a view."""

    def __init__(self, view: "PlayerView") -> None:
        self.view = view
        self.g = view.graph
        self.seat = view.seat
        self.owner = view.owner_list
        stacks = view.extra.get("merchandise", {})
        index = self.g.city_index
        self.top = [0] * self.g.n_cities
        for cid, stack in stacks.items():
            if stack:
                self.top[index[cid]] = stack[0]
        self.cards = view.hand.get(PASSENGER_CARD, 0)

    def best(self, start: int, cur: int | None = None, used: Sequence[int] = (),
             visited: Sequence[int] = ()) -> tuple[float, list[int]]:
        """(value, routes) of the best way on from ``cur`` (default ``start``), having used
        ``used`` and taken tokens in ``visited``: merchandise minus the passenger cards it
        costs. The empty trail is worth 0."""
        g, owner, seat, top, sink = self.g, self.owner, self.seat, self.top, self.g.sink
        adj = g.adj
        used_set = set(used)
        seen = set(visited)
        best: list[Any] = [0.0, []]
        nodes = [0]
        path: list[int] = []

        def dfs(city: int, value: float, cards: int) -> None:
            nodes[0] += 1
            if value > best[0] + 1e-9:
                best[0], best[1] = value, path[:]
            if nodes[0] > SEARCH_NODES:
                return
            options = []
            for r, other in adj[city]:
                o = owner[r]
                if o < 0 or r in used_set or sink[other]:
                    continue
                cost = 0 if o == seat else 1
                if cost > cards:
                    continue
                gain = top[other] if other != start and other not in seen else 0
                options.append((gain - CARD_VALUE * cost, r, other, cost, gain))
            options.sort(reverse=True)
            for worth, r, other, cost, gain in options:
                used_set.add(r)
                fresh = gain > 0 or (other != start and other not in seen)
                if fresh:
                    seen.add(other)
                path.append(r)
                dfs(other, value + worth, cards - cost)
                path.pop()
                if fresh:
                    seen.discard(other)
                used_set.discard(r)

        dfs(start if cur is None else cur, 0.0, self.cards)
        return best[0], best[1]


def _haul_worth_a_turn(view: "PlayerView") -> int | None:
    """The haul a passenger move must bring for Normal to spend a turn on it now:
    ``BIG_HAUL``, ``LATE_HAUL`` once someone is down to ``LATE_TRAINS`` trains, and None
    in the last turns (any haul that beats the best claim)."""
    fewest = min(view.trains_left)
    if view.final_round or fewest <= 4:
        return None
    return LATE_HAUL if fewest <= LATE_TRAINS else BIG_HAUL


class MarklinPolicy(LateTicketsPolicy):
    """Ticket mixes, passenger placement and passenger moves for Märklin.

    Hard searches Märklin with the base settings (``FamilyPolicy``'s: its own points
    weighed with the margin, plans leaning to long routes and ordered to share, keeps by
    the best mean, the stricter bar for leaving Normal's move). 3-player Märklin, Hard
    against two Normals, 100 seat-rotated games at 0.25 s of processor time a move (seeds
    1-100): 65% of the wins [55%, 74%], 145.5 points against 104.1, 4.6 cards left and
    0.27 failed tickets; with the settings measured at 2 players before (margin alone),
    46% [37%, 56%], 137 points against 105, 5.2 cards and 0.46 failed tickets."""

    variants = ("marklin",)

    # Decisions in phases ------------------------------------------------------------
    def phase_choice(self, bot: Any, view: "PlayerView",
                     legal: Sequence["Action"]) -> "Action | None":
        phase = view.phase
        if phase == "choose_initial_tickets":
            draws = [a for a in legal if a.kind == "draw_tickets"]
            if draws:
                return choose_mix(draws, 1 if getattr(bot, "level", 2) < 2 else 2)
            return None
        if phase == PLACE:
            return self._place(view, legal)
        if phase == MOVE:
            return self._step(view, legal)
        return None

    def _place(self, view: "PlayerView", legal: Sequence["Action"]) -> "Action":
        places = [a for a in legal if a.kind == "place_passenger"]
        decline = next((a for a in legal if a.kind == "decline"), legal[0])
        if not places:
            return decline
        scored = [(self.busy(view, a.city_id), a) for a in places]
        score, best = max(scored, key=lambda p: (p[0], p[1].city_id))
        trains = view.trains_left[view.seat]
        need = 9.0 if trains > 30 else 6.0 if trains > 15 else 0.0
        return best if score >= need else decline

    @staticmethod
    def busy(view: "PlayerView", city_id: str) -> float:
        """How good a start ``city_id`` is: tracks there, claimed ones (own ones most) and
        the merchandise waiting at its neighbours."""
        g = view.graph
        c = g.city_index[city_id]
        owner = view.owner_list
        stacks = view.extra.get("merchandise", {})
        score = 0.0
        for r, other in g.adj[c]:
            if g.sink[other]:
                continue
            score += 1.0
            o = owner[r]
            if o == view.seat:
                score += 2.0
            elif o >= 0:
                score += 1.0
            stack = stacks.get(g.city_ids[other]) or ()
            score += 0.3 * (stack[0] if stack else 0)
        return score

    def _step(self, view: "PlayerView", legal: Sequence["Action"]) -> "Action":
        move = view.extra.get("passenger_move") or {}
        stop = next((a for a in legal if a.kind == "stop_passenger"), None)
        steps = {a.route_id: a for a in legal if a.kind == "passenger_step"}
        if not move or not steps:
            return stop or legal[0]
        g = view.graph
        trails = Trails(view)
        value, routes = trails.best(g.city_index[move["start"]], g.city_index[move["at"]],
                                    [g.route_index[r] for r in move["used"]],
                                    [g.city_index[c] for c in move["visited"]])
        if routes and (value > 0 or stop is None):
            act = steps.get(g.route_ids[routes[0]])
            if act is not None:
                return act
        if stop is not None:
            return stop
        # The first step must be taken: the cheapest one.
        return min(steps.values(), key=lambda a: (view.route_owners.get(a.route_id) != view.seat,
                                                  a.route_id))

    # The turn -------------------------------------------------------------------------
    def turn_choice(self, turn: Any, legal: Sequence["Action"]) -> "Action | None":
        view: PlayerView = turn.view
        move = self._move_choice(turn, view, legal)
        if move is not None:
            return move
        draws = [a for a in legal if a.kind == "draw_tickets"]
        if draws and not turn.plan.routes and turn._should_draw_tickets():
            trains = view.trains_left[view.seat]
            want = 2 if trains > 32 else 1 if trains > 22 else 0
            return choose_mix(draws, want)
        return None

    def _move_choice(self, turn: Any, view: "PlayerView",
                     legal: Sequence["Action"]) -> "Action | None":
        moves = [a for a in legal if a.kind == "move_passenger"]
        if not moves:
            return None
        g = view.graph
        trails = Trails(view)
        best, best_value = None, 0.0
        for a in moves:
            value, _ = trails.best(g.city_index[a.city_id])
            if value > best_value:
                best, best_value = a, value
        if best is None:
            return None
        need = _haul_worth_a_turn(view)
        if need is None and best_value < BIG_HAUL:
            # The passenger is worth nothing after the game: move unless a claim scores more.
            claim = max((view.route_points.get(view.map.routes[a.route_id].length, 0)
                         for a in legal if a.kind == "claim_route"), default=0)
            return best if best_value >= claim else None
        return best if need is None or best_value >= need else None

    def turn_candidates(self, view: "PlayerView",
                        moves: Sequence["Action"]) -> Sequence["Action"]:
        """Passenger moves whose haul is one Normal would move for now (``BIG_HAUL``;
        ``LATE_HAUL`` once someone is down to ``LATE_TRAINS`` trains; any in the last turns).
        Rollouts move a passenger late and along a greedy walk, so a kept passenger is worth
        less there than at the table: searched freely, small early hauls won the rollouts
        and lost the race for the top tokens (merchandise 31 to Normal's 35 a game)."""
        need = _haul_worth_a_turn(view)
        if need is None:
            return moves
        g = view.graph
        trails = Trails(view)
        return [a for a in moves if a.kind != "move_passenger"
                or trails.best(g.city_index[a.city_id])[0] >= need]

    def search_followups(self, view: "PlayerView", action: "Action") -> Sequence["Action"]:
        """A passenger move's steps along its best trail (as Normal walks it): rollouts
        walk greedily, and a greedy walk brings less than the trail the move will take."""
        if action.kind != "move_passenger":
            return ()
        from ttr_desktop.rules.modules.marklin import PassengerStep

        g = view.graph
        _, routes = Trails(view).best(g.city_index[action.city_id])
        return [PassengerStep(g.route_ids[r]) for r in routes]

    # Inside the Hard bot's rollouts -------------------------------------------------
    def rollout_choice(self, rollout: Any, game: Any,
                       legal: Sequence["Action"]) -> "Action | None":
        """Placing as above (a cheap look at the two ends); a step of a move toward the
        richest next token, stopping when none is left worth a card. The ticket mix is
        Normal's."""
        phase = game.state.phase
        if phase == PLACE:
            return self._place(game.view(game.state.current), legal)
        if phase == MOVE:
            return _rollout_step(rollout, game, legal)
        return None

    def rollout_turn_choice(self, rollout: Any, game: Any) -> "Action | None":
        """Late in a rollout (someone at ``LATE_TRAINS`` trains or fewer), move the passenger
        whose greedy trail brings ``LATE_HAUL`` or more; in the last turns, any haul worth a
        short claim. Earlier the rollout builds: rollouts that also moved for big hauls
        earlier (looking every third turn) won 52% against Normal instead of 63% (60
        games at 0.25 s), and a trail walked at every turn would cost more than the rest
        of the rollout."""
        s = game.state
        seat = s.current
        st = s.ext["marklin"]
        if not st.at[seat]:
            return None
        fewest = min(s.trains)
        if fewest > LATE_TRAINS and s.final_turns_left < 0:
            return None
        best, best_city = 0.0, -1
        for c in st.at[seat]:
            haul = _greedy_haul(rollout.graph, game, seat, c)
            if haul > best:
                best, best_city = haul, c
        last = s.final_turns_left >= 0 or fewest <= 4
        if best_city < 0 or best < (LAST_HAUL if last else LATE_HAUL):
            return None
        city_id = rollout.graph.city_ids[best_city]
        for a in game.module_choices():
            if a.kind == "move_passenger" and a.city_id == city_id:
                return a
        return None


#: In a rollout's last turns, a haul this big beats a short claim.
LAST_HAUL = 3


def _step_worth(g: Any, st: Any, owner: list[int], seat: int, r: int, here: int,
                start: int, visited: Any) -> float:
    """What taking route ``r`` from ``here`` brings a moving passenger: the next city's top
    token (none at the start or a city already visited), less a passenger card's worth on
    an opponent's route."""
    there = g.r_b[r] if g.r_a[r] == here else g.r_a[r]
    stack = st.stacks[there]
    gain = stack[0] if stack and there != start and there not in visited else 0
    return gain - (0.0 if owner[r] == seat else CARD_VALUE)


def _rollout_step(rollout: Any, game: Any, legal: Sequence["Action"]) -> "Action":
    """The step toward the richest next token, or stop when none is worth taking."""
    st = game.state.ext["marklin"]
    g = rollout.graph
    owner = game.state.owner
    index = g.route_index
    best, best_worth, stop = None, -1e9, None
    for a in legal:
        if a.kind != "passenger_step":
            stop = a
            continue
        w = _step_worth(g, st, owner, st.mover, index[a.route_id], st.cur, st.start,
                        st.visited)
        if w > best_worth:
            best, best_worth = a, w
    if best is None or (best_worth <= 0.0 and stop is not None):
        return stop if stop is not None else legal[0]
    return best


def _greedy_haul(g: Any, game: Any, seat: int, start: int) -> float:
    """Merchandise a passenger at ``start`` would bring by always taking the richest next
    token (own routes free, an opponent's for a passenger card), as ``_rollout_step``
    moves it."""
    s = game.state
    st = s.ext["marklin"]
    owner = s.owner
    cards = s.hands[seat][game.board.card_index[PASSENGER_CARD]]
    here, used, visited, total = start, set(), set(), 0.0
    adj, sink = g.adj, g.sink
    stacks = st.stacks
    for _ in range(12):
        best_r, best_w = -1, 0.0
        for r, there in adj[here]:
            o = owner[r]
            if o < 0 or r in used or sink[there] or (o != seat and cards < 1):
                continue
            # ``_step_worth``, written out (a rollout walks these every late turn).
            stack = stacks[there]
            gain = stack[0] if stack and there != start and there not in visited else 0
            w = gain - (0.0 if o == seat else CARD_VALUE)
            if w > best_w:
                best_r, best_w = r, w
        if best_r < 0:
            break
        if owner[best_r] != seat:
            cards -= 1
        used.add(best_r)
        here = g.r_b[best_r] if g.r_a[best_r] == here else g.r_a[best_r]
        visited.add(here)
        total += best_w
    return total
