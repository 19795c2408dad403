"""The Hard bot: determinized rollouts over turn-sized candidate moves.

It sees only its ``PlayerView`` (and remembers nothing the view does not say).
Each decision:

1. **Candidates.** A handful of turn-sized moves, not every payment: the Normal
   (greedy) bot's own choice, its plans leaning toward routes that score more than a
   point a train (``FamilyPolicy.search_route_lean``) and taking its tickets in the
   order whose paths share most (``FamilyPolicy.search_plan_orders``); each claim of a
   route on its ticket plan, of a route that completes a ticket, and of the
   best-scoring routes, each with the payment that keeps the colours the rest of the
   plan needs; the best-scoring route off the plan that the cards the plan does not take
   pay for (``_Turn._spend_spare_cards``); drawing toward the plan (face-up and blind);
   drawing tickets once the current ones are (nearly) built (``FamilyPolicy.search_ticket_plan_left``); a
   station; the family's proposal and its own turn moves that it finds worth searching
   (``FamilyPolicy.turn_candidates``).
   Ticket choices list every keep (their own, larger budget: the family's
   ``FamilyPolicy.search_keep_budget_factor`` times a turn's); when there are more
   than it searches, the best keep of each size and then the next best by Normal's
   valuation (which plans with the family's rules). A rule module's step (a home
   city, a marker, coal...) is the family policy's judgement, weighed against the
   choices the family finds worth searching (``FamilyPolicy.phase_candidates``: Old
   West's homes and markers).
2. **Determinize.** Sample a whole game consistent with the view
   (``rules.determinize``): the deck order, the other hands, and the other seats'
   tickets — weighted toward tickets their claimed routes reach and build
   (``bots/inference.py``).
3. **Roll out.** Apply each candidate to a copy of the same sample (with the steps the
   family says follow it in the same turn, ``FamilyPolicy.search_followups``) and play
   the game to its end with the cheap rollout policy (``bots/rollout.py``) for every seat
   (its own seat planning with the same lean and ticket orders, the others as Normal
   plans);
   the value is the final margin over the best other seat (points or dollars), a
   bonus for winning, and — where the family says so
   (``FamilyPolicy.search_points_weight``) — a share of the seat's own points. The
   same sample and the same random numbers serve every candidate in a round (common
   random numbers), so the comparison is fair.
4. **Choose.** Rounds continue until the time budget is spent. After a few rounds the
   candidates clearly behind the greedy choice, or clearly behind the best other
   candidate (paired over the same rounds), are dropped, so the later rounds go to the
   moves that can still decide (4-player USA at 0.25 s: 3.7 of 5.6 candidates still in
   the race at the end instead of 5.0, median rounds 43 instead of 31). Each candidate
   is judged by its paired difference from the greedy choice over the same samples, and
   replaces it only when ahead by a clear margin (the family's
   ``FamilyPolicy.search_confidence`` standard errors and ``search_greedy_prior``
   points): noise alone never overrides a sound plan. Where the family sets
   ``search_evidence_rounds``, those standard errors count at most that many rounds: a
   longer budget sharpens the means but does not lower the bar, since the rollouts'
   bias does not shrink with more rounds. A keep of tickets
   goes to the best mean where the family says so (``FamilyPolicy.search_keeps_by_mean``):
   there Normal's valuation is a poor default, not a sound plan.

The time budget (seconds per decision) is a setting: ``HardBot(seed, budget=1.0)``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttr_desktop.bots.base import Bot, no_choice
from ttr_desktop.bots.families import policy_for
from ttr_desktop.bots.graph import graph_for
from ttr_desktop.bots.greedy import GreedyBot
from ttr_desktop.bots.inference import ticket_weights
from ttr_desktop.bots.rollout import RolloutPolicy
from ttr_desktop.rules.actions import Action
from ttr_desktop.rules.determinize import determinize
from ttr_desktop.rules.words import card_name, plural

if TYPE_CHECKING:
    from ttr_desktop.rules.view import PlayerView

#: A game the bot sampled itself from its view (``rules.determinize``), never the
#: real one: bots do not import the engine's Game.
SampledGame = Any

#: Seconds per decision by default.
DEFAULT_BUDGET = 1.0
#: Value of a win on top of the margin (points). Large enough that a likelier win beats
#: a wider expected margin (Old West, where margins swing by 100 points, gained most).
WIN_BONUS = 50.0
#: The greedy choice's prior (points) unless the family sets its own
#: (``FamilyPolicy.search_greedy_prior``): noise alone must not override it.
GREEDY_PRIOR = 1.5
#: Trains its default (Normal's) move draws more tickets down to.
LATE_TICKET_TRAINS = 12
#: Most candidates per decision.
MAX_CANDIDATES = 9
#: Rounds before candidates may be dropped, and the margin (in standard errors).
PRUNE_AFTER = 6
PRUNE_SIGMAS = 2.5
#: A candidate replaces the greedy choice only when its paired gain is this many
#: standard errors above zero (and above GREEDY_PRIOR on average), unless the family
#: sets its own (``FamilyPolicy.search_confidence``).
CONFIDENCE = 2.0
#: Fewest rounds before any candidate may replace the greedy choice.
MIN_ROUNDS = 4
#: Turn actions every family has; the rest are a family's own (``turn_candidates``).
_CORE_TURN_KINDS = frozenset(("claim_route", "draw_blind", "draw_face_up", "draw_tickets",
                              "build_station", "pass"))


class HardBot(Bot):
    """Search over candidate moves with determinized rollouts."""

    name = "hard"
    level = 3
    #: It searches: ``make_bot(..., budget=)`` sets its seconds per decision.
    searches = True

    def __init__(self, seed: int | None = None, budget: float = DEFAULT_BUDGET,
                 rounds: int | None = None) -> None:
        super().__init__(seed)
        self.budget = float(budget)
        #: A fixed number of rollout rounds instead of the clock (reproducible: tests).
        self.rounds = rounds
        #: The clock the budget is counted by (seconds); a tournament may count processor
        #: time instead (``sim --cpu-clock``: a busy machine does not cut the search).
        self.clock = time.perf_counter
        self.greedy = GreedyBot(seed)
        # Its default move still draws tickets late, as Normal once did: the search weighs
        # such a draw against claims and draws, which Normal cannot (in 2-player USA, with
        # the early tempo as its default Hard scored 5 points a game less on the same 100
        # seeds).
        self.greedy.late_ticket_trains = LATE_TICKET_TRAINS
        # It prices a missing card by the draw turns it takes that its trains cannot use.
        self.greedy.missing_card_turns = True
        #: Figures of the last decision (rounds played, candidates), for sim and hints.
        self.last: dict[str, object] = {}

    # The decision ------------------------------------------------------------
    def choose(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """The searched choice among ``legal_actions`` for ``view``'s seat."""
        no_choice(legal_actions)
        if len(legal_actions) == 1:
            return legal_actions[0]
        began = self.clock()
        family = policy_for(view.variant)
        self.greedy.route_lean = family.search_route_lean
        self.greedy.plan_orders = family.search_plan_orders
        self.greedy.doubles_by_colour = family.search_doubles_by_colour
        greedy_choice = self.greedy.choose(view, legal_actions)
        cands = self.candidates(view, legal_actions, greedy_choice)
        if len(cands) <= 1:
            self.last = {"rounds": 0, "candidates": len(cands), "values": {}}
            return cands[0] if cands else greedy_choice
        budget = self.budget
        keep = view.phase in ("choose_initial_tickets", "keep_tickets")
        if keep or view.phase in family.weighty_phases:
            budget *= family.search_keep_budget_factor
        return self._search(view, cands, greedy_choice, budget,
                            prior=not (keep and family.search_keeps_by_mean), began=began)

    def candidates(self, view: PlayerView, legal: Sequence[Action],
                   greedy_choice: Action) -> list[Action]:
        """The moves worth searching, the greedy choice first."""
        phase = view.phase
        out: list[Action] = [greedy_choice]
        seen = {greedy_choice}

        def add(a: Action | None) -> None:
            if a is not None and a not in seen and len(out) < MAX_CANDIDATES:
                seen.add(a)
                out.append(a)

        family = policy_for(view.variant)
        if phase == "choose_initial_tickets" and family.search_fewest_first_keep:
            keeps = [a for a in legal if a.kind == "keep_tickets"]
            if keeps:
                fewest = min(len(a.tickets) for a in keeps)
                # The best keep of the fewest tickets is the default, not Normal's keep.
                out.clear()
                seen.clear()
                for a in self.greedy.keeps_ranked(
                        view, [a for a in keeps if len(a.tickets) == fewest]):
                    add(a)
                for a in family.phase_candidates(view, legal):
                    add(a)
                return out
        if phase in ("choose_initial_tickets", "keep_tickets"):
            keeps = [a for a in legal if a.kind == "keep_tickets"]
            if len(keeps) > MAX_CANDIDATES:
                # Normal's valuation ranks the keeps; the best keep of each size is
                # searched too (the valuation favours more tickets than fit in time).
                ranked = self.greedy.keeps_ranked(view, keeps)
                sizes: dict[int, Action] = {}
                for a in ranked:
                    sizes.setdefault(len(a.tickets), a)
                keeps = list(sizes.values()) + ranked
            for a in keeps:
                add(a)
            # A family's own ticket step (announcing a mix to draw, as in Märklin).
            for a in family.phase_candidates(view, legal):
                add(a)
            return out
        if phase == "second_card":
            # The turn's first pick was the decision; the second follows the plan.
            return out
        if not family.searchable:
            return out   # the family's decisions stay its policy's (FamilyPolicy.searchable)
        if phase != "turn":
            # A rule module's step (a home city, a marker, coal, passengers, a bonus): the
            # family policy's judgement, with the alternatives it finds worth searching
            # (the rollouts play such steps as the family's rollout judgement does).
            for a in family.phase_candidates(view, legal):
                add(a)
            return out
        turn = self.greedy.turn(view, legal)
        claims = turn._claims_by_route()
        g = turn.g
        sit = turn.sit
        # Claims: planned routes, ticket-completing routes, the best for points.
        ranked: list[tuple[float, int]] = []
        for r in claims:
            value = turn._points(r) + family.route_bonus(view, r)
            if g.r_link[r] in turn.plan_links:
                value += 10 + g.r_len[r]
            for t in turn.open_tickets:
                if sit.connected(t.a, t.b, (r,)):
                    value += 2 * t.points
            ranked.append((value, r))
        ranked.sort(reverse=True)
        # The greedy choice already pays its route the family's way (a Märklin +4
        # locomotive, coal...): another payment of that route is no candidate.
        greedy_route = getattr(greedy_choice, "route_id", None)
        # The cards the plan does not take, spent on the best route they pay for: rollouts
        # weigh points now against cards the plan may yet use. (Searched only with the end
        # in sight, 3-player Märklin ended with 6.4 cards a game instead of 6.0, Old West
        # the same: 30 games at 20 rounds a move. Made the default move instead of
        # Normal's draw whenever the hand held as many cards as trains, it cut Hard's cards
        # at the end from 7.8 to 4.8 but cost 10 points a game and doubled its failed
        # tickets, 0.10 to 0.22: 2-player USA, 100 seat-rotated games at 30 rounds a move.)
        if claims and turn._spare_cards() > 0:
            add(turn._spend_spare_cards(claims))
        for _, r in ranked[:4]:
            if g.route_ids[r] != greedy_route:
                add(turn._payment(claims[r], r))
        # Drawing: toward the plan, and blind.
        if turn.by_kind.get("draw_blind") or turn.by_kind.get("draw_face_up"):
            add(turn._draw())
            for a in turn.by_kind.get("draw_blind", ()):
                add(a)
        # Tickets: once the current tickets are (nearly) built, however few trains are
        # left: the rollouts keep only drawn tickets the trains can still build, so a late
        # draw is judged by what the seat's routes already reach. (A gate at 20 trains left
        # kept Old West's Hard, whose first tickets mostly leave it under 13 trains, from
        # drawing where its network already meets a drawn ticket's cities: without it, 3
        # players, 100 seat-rotated games at 20 rounds a move, seeds 1001-1100, it drew in
        # 50 games instead of 28, completed 3.38 tickets instead of 3.06 and scored 3.6 ±
        # 1.8 points a game more (103.8 to 107.3; wins 55% to 57%, failed tickets 0.39 to
        # 0.45). 2-player USA and Europe, seeds 301-400, the same: 124.3 points either way
        # and +0.5 ± 0.6.)
        if not view.final_round and turn.plan.trains <= family.search_ticket_plan_left:
            for a in turn.by_kind.get("draw_tickets", ())[:2]:
                add(a)
        # A station for a blocked ticket; the family's own proposal.
        add(turn._station_for_blocked_ticket())
        add(family.turn_choice(turn, legal))
        own = [a for a in legal if a.kind not in _CORE_TURN_KINDS]
        for a in family.turn_candidates(view, own) if own else ():
            add(a)
        return out

    # Search ------------------------------------------------------------------
    def _search(self, view: PlayerView, cands: list[Action], greedy_choice: Action,
                budget: float, prior: bool = True, began: float | None = None) -> Action:
        """Rollouts in rounds until ``budget`` seconds are spent; each candidate is judged
        by its paired difference from the greedy choice (same sample, same random numbers
        in a round) and chosen as ``_pick`` says (with the greedy ``prior`` or without).

        The budget counts from ``began`` (when the decision started: choosing the default
        move and the candidates is part of the thinking), and a round that would end
        past it is not started (its cost foreseen by the last round's), so a move keeps
        its budget rather than overrunning it by part of a round."""
        clock = self.clock
        start = clock()
        deadline = (start if began is None else began) + budget
        round_began = start
        me = view.seat
        weight = self._ticket_weight(view)
        n = len(cands)
        g0 = cands.index(greedy_choice) if greedy_choice in cands else 0
        diff = [0.0] * n           # sum over rounds of value(i) - value(greedy)
        diff_sq = [0.0] * n
        total = [0.0] * n
        rounds = 0
        alive = list(range(n))
        history: list[list[float]] = [[] for _ in range(n)]
        rng = self.rng
        family = policy_for(view.variant)
        follow = [family.search_followups(view, a) for a in cands]
        points_weight = family.search_points_weight
        blank: RolloutPolicy | None = None
        while True:
            sample = determinize(view, rng, weight).quiet()
            if blank is None:      # the map's facts, worked out once per decision
                blank = RolloutPolicy(sample, rng, {me: family.search_route_lean},
                                      ordered=(me,) if family.search_plan_orders else ())
            base = blank.fork(rng)
            for seat in range(len(view.players)):
                base.plan(sample, seat)
            seed = rng.getrandbits(32)
            values = {}
            for i in alive:
                values[i] = _value(_play(sample, base, seed, cands[i], follow[i]), me,
                                   points_weight)
            rounds += 1
            for i in alive:
                history[i].append(values[i])
                d = values[i] - values[g0]
                diff[i] += d
                diff_sq[i] += d * d
                total[i] += values[i]
            if self.rounds is not None:
                if rounds >= self.rounds:
                    break
            else:
                now = clock()
                if now + (now - round_began) >= deadline:
                    break
                round_began = now
            if rounds >= PRUNE_AFTER and len(alive) > 2:
                alive = [i for i in alive
                         if i == g0 or _upper(diff[i], diff_sq[i], rounds) >= 0.0]
                if len(alive) > 2:
                    alive = _race(alive, g0, history)
        best, best_gain = _pick(alive, g0, diff, diff_sq, rounds, prior,
                                margin=family.search_greedy_prior,
                                sigmas=family.search_confidence,
                                evidence=family.search_evidence_rounds)
        self.last = {"rounds": rounds, "candidates": n, "seconds": clock() - start,
                     "values": {cands[i]: total[i] / rounds for i in alive},
                     "gain": best_gain}
        return cands[best]

    # Judging given moves (a game's review) ------------------------------------
    def evaluate(self, view: PlayerView, actions: Sequence[Action],
                 rounds: int) -> list[Evaluation]:
        """Each of ``actions`` (legal in ``view``'s position) played out from ``view`` over
        the same ``rounds`` samples, as the search compares its candidates: each round
        samples one game from the view (``determinize``, the other seats' tickets weighted
        as in the search) and plays every action to the end on a copy of it with the same
        random numbers, so the differences between the actions are fair. One
        ``Evaluation`` per action, in order. Only the view is read; how the bot plays is
        unchanged (``choose`` does not call this)."""
        if not actions:
            return []
        rounds = max(1, int(rounds))
        me = view.seat
        weight = self._ticket_weight(view)
        family = policy_for(view.variant)
        follow = [family.search_followups(view, a) for a in actions]
        points_weight = family.search_points_weight
        rng = self.rng
        n = len(actions)
        margins: list[list[float]] = [[] for _ in range(n)]
        points = [0.0] * n
        value = [0.0] * n
        wins = [0.0] * n
        blank: RolloutPolicy | None = None
        for _ in range(rounds):
            sample = determinize(view, rng, weight).quiet()
            if blank is None:
                blank = RolloutPolicy(sample, rng, {me: family.search_route_lean},
                                      ordered=(me,) if family.search_plan_orders else ())
            base = blank.fork(rng)
            for seat in range(len(view.players)):
                base.plan(sample, seat)
            seed = rng.getrandbits(32)
            for i, action in enumerate(actions):
                game = _play(sample, base, seed, action, follow[i])
                totals = game.score_totals()
                mine = totals[me]
                best_other = max(t for k, t in enumerate(totals) if k != me)
                margins[i].append(float(mine - best_other))
                points[i] += mine
                value[i] += _value(game, me, points_weight)
                wins[i] += 1.0 if mine > best_other else (0.5 if mine == best_other else 0.0)
        return [Evaluation(a, sum(margins[i]) / rounds, points[i] / rounds, value[i] / rounds,
                           wins[i] / rounds, rounds, tuple(margins[i]))
                for i, a in enumerate(actions)]

    def _ticket_weight(self, view: PlayerView):
        """weight(seat, ticket): the other seats' tickets, as their routes suggest
        (``bots/inference.py``)."""
        return ticket_weights(view)


