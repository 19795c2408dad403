"""What the bots know of each rule family, one file per family.

A family file defines a ``FamilyPolicy``; ``shipped_policies`` lists the policy of
every shipped family (``rules.family.SHIPPED``) by the family's id, the base
``FamilyPolicy`` for a family the bots need teach nothing. Code outside the project
adds (or replaces) a family's policy with ``register_policy``. The greedy bot (and
the levels built on it) asks the policy of the view's variant:

- ``phase_choice(bot, view, legal)`` — a decision in one of the family's phases
  (a home city, a city marker, a passenger, a coal token, a mix of tickets);
- ``turn_choice(turn, legal)`` — a family move to make instead of the usual turn
  (move a passenger late in the game), or None;
- ``route_bonus(view, route)`` — extra value of claiming a route (markers, coal, company
  colour), added when the bot weighs claims;
- ``keep_value(view, tickets)`` — adjust the value of keeping a set of tickets;
- ``plan(sit, view, tickets, budget)`` — the routes to build for a set of tickets when the
  family constrains how a network grows (Old West: from the home city), else None;
- ``rollout_choice(rollout, game, legal)`` — a quick decision in one of the family's
  phases inside the Hard bot's rollouts (``bots/rollout.py``), which play thousands of
  games a second: the rollout's own plan is at hand, so the family's judgement need not
  plan again. None asks the Normal bot, which plans from scratch;
- ``rollout_turn_choice(rollout, game)`` — a family move for the current seat's turn in
  those rollouts (a passenger move), or None for the rollout's usual turn; without it the
  rollout asks the Normal bot on turns where the family's moves are legal;
- ``rollout_claim_values(rollout, game, seat)`` — what claiming each route is worth to a
  seat now inside those rollouts, when route points do not say it (Legacy's dollars);
- ``search_followups(view, action)`` — the family steps that follow a candidate move in
  the same turn as the seat would play them (a Märklin passenger's whole trail), which the
  Hard bot's rollouts play before their own quick policy takes over;
- ``turn_candidates(view, moves)`` — which of the family's own turn moves (a Märklin
  passenger's move) the Hard bot's search weighs against claims and draws;
- ``phase_candidates(view, legal)`` — the choices in one of the family's phases worth the
  Hard bot's search (Old West's home city and markers); ``weighty_phases`` names the
  phases whose choice shapes the whole game, searched with the ticket decisions' larger
  budget.

Bots see only the view; a policy must too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ttr_desktop.rules.actions import Action
    from ttr_desktop.rules.view import PlayerView


class FamilyPolicy:
    """Base: knows nothing, changes nothing."""

    #: Whether the Hard bot may override this family's choices with its rollouts. A
    #: family whose scoring the generic rollouts cannot follow turns it off; Hard then
    #: plays it as Normal does.
    searchable: bool = True

    variants: tuple[str, ...] = ()

    #: Family phases whose choice shapes the whole game (a home city): the Hard bot
    #: searches them with the larger budget it gives ticket decisions.
    weighty_phases: frozenset[str] = frozenset()

    #: Trains the Normal bot must have left (more than) to draw more tickets once its
    #: tickets are built (``ticket_draw_trains``): in games of up to three seats a ticket
    #: drawn in the second half of the game is mostly a loss. Against the same bot drawing
    #: down to 12 trains (2,000 USA games each), 25 won 52.8% with 2 players and 35.5% with
    #: 3 (parity 33.3%), its draws moving from about 70% of the game to under half; with 4
    #: it won 23.4% (parity 25%): against three others, the late gamble pays.
    ticket_draw_trains_few: int = 25
    #: ... and in games of four or more seats.
    ticket_draw_trains_many: int = 12

    #: The Hard bot's rollouts value a finished game by the seat's margin over the best
    #: other seat, a bonus for winning, and this weight times the seat's own points. Played
    #: for the margin alone, Hard spoils more than it builds: in 2-player USA the weight
    #: 0.5 (with ``search_ticket_plan_left``) raised its margin over Normal by 10.5 ± 4.7
    #: points and its own points by 4 over 100 paired games. Once its plans leaned toward
    #: long routes (``search_route_lean``), 2 raised its own points by 3.4 ± 1.5 over 0.5
    #: (100 paired games at 0.1 s: 119.3 to 122.7) and its wins from 82% to 89%; 4 scored
    #: no more (123.0) and won less (83%).
    search_points_weight: float = 2.0

    #: Trains the seat's ticket plan may still need for the Hard bot to weigh drawing more
    #: tickets: a draw searched a few claims before the plan is built, not only after.
    search_ticket_plan_left: int = 6

    #: How far the Hard bot leans its plans toward routes that score more than a point a
    #: train (``graph.Situation``'s ``lean``: an open route's planning cost drops by this
    #: times its points beyond its length). Normal plans by trains and turns alone, so its
    #: paths run over 2- and 3-train routes worth a point a train or so. In 2-player USA
    #: against Normal (400 games at 0.25 s), leaning 0.8 in its plans and its own seat's
    #: rollouts took Hard from 75.0% to 83.5% wins and from 114.9 to 118.6 points a game
    #: (route points 85.8). Over 100 paired games at 0.1 s, leaning its plans alone by
    #: 0.45 to 0.8 gained about 3 points a game (1.2 gained less), and leaning its own
    #: seat's rollouts as well gained 2 to 4 more.
    search_route_lean: float = 0.8

    #: Whether the Hard bot plans its tickets in every order and keeps the one whose
    #: paths share most (``graph.Situation``'s ``orders``), rather than the biggest ticket
    #: first as Normal does: a route planned for one ticket is free for the next, so the
    #: order decides how much the paths share. In 2-player USA against Normal (200 paired
    #: games at 0.1 s, points weight 2), ordering its plans raised Hard's points by
    #: 2.4 ± 1.4, and ordering its own seat's rollouts as well by 1.0 ± 1.1 more.
    search_plan_orders: bool = True

    #: Whether the Hard bot keeps the tickets whose rollouts did best on average, rather
    #: than Normal's keep unless another is clearly better (the prior its turns keep).
    #: Normal's valuation keeps every starting ticket in most 2-player USA games, and
    #: the search, asked for clear evidence, too often let it stand: at 24 rounds it
    #: matched a 1,000-round search's keep in 160 of 240 tries (30 starting positions),
    #: by the best mean in 197. Over 400 paired 2-player USA games at 0.1 s against
    #: Normal, keeping by the best mean raised Hard's mean from 121.1 to 122.6 and its
    #: wins from 81% to 87%.
    search_keeps_by_mean: bool = True

    #: How clearly another move must beat Normal's (the greedy choice) in the Hard bot's
    #: rollouts to replace it in a turn: by this many points a round on average, and
    #: ``search_confidence`` standard errors of the paired difference above zero. The
    #: rollouts are a quick policy and a round swings by tens of points, so most apparent
    #: gains are noise or the rollouts' own bias. In 2-player USA against Normal (200
    #: paired games at 0.1 s, seeds 1-200), Hard scored 103.0 points a game and won 67%
    #: with no prior, 116.3 and 78.5% at 0.5 points and 1 standard error, 121.5 and 83.5%
    #: at 1.5 and 2 (the other families' figures were measured so), 124.2 and 85.0% at 3
    #: and 3 (122.5 and 80.5% at 5 points and 3), and 125.1 and 78.0% never leaving
    #: Normal's move (its ticket keeps still searched): a move the search is sure of wins
    #: games, one it is not sure of costs points. On seeds 201-400, 3 and 3 scored 123.5
    #: against 122.7 at 1.5 and 2: over both, +1.7 ± 0.9 points a game.
    search_greedy_prior: float = 3.0
    #: ... and the standard errors (see ``search_greedy_prior``).
    search_confidence: float = 3.0
    #: The most rounds the Hard bot counts in the standard error when it asks whether a
    #: move is clearly better than Normal's (``search_confidence``), or 0 for every round.
    #: A round's paired difference swings by about 70 points in 2-player USA, so the bar
    #: is mostly those standard errors: about 26 points at the 70 rounds a 0.25 s move gets
    #: (median), 11 at the 300 of a 1 s move. More rounds shrink the rollouts' noise, not
    #: their bias: counting every round, the 1 s budget left Normal's move on gains the
    #: rollouts overrate, mostly its late ticket draw (2-player USA against Normal, 100
    #: games at 1 s: 122.7 points a game, 85% wins, 0.21 ticket draws a game). Counting at
    #: most 64: 124.5 points, 86% wins, 0.45 draws on the same seeds; at 0.25 s over 400
    #: games 125.4 points and 88.0% wins against 126.0 and 87.5% counting every round.
    #: Counting at most 48 (a bar of about 31 points), with faster rollouts: 126.2 points
    #: and 87% wins at 1 s on the same seeds (124.2 counting 64, same code otherwise), and
    #: 126.8 points and 87.8% wins at 0.25 s over 400 games.
    search_evidence_rounds: int = 48
    #: Whether the Hard bot plans, of a planned double route's open tracks, the one whose
    #: colour its hand covers best (``GreedyBot.doubles_by_colour``): its draws and
    #: payments then chase a colour it holds. In 2-player USA against Normal (400 paired
    #: games at 0.1 s, seeds 1-400, with the prior above), it raised Hard's points by
    #: 1.4 ± 0.8 (124.2 to 124.8 on seeds 1-200, 123.5 to 125.6 on 201-400).
    search_doubles_by_colour: bool = True
    #: How many times a turn's budget the Hard bot gives a ticket keep (and a weighty
    #: phase): on the base maps keeps go to the best mean of their rollouts, so more
    #: rounds mean fewer keeps chosen by noise. In 2-player USA against Normal (400 paired
    #: games at 0.1 s, seeds 1-400), 4 instead of 2 raised Hard's points by about 1
    #: (124.8 to 125.8 on seeds 1-200, 125.6 to 126.5 on 201-400; its ticket points by
    #: 1.5). A keep is one decision in 40, so the time per move stays the budget at the
    #: median and the 95th percentile.
    search_keep_budget_factor: float = 4.0
    #: Whether the Hard bot's first keep (the tickets dealt at the start) searches only the
    #: keeps of the fewest tickets the rules allow, the best of them by Normal's ranking
    #: its default: where a network must grow from a home city chosen after the keep
    #: (Old West), Normal's keep of more tickets failed often and the rollouts did not
    #: see it (``OldWestPolicy`` says what it measured). More tickets come later with the
    #: network known, drawn when the plan is built.
    search_fewest_first_keep: bool = False

    def phase_choice(self, bot: Any, view: "PlayerView",
                     legal: Sequence["Action"]) -> "Action | None":
        """The action for a decision in one of the family's phases, or None."""
        return None

    def ticket_draw_trains(self, view: "PlayerView") -> int:
        """Trains the Normal bot must have left (more than) to draw more tickets."""
        if len(view.players) <= 3:
            return self.ticket_draw_trains_few
        return self.ticket_draw_trains_many

    def turn_choice(self, turn: Any, legal: Sequence["Action"]) -> "Action | None":
        """A family move to make this turn instead of the usual one, or None."""
        return None

    def route_bonus(self, view: "PlayerView", route: int) -> float:
        """Extra value (in points) of claiming route index ``route`` now."""
        return 0.0

    def hint_action_words(self, view: "PlayerView", action: "Action") -> "str | None":
        """A true reason, for a hint, for one of the family's own actions (a home city, a
        marker, coal), or None when the family has nothing specific to say."""
        return None

    def hint_claim_words(self, view: "PlayerView", route: int) -> "list[str] | None":
        """What claiming route index ``route`` does the family's way, as true clauses for
        a hint ("it captures Alvin"), replacing the plain "it scores N points"; None
        for the plain points."""
        return None

    def plan(self, sit: Any, view: "PlayerView", tickets: Sequence[Any],
             budget: int | None = None) -> Any:
        """A ``bots.graph.Plan`` for ``tickets`` (biggest first) in ``sit`` — a Situation
        of ``view`` — within ``budget`` trains, or None for the usual shortest paths."""
        return None

    def rollout_choice(self, rollout: Any, game: Any,
                       legal: Sequence["Action"]) -> "Action | None":
        """A quick decision for the current seat of ``game`` — a sampled game the Hard bot
        plays out (its own copy, never the real one) — in a family phase, or None to ask the
        Normal bot. ``rollout.plan(game, seat)`` gives the seat's planned route indices."""
        return None

    def rollout_turn_choice(self, rollout: Any, game: Any) -> "Action | None":
        """A family move (one of ``game.module_choices()``) for the current seat's turn in a
        sampled game the Hard bot plays out, or None for the rollout's usual turn."""
        return None

    def turn_candidates(self, view: "PlayerView",
                        moves: Sequence["Action"]) -> Sequence["Action"]:
        """Which of ``moves`` — the family's own turn actions legal in ``view`` (anything but
        claims, draws, tickets, stations and passing) — are worth the Hard bot's search.
        Rollouts judge a move against the rest of the game as their quick policy plays it;
        a family whose rollouts use its moves more crudely than the real seat would names
        only the moves that could be right. All of them by default."""
        return moves

    def phase_candidates(self, view: "PlayerView",
                         legal: Sequence["Action"]) -> Sequence["Action"]:
        """The choices in a family phase of ``view`` worth searching with rollouts, besides
        the family's own judgement (``phase_choice``); empty leaves the phase to that
        judgement. Rollouts then play the phase as ``rollout_choice`` (or Normal) does."""
        return ()

    def search_followups(self, view: "PlayerView", action: "Action") -> Sequence["Action"]:
        """The family steps that follow ``action`` (a candidate for ``view``'s seat) in the
        same turn, as the seat would play them — read from public parts of the view only, so
        they hold in every sampled game — or empty. The Hard bot's rollouts play them before
        their quick policy takes over: a candidate is then judged as the move it will be."""
        return ()

    def rollout_claim_values(self, rollout: Any, game: Any, seat: int) -> list[float] | None:
        """What claiming each route (by index) is worth to ``seat`` now in ``game`` — a
        sampled game the Hard bot plays out — once its tickets are built or the game is
        ending, or None for the route points. The rollout claims the most valuable route
        it can pay for. The list is never changed once returned: a family may return the
        same list again while nothing it depends on has changed (the rollout then reuses
        its order of the routes)."""
        return None


