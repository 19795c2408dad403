"""The Legacy campaign (rules.md §3.8): twelve games of Legacy with state carried over.

Pure logic: no pygame, no files (``persistence/campaign.py`` reads and writes a campaign).

A campaign has two to five **companies** (a company colour with the player who runs it,
a person or a bot level) in a fixed order round the table. Every game uses the first
game's rules and board (the later sealed content is not public) with what carries over:

- the **caboose**: its holder goes first (the game's seats are the table order turned so
  the holder sits first, ``turn_order``). Before game 1 it is given at random, drawn from
  the campaign's seed (``first_caboose``). If the holder misses a game, it goes to a
  company drawn from that game's seed among those playing; so every game's first player
  follows from the campaign's seed and the games' results;
- the **retired events**: left out of the event deck (the module's ``retired_events``
  setup option);
- the **vaults**: each company's bank slips, game by game.

After a game: the bank slips go into the vaults, the last place takes the caboose, and
the caboose holder retires one event from the event discard pile (a decision: a person
chooses in the window, a bot with ``bot_retire_choice``; nothing is retired when the
pile is empty). A company that missed a game gets, at the end of the campaign, the
lowest slip of that game ([D] §3.8).

``check_campaign`` is the one check of a campaign's contents (``new_campaign`` and the
campaign file's writer and reader use it): each value, and everything that follows from
the rest.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ttr_desktop.rules.modules.legacy import COMPANY_COLOURS, EVENT_BY_ID, EVENTS

if TYPE_CHECKING:
    from ttr_desktop.rules import Game

VARIANT = "legacy"
#: Games in a campaign (the seed's twelve).
CAMPAIGN_GAMES = 12
MIN_COMPANIES, MAX_COMPANIES = 2, 5
#: The longest campaign, and the longest name of a campaign or a player.
MAX_LENGTH, MAX_NAME = 99, 100
#: Campaign seeds are 0 to MAX_SEED - 1.
MAX_SEED = 2 ** 63
#: The largest bank slip a campaign file holds (a slip is $0 or more).
MAX_SLIP = 100_000
#: How a company is played: a person, or a bot level.
KINDS = ("human", "bot")


def bot_levels() -> tuple[str, ...]:
    """The bot levels a company may be run by (every bot the game has)."""
    from ttr_desktop.bots import bot_names
    return tuple(bot_names())


BOT_LEVELS = bot_levels()


class CampaignError(ValueError):
    """A campaign cannot do what was asked; the message says why, in player words."""


@dataclass
class Company:
    """One company: its colour (which is the company) and who runs it."""

    colour: str
    player: str
    kind: str = "human"
    level: str = "greedy"

    @property
    def is_bot(self) -> bool:
        """True when a computer player runs the company."""
        return self.kind == "bot"


@dataclass
class GameRecord:
    """One finished game of the campaign.

    ``order`` is the turn order (first = the caboose holder at the start); ``slips`` each
    playing company's bank slip; ``last`` the company that came last (took the caboose);
    ``retired`` the event its holder retired afterwards ("" none yet or none possible)."""

    number: int
    seed: int
    order: list[str]
    slips: dict[str, int]
    last: str
    retired: str = ""
    #: The event discard pile at the end of the game (what could be retired).
    discard: list[str] = field(default_factory=list)


@dataclass
class Playing:
    """The game being played: its number, seed and turn order, and its autosave file."""

    number: int
    seed: int
    order: list[str]
    save: str = ""


@dataclass
class GameSetup:
    """What ``new_game`` needs for the next game of a campaign."""

    number: int
    seed: int
    order: list[str]              # company colours in turn order
    players: list[str]            # the players' names, in the same order
    options: dict[str, Any]
    caboose: str                  # who holds the caboose (the first player)

    def new_game(self) -> "Game":
        """The engine game."""
        from ttr_desktop.rules import new_game
        return new_game(VARIANT, self.players, seed=self.seed, options=dict(self.options))


@dataclass
class Campaign:
    """A whole campaign's state (see the module docstring)."""

    name: str
    seed: int
    companies: list[Company]
    caboose: str
    retired: list[str] = field(default_factory=list)
    games: list[GameRecord] = field(default_factory=list)
    playing: Playing | None = None
    length: int = CAMPAIGN_GAMES
    created: str = ""

    # Reading ---------------------------------------------------------------
    @property
    def colours(self) -> list[str]:
        """The companies' colours in table order."""
        return [c.colour for c in self.companies]

    def company(self, colour: str) -> Company:
        """The company of ``colour`` (CampaignError when it is not in the campaign)."""
        for c in self.companies:
            if c.colour == colour:
                return c
        raise CampaignError(f"no {colour} company in this campaign")

    @property
    def next_number(self) -> int:
        """The number of the next game to play (1 to length; length + 1 when over)."""
        return len(self.games) + 1

    @property
    def pending_retire(self) -> bool:
        """True when the last game's caboose holder has an event to retire."""
        return bool(self.games) and not self.games[-1].retired and \
            bool(retire_choices(self))

    @property
    def over(self) -> bool:
        """Every game played and the last retire decided."""
        return len(self.games) >= self.length and not self.pending_retire

    def missed(self, colour: str) -> list[int]:
        """The games a company missed."""
        return [g.number for g in self.games if colour not in g.slips]

    def slip(self, colour: str, record: GameRecord) -> int | None:
        """A company's slip for a game; a missed game's slip (the game's lowest) counts only
        once the campaign is over, before that it is None."""
        if colour in record.slips:
            return record.slips[colour]
        if self.over and record.slips:
            return min(record.slips.values())
        return None

    def vaults(self) -> dict[str, int]:
        """Each company's vault total now."""
        return {c: sum(s for g in self.games if (s := self.slip(c, g)) is not None)
                for c in self.colours}

    def standings(self) -> list[tuple[str, list[int | None], int]]:
        """Per company in table order: its slip per game (None: missed, not yet scored)
        and its vault total."""
        return [(c, [self.slip(c, g) for g in self.games], self.vaults()[c])
                for c in self.colours]

    def running_totals(self) -> dict[str, list[int]]:
        """Each company's vault after game 1, 2, ... (for the chart)."""
        out: dict[str, list[int]] = {}
        for c in self.colours:
            total, row = 0, []
            for g in self.games:
                total += self.slip(c, g) or 0
                row.append(total)
            out[c] = row
        return out

    def ranking(self) -> list[str]:
        """Companies by vault, richest first (ties: fewer games missed, then table order)."""
        vaults = self.vaults()
        return sorted(self.colours, key=lambda c: (-vaults[c], len(self.missed(c)),
                                                   self.colours.index(c)))