@dataclass(frozen=True)
class Evaluation:
    """What the rollouts say of one move (``HardBot.evaluate``): the means over its rounds
    of the final margin over the best other seat (points or dollars; positive: ahead), the
    seat's own final score, the search's value (margin, win bonus and the family's share
    of own points) and the share of rounds won (a tie counts half); ``margins`` round by
    round (the same rounds for every move evaluated together: paired)."""

    action: Action
    margin: float
    points: float
    value: float
    wins: float
    rounds: int
    margins: tuple[float, ...] = ()


def _play(sample: SampledGame, base: RolloutPolicy, seed: int, action: Action,
          follow: Sequence[Action]) -> SampledGame:
    """``action`` (then the ``follow`` steps the family plays with it, while legal) on a
    copy of ``sample``, played to its end by a fork of ``base``; both copies draw their
    random numbers from ``seed``, so every action of a round meets the same luck."""
    game = sample.clone(random.Random(seed)).quiet()
    policy = base.fork(random.Random(seed))
    seat = game.state.current
    game.apply(action, False)
    if action.kind == "build_station":    # its plan may now borrow through the station
        policy.forget(seat)
    for step in follow:
        if step not in game.legal_actions():
            break
        game.apply(step, False)
    policy.play_out(game)
    return game


def _pick(alive: list[int], g0: int, diff: list[float], diff_sq: list[float], rounds: int,
          prior: bool = True, margin: float | None = None,
          sigmas: float | None = None, evidence: int = 0) -> tuple[int, float]:
    """The chosen candidate among ``alive`` and its mean gain over the greedy choice
    ``g0``, from the sums of their paired differences (``diff``, ``diff_sq``) over
    ``rounds`` rounds.

    With the ``prior``, another candidate replaces the greedy choice only when its gain is
    clear (``sigmas`` standard errors above zero, and above ``margin`` points; by default
    ``CONFIDENCE`` and ``GREEDY_PRIOR``): noise alone never overrides a sound plan. The
    standard error counts at most ``evidence`` rounds when that is set
    (``FamilyPolicy.search_evidence_rounds``): more rounds then sharpen the mean but do
    not lower the bar. Without the prior, the best mean wins (the greedy choice on a tie).
    Before ``MIN_ROUNDS`` rounds, the greedy choice."""
    if rounds < MIN_ROUNDS:
        return g0, 0.0
    if not prior:
        best = max(alive, key=lambda i: (diff[i], i == g0))
        return best, diff[best] / rounds
    margin = GREEDY_PRIOR if margin is None else margin
    sigmas = CONFIDENCE if sigmas is None else sigmas
    best, best_gain = g0, 0.0
    for i in alive:
        if i == g0:
            continue
        mean = diff[i] / rounds
        if _lower(diff[i], diff_sq[i], rounds, sigmas, evidence) > 0.0 and mean > margin \
                and mean > best_gain:
            best, best_gain = i, mean
    return best, best_gain