class LateTicketsPolicy(FamilyPolicy):
    """A family whose Normal draws more tickets down to 12 trains at every table size
    (Old West, County Durham, Märklin, Legacy: measured so before the base maps'
    ``ticket_draw_trains_few``); its Hard searches with the base settings."""

    ticket_draw_trains_few = 12


class AsMeasuredPolicy(LateTicketsPolicy):
    """A family whose Hard figures were measured before the base maps' later tuning (Old
    West, Legacy): Hard plays it for the margin alone (no points weight, lean, ticket
    orders or keeps by the best mean, no ticket draws searched before the plan is built),
    leaves Normal's move at 1.5 points and 2 standard errors over all its rounds, plans
    doubles as Normal does and gives keeps twice a turn's budget. Each setting is one of
    ``FamilyPolicy``'s; a family changes one only with a measurement of its own.

    Both families keep them because the base settings lost where it was measured (3
    players, Hard against two Normals, 100 seat-rotated games at 0.25 s of processor time
    a move, seeds 1-100): Old West won 56% [46%, 65%] and 104.3 points with these, 42%
    [33%, 52%] and 98.0 with the base settings; Legacy (which takes the base plan orders,
    keeps and points weight) won 42% [33%, 52%] with every base setting, against 52%
    [42%, 62%] with its own. Old West tried two base settings alone as well (same run
    set-up, same code otherwise): keeps by the best mean won 40% [31%, 50%] and failed
    0.76 tickets a game, keeps with four times a turn's budget 46% [37%, 56%] and 0.77
    (0.69 with its own). Their scores differ from the base maps':
    Old West's home cities and markers; Legacy's dollars, about 35 a game against the
    base maps' 100-odd points, so the base bar of 3 for leaving Normal's move is about
    three times as high there."""

    search_points_weight = 0.0
    search_ticket_plan_left = 0
    search_route_lean = 0.0
    search_keeps_by_mean = False
    search_plan_orders = False
    search_greedy_prior = 1.5
    search_confidence = 2.0
    search_evidence_rounds = 0
    search_doubles_by_colour = False
    search_keep_budget_factor = 2.0