# ----------------------------------------------------------------------
# Starting
def new_campaign(companies: list[Company], seed: int | None = None, name: str = "",
                 length: int = CAMPAIGN_GAMES, created: str = "") -> Campaign:
    """A fresh campaign; the caboose is given at random, drawn from the campaign's seed
    (the seed's "Before your first game"). CampaignError when the companies cannot play
    or a value could not be kept in the campaign's file (``check_campaign``)."""
    check_companies(companies)
    if seed is None:
        seed = random.SystemRandom().randrange(MAX_SEED)
    if not _whole(seed) or not 0 <= seed < MAX_SEED:
        raise CampaignError(f"a campaign's seed is a whole number from 0 to {MAX_SEED - 1}, "
                            f"not {seed!r}")
    campaign = Campaign(name or "Legacy campaign", seed, list(companies),
                        first_caboose(seed, [c.colour for c in companies]), length=length,
                        created=created)
    check_campaign(campaign)
    return campaign


def first_caboose(seed: int, colours: list[str]) -> str:
    """Who holds the caboose before game 1: drawn at random from the campaign's seed."""
    return random.Random(seed).choice(colours)


def turn_order(colours: list[str], holder: str, present: list[str], seed: int) -> list[str]:
    """A game's turn order: the companies ``present`` in table order (``colours``), turned
    so the caboose holder goes first. A holder who misses the game passes the caboose to a
    company drawn from the game's ``seed`` among those playing (rules.md §3.8)."""
    playing = [c for c in colours if c in present]
    caboose = holder if holder in playing else random.Random(seed).choice(playing)
    k = playing.index(caboose)
    return playing[k:] + playing[:k]