def _se(total: float, total_sq: float, n: int, evidence: int = 0) -> float:
    """Standard error of a mean from its sum and sum of squares over ``n`` values (never
    below a point's worth: a few identical rounds prove nothing), counting at most
    ``evidence`` values when that is set."""
    mean = total / n
    var = max(total_sq / n - mean * mean, 1.0)
    if evidence:
        n = min(n, evidence)
    return math.sqrt(var / max(n - 1, 1))


def _race(alive: list[int], g0: int, history: list[list[float]]) -> list[int]:
    """The candidates still in the race: the greedy choice, the best other candidate,
    and those not clearly behind that best one (``PRUNE_SIGMAS`` standard errors of
    their paired difference over the same rounds)."""
    others = [i for i in alive if i != g0]
    lead = max(others, key=lambda i: sum(history[i]))
    best = history[lead]
    keep = {g0, lead}
    for i in others:
        total = total_sq = 0.0
        for mine, theirs in zip(history[i], best):
            d = mine - theirs
            total += d
            total_sq += d * d
        if i != lead and _upper(total, total_sq, len(best)) >= 0.0:
            keep.add(i)
    return [i for i in alive if i in keep]


def _lower(total: float, total_sq: float, n: int, sigmas: float = CONFIDENCE,
           evidence: int = 0) -> float:
    """A cautious lower bound of a mean difference (``sigmas`` standard errors below it).
    With ``evidence`` set, the standard error is that of at most ``evidence`` rounds (the
    spread is still measured over all ``n``)."""
    return total / n - sigmas * _se(total, total_sq, n, evidence)


