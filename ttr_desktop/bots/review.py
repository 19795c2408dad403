"""A game's review: each decision of one seat, next to what Hard would have done there.

The game is replayed from its seed and its move list (a save holds both). At every action
of the reviewed seat the review takes that seat's ``PlayerView`` at that moment — never the
game, never another seat's hand or tickets, never the deck — and asks the Hard bot two
things from it:

1. what it would have played (``HardBot.choose`` with a fixed number of rollout rounds);
2. how the seat's own move and that suggestion end, by the same rollouts for both
   (``HardBot.evaluate``: the same sampled games and the same random numbers, so the
   difference between the two is fair).

The measure is the **final lead**: the seat's final score minus the best other player's
(negative when behind), in points (dollars in Legacy), averaged over the rollouts. A
decision's **cost** is how much more lead Hard's move kept than the seat's own: positive
when the seat's choice cost points by Hard's estimate, negative when it did better than
Hard's own move. A decision with a single legal action is listed but not analysed; a
step inside a turn (the second card, a tunnel's payment, a marker) is a decision when it
had a choice.

The work per decision is a number of rounds, not seconds, so a review gives the same
figures on a busy machine as on an idle one. ``review_game`` checks its ``cancelled``
callable between decisions and reports ``progress(done, total)`` after each.

No pygame, no file I/O: the window runs this in a worker process
(``ui/scenes/review_worker.py``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ttr_desktop.bots.hard import HardBot, hint_reason
from ttr_desktop.rules.words import card_name, plural

if TYPE_CHECKING:
    from ttr_desktop.rules.actions import Action
    from ttr_desktop.rules.view import PlayerView

#: Rollout rounds per decision by default (the search's and the comparison's): a
#: two-player game's review takes 7 s of one core in USA, 12 s in Europe, 19 s in Old
#: West, 21 s in Märklin (Easy against Normal, seed 3).
DEFAULT_ROUNDS = 40
#: How many of the costliest decisions are marked.
MARKED = 3
#: A decision costs points only beyond this much (rollout noise below it).
COST_FLOOR = 0.5


@dataclass
class DecisionReview:
    """One decision of the reviewed seat and what Hard made of it."""

    #: Index of the action in the game's move list (the board "as it was" is before it).
    index: int
    #: Round of the game (1 = the first round; the initial tickets are round 1).
    round: int
    phase: str
    #: The seat's own move, and in words.
    taken: Action
    taken_words: str
    #: How many legal actions there were (1: nothing to decide, not analysed).
    choices: int
    analysed: bool = False
    #: Hard's move from the same view, in words, and why (None when not analysed).
    suggested: Action | None = None
    suggested_words: str = ""
    reason: str = ""
    #: Mean final lead (points over the best other player) after the seat's move and
    #: after Hard's, by the same rollouts.
    taken_lead: float | None = None
    suggested_lead: float | None = None
    #: Share of the rollouts won after each move (a tie counts half).
    taken_wins: float | None = None
    suggested_wins: float | None = None
    rounds: int = 0
    #: Standard error of ``cost`` (paired over the same rollouts): the estimate's noise.
    cost_se: float = 0.0
    #: 1, 2, 3 for the costliest decisions of the review (None: not marked).
    mark: int | None = None

    @property
    def same(self) -> bool:
        """True when the seat played what Hard would have played (taking a face-up card
        from another slot showing the same kind is the same move)."""
        return self.analysed and same_move(self.suggested, self.taken)

    @property
    def cost(self) -> float | None:
        """Points of final lead the seat's move lost against Hard's (negative: gained)."""
        if not self.analysed or self.taken_lead is None or self.suggested_lead is None:
            return None
        return self.suggested_lead - self.taken_lead


@dataclass
class Review:
    """A whole review: the seat, its decisions (in order) and whether it is complete."""

    seat: int
    name: str
    decisions: list[DecisionReview] = field(default_factory=list)
    complete: bool = False
    rounds: int = DEFAULT_ROUNDS

    def costliest(self, n: int = MARKED) -> list[DecisionReview]:
        """The ``n`` analysed decisions that cost most (each more than ``COST_FLOOR``)."""
        return costliest(self.decisions, n)


def costliest(decisions: Sequence[DecisionReview], n: int = MARKED) -> list[DecisionReview]:
    """The ``n`` costliest analysed decisions (dearest first), and their marks set 1..n
    (the others' cleared). A decision counts only when its cost is more than
    ``COST_FLOOR`` and more than its standard error: rollout noise is no mistake."""
    for d in decisions:
        d.mark = None
    ranked = sorted((d for d in decisions
                     if d.cost is not None and d.cost > max(COST_FLOOR, d.cost_se)),
                    key=lambda d: (-(d.cost or 0.0), d.index))[:n]
    for k, d in enumerate(ranked, start=1):
        d.mark = k
    return ranked


def same_move(a: Action | None, b: Action | None) -> bool:
    """True when ``a`` and ``b`` are one move for the player: equal, or both take a
    face-up card of the same kind (from different slots)."""
    if a is None or b is None:
        return False
    if a == b:
        return True
    return a.kind == b.kind == "draw_face_up" and a.card == b.card


# One decision ----------------------------------------------------------------------------
def review_decision(view: PlayerView, legal: Sequence[Action], taken: Action,
                    rounds: int = DEFAULT_ROUNDS, seed: int = 0, index: int = 0
                    ) -> DecisionReview:
    """What Hard makes of playing ``taken`` in ``view``'s position, with ``legal`` the
    actions the seat could choose from. Reads the view only (and the actions, which the
    seat itself was offered). Same view, legal actions, rounds and seed: same result."""
    n = max(1, view.num_players)
    out = DecisionReview(index=index, round=view.turn // n + 1, phase=view.phase,
                         taken=taken, taken_words=action_words(view, taken),
                         choices=len(legal))
    if len(legal) <= 1:
        return out
    bot = HardBot(seed=seed, rounds=rounds)
    suggested = bot.choose(view, list(legal))
    moves = [suggested] if same_move(suggested, taken) else [suggested, taken]
    evaluated = bot.evaluate(view, moves, rounds)
    best, mine = evaluated[0], evaluated[-1]
    out.analysed = True
    out.suggested = suggested
    out.suggested_words = action_words(view, suggested)
    out.reason = hint_reason(view, suggested)
    out.suggested_lead, out.taken_lead = best.margin, mine.margin
    out.suggested_wins, out.taken_wins = best.wins, mine.wins
    out.rounds = best.rounds
    diffs = [a - b for a, b in zip(best.margins, mine.margins)]
    if len(diffs) > 1:
        mean = sum(diffs) / len(diffs)
        var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
        out.cost_se = math.sqrt(var / len(diffs))
    return out


# A whole game ----------------------------------------------------------------------------
def game_record(game: Any) -> dict[str, Any]:
    """What a review needs of a game, as plain data (it crosses to a worker process): the
    same fields a save keeps — variant, players, seed, options and the move list."""
    return {"variant": game.variant, "players": list(game.players), "seed": game.seed,
            "options": dict(game.options), "actions": [a.to_dict() for a in game.log]}


def replay(record: dict[str, Any]) -> Iterator[tuple[int, Any, Action]]:
    """The game of ``record`` replayed from its seed: (index, game before the move, the
    move) for every move of its list. The game object stays here: callers take views."""
    from ttr_desktop.rules import action_from_dict, new_game

    game = new_game(record["variant"], list(record["players"]), seed=record["seed"],
                    options=dict(record.get("options") or {}))
    for index, entry in enumerate(record["actions"]):
        action = action_from_dict(entry)
        yield index, game, action
        game.apply(action)


def decision_points(record: dict[str, Any], seat: int
                    ) -> Iterator[tuple[int, PlayerView, list[Action], Action]]:
    """Every decision of ``seat``: (index in the move list, the seat's view just before,
    the legal actions it had, the move it made)."""
    for index, game, action in replay(record):
        if game.current_seat == seat:
            yield index, game.view(seat), game.legal_actions(), action


def count_decisions(record: dict[str, Any], seat: int) -> int:
    """How many moves ``seat`` made in ``record``."""
    return sum(1 for _, game, _ in replay(record) if game.current_seat == seat)


def review_game(record: dict[str, Any], seat: int, rounds: int = DEFAULT_ROUNDS,
                progress: Callable[[int, int], None] | None = None,
                cancelled: Callable[[], bool] | None = None,
                on_decision: Callable[[DecisionReview], None] | None = None,
                seed: int = 0) -> Review:
    """Review every decision of ``seat`` in the game of ``record`` (``game_record``).

    Each decision gets ``rounds`` rollout rounds (``review_decision``), seeded from its
    place in the move list and ``seed`` — never from the game's own seed, which decides
    the hidden cards. ``cancelled()`` is asked before each decision: when it says so, the
    review stops and comes back incomplete. ``progress(done, total)`` follows each
    decision; ``on_decision`` receives each as it is reviewed. The costliest decisions are
    marked (``costliest``) on the way and at the end."""
    total = count_decisions(record, seat)
    players = list(record["players"])
    out = Review(seat=seat, name=players[seat] if seat < len(players) else f"Seat {seat + 1}",
                 rounds=rounds)
    if progress is not None:
        progress(0, total)
    for index, view, legal, taken in decision_points(record, seat):
        if cancelled is not None and cancelled():
            costliest(out.decisions)
            return out
        d = review_decision(view, legal, taken, rounds, seed=decision_seed(index, seed),
                            index=index)
        out.decisions.append(d)
        if on_decision is not None:
            on_decision(d)
        if progress is not None:
            progress(len(out.decisions), total)
    costliest(out.decisions)
    out.complete = True
    return out


def decision_seed(index: int, seed: int = 0) -> int:
    """The random seed of the decision at ``index`` of the move list in a review seeded
    ``seed``: its place in the game, nothing the game hides."""
    return (seed * 1_000_003 + index * 7919 + 17) & 0x7FFFFFFF


# Words -----------------------------------------------------------------------------------
def action_words(view: PlayerView, action: Action) -> str:
    """A move in a player's words, from the view of the seat that makes it: 'Claimed
    Denver–Omaha (4 red)', 'Drew a card from the deck', 'Kept 2 tickets: …'."""
    kind = action.kind
    m = view.map
    if kind == "claim_route":
        r = m.routes.get(action.route_id)
        where = f"{m.place_name(r.a)}–{m.place_name(r.b)}" if r is not None else \
            action.route_id
        return f"Claim {where} ({_cards(action.cards)})"
    if kind == "draw_blind":
        return "Draw a card from the deck"
    if kind == "draw_face_up":
        return f"Take the face-up {card_name(action.card)}"
    if kind == "draw_tickets":
        return "Draw tickets" if not action.mix else \
            "Draw tickets (" + ", ".join(f"{n} {deck}" for deck, n in action.mix) + ")"
    if kind == "keep_tickets":
        offered = {t.id: t for t in view.pending_tickets}
        names = [f"{m.place_name(t.a)}–{m.place_name(t.b)}" for t in
                 (offered.get(i) for i in action.tickets) if t is not None]
        if not names:
            return f"Keep {plural(len(action.tickets), 'ticket')}"
        return "Keep " + ", ".join(names)
    if kind == "build_station":
        return f"Build a station in {m.place_name(action.city_id)} ({_cards(action.cards)})"
    if kind == "pay_tunnel":
        return f"Pay the tunnel ({_cards(action.cards)})"
    if kind == "decline_tunnel":
        return "Give up the tunnel"
    if kind == "pass":
        return "Pass"
    text = action.describe()
    for cid in (getattr(action, "city_id", None), getattr(action, "city", None)):
        if isinstance(cid, str) and cid in m.cities:
            text = text.replace(cid, m.place_name(cid))
    return text[:1].upper() + text[1:]


def _cards(cards) -> str:
    """'4 red', '2 blue and 1 locomotive'."""
    parts = [f"{n} {card_name(name)}" for name, n in cards]
    if not parts:
        return "no cards"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


__all__ = ["DEFAULT_ROUNDS", "DecisionReview", "Review", "action_words", "costliest",
           "count_decisions", "decision_points", "decision_seed", "game_record", "replay",
           "review_decision", "review_game", "same_move"]