def check_companies(companies: list[Company]) -> None:
    """CampaignError naming the problem when these companies cannot form a campaign."""
    if not MIN_COMPANIES <= len(companies) <= MAX_COMPANIES:
        raise CampaignError(f"a campaign needs {MIN_COMPANIES} to {MAX_COMPANIES} companies, "
                            f"not {len(companies)}")
    seen_colours, seen_names = set(), set()
    for c in companies:
        if not isinstance(c, Company):
            raise CampaignError(f"{c!r} is not a company")
        if c.colour not in COMPANY_COLOURS:
            raise CampaignError(f"{c.colour!r} is not a company colour (the companies are "
                                f"{', '.join(COMPANY_COLOURS)})")
        if c.colour in seen_colours:
            raise CampaignError(f"two players run the {c.colour} company")
        seen_colours.add(c.colour)
        if not isinstance(c.player, str) or not c.player.strip():
            raise CampaignError(f"the {c.colour} company needs a player's name")
        name = c.player.strip()
        if len(c.player) > MAX_NAME:
            raise CampaignError(f"the {c.colour} company's player's name is longer than "
                                f"{MAX_NAME} characters")
        if name.lower() in seen_names:
            raise CampaignError(f"two players are called {name!r}; names must differ")
        seen_names.add(name.lower())
        if c.kind not in KINDS:
            raise CampaignError(f"the {c.colour} company is played by {c.kind!r}; "
                                "it must be 'human' or 'bot'")
        if c.level not in BOT_LEVELS:
            raise CampaignError(f"the {c.colour} company's bot level {c.level!r} is unknown "
                                f"(known: {', '.join(BOT_LEVELS)})")


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_campaign(campaign: Campaign) -> None:
    """CampaignError naming the first thing in ``campaign`` that a campaign cannot be.

    The one check of a campaign's contents: ``new_campaign`` and the campaign file's writer
    and reader all use it. Besides each value's range it checks everything that follows
    from the rest: each game's seed (from the campaign's seed), its turn order (the table
    order turned to the caboose holder, who is drawn from the seeds or came last the game
    before), its last place (the lowest slip), its event discard pile (each event once,
    none retired before the game) and the caboose now."""
    c = campaign
    if not isinstance(c.name, str) or len(c.name) > MAX_NAME:
        raise CampaignError(f"a campaign's name is text of at most {MAX_NAME} characters")
    if not isinstance(c.created, str):
        raise CampaignError("a campaign's creation date is text")
    if not _whole(c.seed) or not 0 <= c.seed < MAX_SEED:
        raise CampaignError(f"a campaign's seed is a whole number from 0 to {MAX_SEED - 1}, "
                            f"not {c.seed!r}")
    if not _whole(c.length) or not 1 <= c.length <= MAX_LENGTH:
        raise CampaignError(f"a campaign is 1 to {MAX_LENGTH} games long, not {c.length!r}")
    if not isinstance(c.companies, list):
        raise CampaignError("a campaign's companies are a list")
    check_companies(c.companies)
    colours = c.colours
    if c.caboose not in colours:
        raise CampaignError(f"the caboose is given to {c.caboose!r}, which is not one of the "
                            f"companies ({', '.join(colours)})")
    _check_events(c.retired, "the retired events")
    if len(set(c.retired)) != len(c.retired):
        raise CampaignError("an event is retired twice")
    if not isinstance(c.games, list) or len(c.games) > c.length:
        raise CampaignError(f"the campaign records {len(c.games)} games of a "
                            f"{c.length}-game campaign")

    holder = first_caboose(c.seed, colours)
    retired_before: list[str] = []
    for i, g in enumerate(c.games, start=1):
        if not isinstance(g, GameRecord):
            raise CampaignError(f"game #{i} is not a game record")
        if g.number != i:
            raise CampaignError(f"the campaign numbers its game #{i} as game {g.number}")
        if g.seed != game_seed(c, i):
            raise CampaignError(f"game {i}'s seed is not the one the campaign's seed gives it")
        _check_order(g.order, colours, holder, game_seed(c, i), f"game {i}")
        if not isinstance(g.slips, dict) or set(g.slips) != set(g.order):
            raise CampaignError(f"game {i}'s bank slips are not one for each company that "
                                "played it")
        for colour, amount in g.slips.items():
            if not _whole(amount) or not 0 <= amount < MAX_SLIP:
                raise CampaignError(f"game {i}'s bank slip for {colour} is {amount!r} (a slip "
                                    f"is $0 to ${MAX_SLIP - 1})")
        if g.last not in g.order:
            raise CampaignError(f"{g.last!r} came last in game {i} without playing it")
        if g.slips[g.last] != min(g.slips.values()):
            raise CampaignError(f"{g.last} came last in game {i}, yet its bank slip is not "
                                "the lowest")
        _check_events(g.discard, f"game {i}'s event discard pile")
        if len(set(g.discard)) != len(g.discard):
            raise CampaignError(f"an event is twice in game {i}'s event discard pile")
        early = [e for e in g.discard if e in retired_before]
        if early:
            raise CampaignError(f"{early[0]!r} is in game {i}'s event discard pile though it "
                                "was retired before that game")
        if not isinstance(g.retired, str):
            raise CampaignError(f"the event retired after game {i} is not an event's name")
        if g.retired:
            if g.retired not in g.discard:
                raise CampaignError(f"{g.retired!r} is retired after game {i}, though it was "
                                    "not in that game's event discard pile")
            retired_before.append(g.retired)
        elif g.discard and i < len(c.games):
            raise CampaignError(f"no event was retired after game {i}, though one had to be")
        holder = g.last
    if retired_before != c.retired:
        raise CampaignError("the retired events differ from those the games retired")

    if c.playing is not None:
        p = c.playing
        number = len(c.games) + 1
        if not isinstance(p, Playing) or p.number != number or number > c.length:
            raise CampaignError(f"game {getattr(p, 'number', '?')} is being played, but the "
                                f"next game is game {number}")
        if c.pending_retire:
            raise CampaignError(f"game {number} is being played before an event was retired "
                                "after the last game")
        if p.seed != game_seed(c, number):
            raise CampaignError(f"the seed of the game being played is not the one the "
                                "campaign's seed gives it")
        _check_order(p.order, colours, holder, p.seed, "the game being played")
        if not isinstance(p.save, str):
            raise CampaignError("the game being played has a bad save file name")
        holder = p.order[0]
    if c.caboose != holder:
        raise CampaignError(f"the caboose is given to {c.caboose}, but {holder} holds it")