def _upper(total: float, total_sq: float, n: int) -> float:
    """An upper bound used to drop hopeless candidates."""
    return total / n + PRUNE_SIGMAS * _se(total, total_sq, n)


def _value(game: SampledGame, me: int, points_weight: float = 0.0) -> float:
    """Margin over the best other seat at the end, plus a win bonus, plus
    ``points_weight`` times the seat's own points (``FamilyPolicy.search_points_weight``)."""
    totals = game.score_totals()
    mine = totals[me]
    best_other = max(t for i, t in enumerate(totals) if i != me)
    margin = mine - best_other
    bonus = WIN_BONUS if margin > 0 else (WIN_BONUS / 2 if margin == 0 else 0.0)
    return margin + points_weight * mine + bonus


def hint_reason(view: PlayerView, action: Action) -> str:
    """A one-line reason for ``action`` in ``view``'s position, in player words, from that
    view only ("it finishes Denver–Pittsburgh (11 points)").

    Every reason is checked against the position: a ticket is "finished" only when the
    move completes it (the ticket status the score uses, stations included), "built
    toward" only when the move leaves fewer trains to lay for it, a card "needed" only
    when a planned route can use it, points "scored" only when they go to this seat.
    Where nothing specific holds, the reason says only that the move did best in the
    bot's playouts."""
    return _HintWords(view).reason(action)


