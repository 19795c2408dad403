"""The scoring screen's words: part labels, amounts (points or dollars), rounds, who won
and why. Plain strings only; nothing here draws."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ttr_desktop.rules.scoring import Result
from ttr_desktop.rules.words import plural, plural_word

MINUS = "\u2212"
DASH = "\u2013"

#: Engine score part -> what a player calls it: the core's parts here, each family's in its
#: window descriptor (``ui.families``). Parts not listed get a label made from their name
#: (see ``part_label``), so a new rule family never breaks the screen.
PART_LABELS: dict[str, str] = {
    "routes": "Routes",
    "tickets": "Tickets",
    "longest_path": "Longest path",
    "floor": "Raised to zero",
}

#: An end bonus's measure -> (the statistics column's heading, its tooltip, the unit it
#: counts in): the scoring screen shows each seat's value beside the bonus it decided.
#: Families add theirs; a measure not listed is shown as a plain number.
MEASURE_WORDS: dict[str, tuple[str, str, str]] = {
    "longest_path": ("Longest", "Longest continuous path, in trains", "train"),
    "completed_tickets": ("Tickets", "Tickets completed", "ticket"),
    "durham_most": ("Tickets", "Tickets completed", "ticket"),
    "coal": ("Coal", "Coal held at the end", "coal"),
    "merchandise": ("Merch.", "Merchandise points collected", "point"),
}


#: A score part that is not a declared bonus but is worked out from a count the view
#: shows -> fn(view, seat) giving that count in words (Legacy's trains-left table).
PART_MEASURES: dict[str, object] = {
    "trains_left": lambda view, seat: plural(view.trains_left[seat], "train"),
}


def measure_text(measure: str, value: int) -> str:
    """'7 coal', '5 tickets', '23 trains': a bonus's measure in words."""
    from ttr_desktop.rules.words import plural

    words = MEASURE_WORDS.get(measure)
    return plural(value, words[2]) if words else str(value)


#: Engine variant -> (the tally panel's title, fn(game, seat, kind) -> the caption under a
#: seat's name): a family that scores differently names its cards (Legacy's bank slips).
SLIP_WORDS: dict[str, tuple[str, object]] = {}

#: Tie-break name -> what the winner did, finishing "Tie on points — Ann ...".
TIE_BREAK_WORDS: dict[str, str] = {
    "tickets": "completed more tickets",
    "fewest_stations": "built fewer stations",
    "longest_path": "holds the longest path",
    "merchandise": "collected more merchandise",
    "later_in_turn_order": "played later in turn order",
}


def readable(name: str) -> str:
    """'most_coal' -> 'Most coal', 'bonusCard' -> 'Bonus card': a label from a code name."""
    words = re.sub(r"([a-z])([A-Z])", r"\1 \2", str(name))
    words = " ".join(re.split(r"[\s_\-.]+", words)).strip().lower()
    return words[:1].upper() + words[1:] if words else "Other"


def part_label(name: str) -> str:
    """The label of the engine score part ``name``."""
    return PART_LABELS.get(name) or readable(name)


def join_names(names: list[str]) -> str:
    """'Ann', 'Ann and Bob', 'Ann, Bob and Cy'."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def signed(value: int) -> str:
    """'+4', '−8' (a true minus sign), '0'."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"{MINUS}{-value}"
    return "0"


def number(value: int) -> str:
    """'12', '−8' (a true minus sign)."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


@dataclass(frozen=True)
class Amounts:
    """How a score reads: points ('12', '+4') or dollars ('$12', '+$4')."""

    currency: str = "points"

    @classmethod
    def of(cls, game) -> Amounts:
        """The amounts of ``game``'s ruleset (points unless it says dollars)."""
        return cls(getattr(game.ruleset, "currency", "points") or "points")

    @property
    def dollars(self) -> bool:
        """True when scores are money."""
        return self.currency == "dollars"

    @property
    def what(self) -> str:
        """'Score' or 'Money', to start a sentence."""
        return "Money" if self.dollars else "Score"

    @property
    def unit(self) -> str:
        """'points' or 'money', after 'Tie on'."""
        return "money" if self.dollars else "points"

    def total(self, value: int) -> str:
        """'12', '−8', '$12', '−$8'."""
        if not self.dollars:
            return number(value)
        return f"{MINUS}${-value}" if value < 0 else f"${value}"

    def signed(self, value: int) -> str:
        """'+4', '−8', '0', '+$4', '−$8', '$0'."""
        if not self.dollars:
            return signed(value)
        if value > 0:
            return f"+${value}"
        return self.total(value)

    def phrase(self, value: int) -> str:
        """'12 points', '1 point', '$12'."""
        if self.dollars:
            return self.total(value)
        return f"{number(value)} {plural_word(value, 'point')}"

    def per_train(self, value: float) -> str:
        """'2.4' or '$2.4' (one decimal)."""
        text = f"{value:.1f}".replace("-", MINUS)
        return f"${text}" if self.dollars else text


# ----------------------------------------------------------------------
# Rounds
def rounds_played(turns: int, seats: int) -> int:
    """Rounds (every seat once) that ``turns`` seat turns make; a started round counts."""
    if turns <= 0 or seats <= 0:
        return 0
    return -(-turns // seats)


def current_round(turns: int, seats: int, over: bool = False) -> int:
    """The round being played after ``turns`` completed seat turns (1 at the start); once
    the game is ``over``, the rounds played (``rounds_played``), so the header's "Round 45"
    and the end screen's "45 rounds" agree."""
    if over:
        return rounds_played(turns, seats)
    return max(0, turns) // max(1, seats) + 1


def rounds_text(turns: int, seats: int) -> str:
    """'42 rounds', '1 round'."""
    r = rounds_played(turns, seats)
    return plural(r, "round")


# ----------------------------------------------------------------------
# Who won
def winner_title(result: Result, names: list[str]) -> str:
    """'Ann wins!' or 'Shared victory: Ann and Bob'."""
    winners = [names[s] for s in result.winners]
    if len(winners) == 1:
        return f"{winners[0]} wins!"
    return f"Shared victory: {join_names(winners)}"


def tie_break_text(result: Result, names: list[str], amounts: Amounts | None = None) -> str:
    """How a tie on points was decided, in plain words ('' when there was no tie)."""
    tb = result.tie_break
    if tb is None:
        return ""
    unit = (amounts or Amounts()).unit
    if tb == "shared":
        return f"Tie on {unit} — and every tie-break was level too."
    who = join_names([names[s] for s in result.winners])
    reason = TIE_BREAK_WORDS.get(tb) or f"wins the tie-break ({readable(tb).lower()})"
    return f"Tie on {unit} — {who} {reason}"


def margin_text(result: Result, names: list[str], amounts: Amounts | None = None) -> str:
    """'151 points, 40 ahead of Bob' (or '$51, $4 ahead of Bob') for a clear win."""
    amounts = amounts or Amounts()
    scores = result.scores
    win = result.winners[0]
    top = scores[win].total
    others = [sc for sc in scores if sc.seat not in result.winners]
    pts = amounts.phrase(top)
    if not others:
        return pts
    second = max(others, key=lambda sc: sc.total)
    if result.tie_break is None:
        gap = top - second.total
        ahead = amounts.total(gap) if amounts.dollars else str(gap)
        return f"{pts}, {ahead} ahead of {names[second.seat]}"
    return pts