_POLICIES: dict[str, FamilyPolicy] = {}
_LOADED = False


def shipped_policies() -> dict[str, FamilyPolicy]:
    """The policy of every shipped family, by the family's id, in ``rules.family.SHIPPED``
    order (imported here, not at the top: the family files build on this module)."""
    from ttr_desktop.bots.families.county_durham import CountyDurhamPolicy
    from ttr_desktop.bots.families.legacy import LegacyPolicy
    from ttr_desktop.bots.families.marklin import MarklinPolicy
    from ttr_desktop.bots.families.old_west import OldWestPolicy

    return {
        "usa": _BASE,
        "usa-1910": _BASE,
        "usa-1910-mega": _BASE,
        "usa-1910-big-cities": _BASE,
        "europe": _BASE,
        "nordic": _BASE,
        "marklin": MarklinPolicy(),
        "legacy": LegacyPolicy(),
        "old-west": OldWestPolicy(),
        "county-durham": CountyDurhamPolicy(),
    }


def register_policy(policy: FamilyPolicy) -> FamilyPolicy:
    """Use ``policy`` for its variants (instead of a shipped family's, if it has one)."""
    _load()
    for variant in policy.variants:
        _POLICIES[variant] = policy
    return policy


def policy_for(variant: str) -> FamilyPolicy:
    """The policy of ``variant`` (the do-nothing base when it has none)."""
    if not _LOADED:
        _load()
    return _POLICIES.get(variant) or _BASE


_BASE = FamilyPolicy()


def _load() -> None:
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    _POLICIES.update(shipped_policies())