PLAYOUT_REASON = "it scored best in the bot's playouts"


class _HintWords:
    """True reasons about one view's position."""

    def __init__(self, view: PlayerView) -> None:
        from ttr_desktop.bots.graph import Situation

        self.view = view
        self.g = graph_for(view.map)
        self.family = policy_for(view.variant)
        self.sit = Situation(view, self.g, lean=self.family.search_route_lean,
                             orders=self.family.search_plan_orders)
        done = set(view.completed_tickets)
        self.open_tickets = sorted((t for t in view.tickets if t.id not in done),
                                   key=lambda t: (-t.points, t.id))

    def name(self, t) -> str:
        place = self.view.map.place_name
        return f"{place(t.a)}–{place(t.b)}"

    def money(self, n: int) -> str:
        return plural(n, "dollar" if self.view.currency == "dollars" else "point")

    def reason(self, action: Action) -> str:
        kind = action.kind
        if kind == "claim_route":
            return self.claim(self.g.route_index[action.route_id])
        if kind == "draw_face_up":
            return self.face_up(str(action.card))
        if kind == "draw_blind":
            return self.blind()
        if kind == "draw_tickets":
            return self.more_tickets()
        if kind == "keep_tickets":
            return self.keep(action.tickets)
        if kind == "build_station":
            return self.station(action.city_id)
        return self.family.hint_action_words(self.view, action) or PLAYOUT_REASON

    # Claims --------------------------------------------------------------------------
    def claim(self, r: int) -> str:
        sit, g = self.sit, self.g
        parts: list[str] = []
        finished = [t for t in self.open_tickets if sit.connected(t.a, t.b, (r,))]
        if finished:
            parts.append("it finishes " + " and ".join(
                f"{self.name(t)} ({self.money(t.points)})" for t in finished))
        else:
            for t in self.open_tickets:
                before = sit.plan([t])
                after = sit.plan([t], extra_free=[r])
                if t in after.dropped:
                    continue
                if t in before.dropped or after.trains < before.trains:
                    parts.append(f"it builds toward {self.name(t)} "
                                 f"({plural(after.trains, 'train')} more to lay)")
                    break
        family = self.family.hint_claim_words(self.view, r)
        if family is not None:
            parts.extend(family)
        else:
            pts = (self.view.route_points or {}).get(g.r_len[r])
            if pts:
                parts.append(f"it scores {self.money(pts)}")
        longer = self.longest_path_gain(r)
        if longer:
            parts.append(longer)
        if not parts:
            return PLAYOUT_REASON
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]

    def longest_path_gain(self, r: int) -> str | None:
        """'it makes your longest path 12 trains, the longest' when the family pays for the
        longest path and the claim lengthens the seat's to at least anyone else's."""
        from ttr_desktop.rules.graph import longest_trail
        from ttr_desktop.rules.ruleset import get_ruleset

        try:
            bonuses = get_ruleset(self.view.variant).bonuses
        except (KeyError, ValueError):
            return None
        if not any(b.measure == "longest_path" for b in bonuses):
            return None
        own = sorted(self.sit.own)
        before = longest_trail(self.g, own)[0]
        after = longest_trail(self.g, own + [r])[0]
        if after <= before:
            return None
        owner = self.view.owner_list
        best_other = max((longest_trail(self.g, [x for x, o in enumerate(owner) if o == seat])[0]
                          for seat in range(self.view.num_players) if seat != self.view.seat),
                         default=0)
        if after < best_other:
            return None
        return (f"it makes your longest path {plural(after, 'train')}, "
                + ("the longest" if after > best_other else "level with the longest"))

    # Cards ---------------------------------------------------------------------------
    def plan_routes(self) -> list[int]:
        return self.sit.plan(self.open_tickets).routes

    def face_up(self, card: str) -> str:
        g = self.g
        routes = self.plan_routes()
        words = card_name(card)
        if card == "locomotive":
            if routes:
                return (f"a {words} is wild: it pays for any route of your plan "
                        f"({self.route_words(routes[0])} first)")
            return PLAYOUT_REASON
        if card == "locomotive_plus4":
            # Wild only on routes of 4 or more spaces (Märklin, rules.md §2.3).
            long = [r for r in routes if g.r_len[r] >= 4]
            if long:
                return (f"a {words} is wild on routes of 4 or more spaces: your plan has "
                        f"{self.route_words(long[0])}")
            return PLAYOUT_REASON
        for r in routes:
            if g.r_color[r] == card or g.r_color[r] == "gray":
                return f"your plan needs {words}: {self.route_words(r)}"
        return PLAYOUT_REASON

    def blind(self) -> str:
        g = self.g
        routes = self.plan_routes()
        wanted = {g.r_color[r] for r in routes}
        face = [c for c in self.view.face_up if c is not None]
        if routes and "gray" not in wanted and not any(c in wanted for c in face):
            return "no face-up card is a colour your plan needs"
        return PLAYOUT_REASON

    def route_words(self, r: int) -> str:
        cities = self.view.map.cities
        return f"{cities[self.g.city_ids[self.g.r_a[r]]].name}–" \
               f"{cities[self.g.city_ids[self.g.r_b[r]]].name}"

    # Tickets -------------------------------------------------------------------------
    def more_tickets(self) -> str:
        trains = self.view.trains_left[self.view.seat]
        if not self.open_tickets:
            n = len(self.view.tickets)
            return (f"{'all ' if n > 1 else ''}{plural(n, 'ticket')} done and "
                    f"{plural(trains, 'train')} left to build more")
        need = self.sit.plan(self.open_tickets).trains
        return (f"your open tickets need about {plural(need, 'train')} of your "
                f"{plural(trains, 'train')}: the rest can build more")

    def keep(self, kept) -> str:
        chosen = [t for t in self.view.pending_tickets if t.id in set(kept)]
        if not chosen:
            return PLAYOUT_REASON
        tickets = sorted(self.open_tickets + chosen, key=lambda t: (-t.points, t.id))
        plan = self.sit.plan(tickets)
        names = " and ".join(self.name(t) for t in chosen)
        dropped = [t for t in chosen if t in plan.dropped]
        if dropped:
            return PLAYOUT_REASON
        trains = self.view.trains_left[self.view.seat]
        return (f"{names} {'fits' if len(chosen) == 1 else 'fit'} your network: your open "
                f"tickets then need about {plural(plan.trains, 'train')} of your {trains}")

    def station(self, city_id: str) -> str:
        """What a station on ``city_id`` would let the seat borrow for its tickets."""
        from ttr_desktop.rules.graph import ticket_status

        view, g = self.view, self.g
        c = g.city_index[city_id]
        theirs = tuple(r for r in g.city_routes[c]
                       if view.owner_list[r] >= 0 and view.owner_list[r] != view.seat)
        own = [r for r, o in enumerate(view.owner_list) if o == view.seat]
        wants = [(t.a, t.b, t.points) for t in view.tickets]
        now = view.ticket_status()
        then = ticket_status(g, own, wants, list(view.borrow_choices()) + [theirs])
        newly = [t for t, a, b in zip(view.tickets, now.done, then.done) if b and not a]
        if newly:
            got = [r for r in then.borrowed if r in theirs]
            via = f" by borrowing {self.route_words(got[0])}" if got else ""
            return "it finishes " + " and ".join(self.name(t) for t in newly) + via
        name = view.map.cities[city_id].name
        for t in self.open_tickets:
            before = self.sit.plan([t])
            after = self.sit.plan([t], extra_free=theirs)
            if t in before.dropped and t not in after.dropped:
                return (f"a station in {name} can borrow a route you are blocked from "
                        f"on the way to {self.name(t)}")
        return PLAYOUT_REASON