def _check_events(events: object, what: str) -> None:
    """CampaignError unless ``events`` lists known events."""
    if not isinstance(events, list):
        raise CampaignError(f"{what} are not a list of events")
    for e in events:
        if not isinstance(e, str) or e not in EVENT_BY_ID:
            raise CampaignError(f"{what} name an unknown event {e!r} (known: "
                                f"{', '.join(EVENT_BY_ID)})")


def _check_order(order: object, colours: list[str], holder: str, seed: int,
                 what: str) -> None:
    """CampaignError unless ``order`` is a turn order the campaign gives its game."""
    if not isinstance(order, list) or any(x not in colours for x in order) or \
            len(set(order)) != len(order):
        raise CampaignError(f"{what}'s turn order names a company twice or one that is not "
                            f"in the campaign ({', '.join(colours)})")
    if len(order) < MIN_COMPANIES:
        raise CampaignError(f"{what} is played by {len(order)} company")
    if order != turn_order(colours, holder, order, seed):
        raise CampaignError(f"{what}'s turn order is not the table order turned to the "
                            "caboose holder")


def game_seed(campaign: Campaign, number: int) -> int:
    """The seed of game ``number`` (fixed by the campaign's seed)."""
    return random.Random(campaign.seed * 1000 + number).randrange(2 ** 63)


def next_game(campaign: Campaign, present: list[str] | None = None) -> GameSetup:
    """The setup of the next game: the companies ``present`` (default all) in table order,
    turned so the caboose holder goes first, with the retired events left out.
    If the holder misses the game, the caboose goes to a random company that plays."""
    if campaign.over or len(campaign.games) >= campaign.length:
        raise CampaignError("the campaign is over: every game has been played")
    if campaign.pending_retire:
        raise CampaignError(f"the {campaign.caboose} company must first retire an event")
    number = campaign.next_number
    seed = game_seed(campaign, number)
    if campaign.playing is not None and campaign.playing.number == number:
        present = list(campaign.playing.order)
    playing = [c for c in campaign.colours if present is None or c in present]
    if present is not None:
        unknown = [c for c in present if c not in campaign.colours]
        if unknown:
            raise CampaignError(f"no {unknown[0]} company in this campaign")
    if len(playing) < MIN_COMPANIES:
        raise CampaignError(f"a game needs at least {MIN_COMPANIES} companies")
    order = turn_order(campaign.colours, campaign.caboose, playing, seed)
    caboose = order[0]
    return GameSetup(number, seed, order, [campaign.company(c).player for c in order],
                     {"companies": list(order), "retired_events": list(campaign.retired)},
                     caboose)


def start_game(campaign: Campaign, setup: GameSetup, save: str = "") -> None:
    """Mark ``setup``'s game as the one being played (the caboose passes if its holder
    misses it); ``save`` is that game's autosave file."""
    campaign.caboose = setup.caboose
    campaign.playing = Playing(setup.number, setup.seed, list(setup.order), save)


def game_companies(game: "Game") -> list[str]:
    """Each seat's company colour in a Legacy game."""
    return list(game.view(0).extra["legacy"]["companies"])


def belongs(campaign: Campaign, game: "Game", number: int) -> bool:
    """True when ``game`` is game ``number`` of this campaign, as the campaign set it up."""
    if game.variant != VARIANT or not 1 <= number <= campaign.length:
        return False
    if game.seed != game_seed(campaign, number):
        return False
    companies = game_companies(game)
    if any(c not in campaign.colours for c in companies):
        return False
    if dict(game.options) != {"companies": list(companies),
                              "retired_events": list(campaign.retired)}:
        return False    # played with other rules than the campaign's
    return list(game.players) == [campaign.company(c).player for c in companies]


