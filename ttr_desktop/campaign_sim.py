"""A Legacy campaign played by bots from start to end, and its standings as text.

``python -m ttr_desktop.sim --variant legacy --campaign 12 --bots greedy,greedy,random``
plays one (companies take the colours blue, red, green, yellow, black in order).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ttr_desktop.campaign import (
    Campaign,
    Company,
    bot_retire_choice,
    next_game,
    new_campaign,
    record_game,
    retire_event,
    start_game,
)
from ttr_desktop.rules import Game
from ttr_desktop.rules.modules.legacy import COMPANY_COLOURS, EVENT_BY_ID

def bot_companies(bots: Sequence[str]) -> list[Company]:
    """One bot company per bot name, in the default colour order."""
    from ttr_desktop.bots import make_bot
    if len(bots) > len(COMPANY_COLOURS):
        raise ValueError(f"a campaign has at most {len(COMPANY_COLOURS)} companies")
    out = []
    for colour, name in zip(COMPANY_COLOURS, bots):
        make_bot(name)  # ValueError naming the known bots
        out.append(Company(colour, f"{colour.capitalize()} ({name})", "bot", name))
    return out


def play_out(game: Game, levels: Sequence[str], seed: int) -> Game:
    """Play ``game`` to its end with one bot level per seat."""
    from ttr_desktop.bots import make_bot
    bots = [make_bot(level, seed=seed * 1009 + k) for k, level in enumerate(levels)]
    while not game.is_over:   # a round of passes ends the game (the engine's rule)
        seat = game.current_seat
        game.apply(bots[seat].choose(game.view(seat), game.legal_actions()))
    return game


def play_campaign(bots: Sequence[str], games: int = 12, seed: int = 1,
                  after_game: Callable[[Campaign, Game], None] | None = None) -> Campaign:
    """A whole campaign of ``games`` games, every company a bot."""
    campaign = new_campaign(bot_companies(bots), seed=seed, name="Bot campaign",
                            length=games)
    while not campaign.over:
        setup = next_game(campaign)
        start_game(campaign, setup)
        levels = [campaign.company(c).level for c in setup.order]
        game = play_out(setup.new_game(), levels, setup.seed)
        record_game(campaign, game)
        holder = campaign.company(campaign.caboose)
        choice = bot_retire_choice(campaign, holder.level, game,
                                   random.Random(setup.seed))
        if choice:
            retire_event(campaign, choice)
        if after_game is not None:
            after_game(campaign, game)
    return campaign


def format_standings(campaign: Campaign) -> str:
    """The vaults game by game, the caboose and the retired events, as plain text."""
    games = campaign.games
    head = f"{'company':<24}" + "".join(f"{g.number:>5}" for g in games) + f"{'vault':>8}"
    lines = [f"{campaign.name}: {len(games)} of {campaign.length} games", "", head,
             "-" * len(head)]
    for colour, slips, total in campaign.standings():
        name = campaign.company(colour).player
        cells = "".join(f"{'-' if s is None else s:>5}" for s in slips)
        lines.append(f"{name:<24}{cells}{total:>8}")
    lines.append("")
    lines.append("last place (took the caboose): " +
                 ", ".join(f"{g.number}:{g.last}" for g in games))
    lines.append("retired: " + (", ".join(
        f"{g.number}:{EVENT_BY_ID[g.retired].title}" for g in games if g.retired) or "none"))
    ranking = campaign.ranking()
    vaults = campaign.vaults()
    lines.append("standings: " + ", ".join(
        f"{k}. {campaign.company(c).player} ${vaults[c]}" for k, c in enumerate(ranking, 1)))
    return "\n".join(lines)


def run_cli(variant: str, bots: Sequence[str], games: int, seed: int, error) -> int:
    """``sim --campaign N``: play and print one bot campaign (``error`` reports bad input)."""
    from ttr_desktop.campaign import CampaignError, VARIANT
    if variant != VARIANT:
        error(f"--campaign is for --variant {VARIANT} only")
    if not 1 <= games <= 99:
        error("--campaign takes 1 to 99 games")
    try:
        campaign = play_campaign(bots, games, seed)
    except (ValueError, CampaignError) as exc:
        error(str(exc))
    print(format_standings(campaign))
    return 0