# ----------------------------------------------------------------------
# After a game
def record_game(campaign: Campaign, game: "Game", number: int | None = None) -> GameRecord:
    """Put a finished game into the campaign: slips into the vaults, the caboose to the
    last place. Recording the same game again changes nothing (its record is returned).
    CampaignError when the game is not over or is not this campaign's next game."""
    if number is None:
        number = campaign.playing.number if campaign.playing else campaign.next_number
    if number <= len(campaign.games):
        record = campaign.games[number - 1]
        if record.seed == game.seed:
            return record
        raise CampaignError(f"game {number} of this campaign was another game")
    if number != campaign.next_number:
        raise CampaignError(f"the campaign's next game is game {campaign.next_number}, "
                            f"not game {number}")
    if not game.is_over:
        raise CampaignError("the game is not over yet")
    if not belongs(campaign, game, number):
        raise CampaignError(f"this game is not game {number} of the campaign")
    companies = game_companies(game)
    result = game.result()
    slips = {companies[sc.seat]: sc.total for sc in result.scores}
    last = companies[result.ranking[-1]]
    discard = list(game.view(0).extra["legacy"]["events_seen"])
    record = GameRecord(number, game.seed, companies, slips, last, "", discard)
    campaign.games.append(record)
    campaign.caboose = last
    campaign.playing = None
    return record


def retire_choices(campaign: Campaign) -> list[str]:
    """The events the caboose holder may retire after the last game (its event discard
    pile, less anything retired already); empty when there is nothing to decide."""
    if not campaign.games or campaign.games[-1].retired:
        return []
    return [e for e in campaign.games[-1].discard if e not in campaign.retired]


def retire_event(campaign: Campaign, event_id: str) -> None:
    """The caboose holder retires ``event_id`` from the last game's event discard pile."""
    choices = retire_choices(campaign)
    if event_id not in choices:
        known = EVENT_BY_ID.get(event_id)
        what = f"'{known.title}'" if known else repr(event_id)
        raise CampaignError(f"{what} cannot be retired now (it is not in the event discard "
                            "pile of the last game)" if choices else
                            "there is no event to retire now")
    campaign.retired.append(event_id)
    campaign.games[-1].retired = event_id


def bot_retire_choice(campaign: Campaign, level: str = "greedy", game: "Game | None" = None,
                      rng: random.Random | None = None) -> str:
    """The event a bot holding the caboose retires ("" when there is none).

    Random moves pick any. The others retire what did the holder least good compared with
    the other companies: the dollars each event paid in the last game (``game``, when at
    hand), plus what each event is known to cost or bring a company of the holder's colour.
    """
    choices = retire_choices(campaign)
    if not choices:
        return ""
    if level == "random":
        return (rng or random.Random(campaign.seed + len(campaign.games))).choice(choices)
    holder = campaign.caboose
    paid: dict[str, list[int]] = {}
    companies: list[str] = []
    if game is not None:
        info = game.view(0).extra["legacy"]
        paid = {k: list(v) for k, v in info["event_paid"].items()}
        companies = list(info["companies"])

    def worth(event_id: str) -> float:
        value = 0.0
        amounts = paid.get(event_id)
        if amounts and holder in companies:
            me = companies.index(holder)
            others = [a for s, a in enumerate(amounts) if s != me]
            value += amounts[me] - (sum(others) / len(others) if others else 0)
        ev = EVENT_BY_ID[event_id]
        if ev.effect == "claim_colour_fee" and ev.param("colour") == holder:
            value -= 3     # a fee on the holder's own company routes
        if ev.effect == "company_bonus_times":
            value += 0.5   # helps every company, the holder's too
        return value

    return min(choices, key=lambda e: (worth(e), [x.id for x in EVENTS].index(e)))


__all__ = ["BOT_LEVELS", "CAMPAIGN_GAMES", "Campaign", "CampaignError", "Company",
           "GameRecord", "GameSetup", "KINDS", "MAX_COMPANIES", "MAX_LENGTH", "MAX_NAME",
           "MAX_SEED", "MAX_SLIP", "MIN_COMPANIES", "Playing", "belongs", "bot_retire_choice",
           "check_campaign", "check_companies", "first_caboose", "game_companies", "game_seed",
           "new_campaign", "next_game", "record_game", "retire_choices", "retire_event",
           "start_game", "turn_order"]
