"""Random-bot games of every rule family, option set and player count: all finish,
nothing leaks.

At the end of every game: every train card of the family's deck is somewhere, every
seat's trains left plus trains placed make the family's trains, the score track is the
ledger and (unless a module decides who scores a route) each seat's route entries are the
recount of its routes, tickets and stations are all accounted for, and nothing is legal.
The families come from ``rules.family.families()`` (``tests/contract.py``): a family
registered the documented way is played here too.
"""

from __future__ import annotations

import pytest

from tests.contract import config_id, every_config
from ttr_desktop.bots import make_bot
from ttr_desktop.rules import new_game

#: Games per family, option set and player count (34 of them for the shipped families: 510
#: games, about as long as the 1,100 USA and Europe games this suite played before).
GAMES = 15
CONFIGS = every_config()


def check_accounts(game) -> None:
    """Cards, trains, points, tickets and stations all add up (at any moment)."""
    s, b, rules = game.state, game.board, game.ruleset
    n = game.num_players
    assert game.total_cards() == rules.deck_size(n)
    scores = game.scores()
    modules_score_routes = any(m.overrides("route_scorers") for m in game.modules)
    for seat in range(n):
        owned = [r for r in range(b.n_routes) if s.owner[r] == seat]
        assert s.trains[seat] + sum(b.r_len[r] for r in owned) == rules.trains_per_player, \
            f"seat {seat}: trains"
        assert s.points[seat] == sum(e[1] for e in s.ledger if e[0] == seat), \
            f"seat {seat}: the score track is not the ledger"
        if not modules_score_routes:
            recount = sum(rules.route_points.get(b.r_len[r], 0) for r in owned)
            assert recount == sum(e[1] for e in s.ledger if e[0] == seat and e[2] == "route"), \
                f"seat {seat}: route points"
        assert scores[seat].total == sum(scores[seat].parts.values())
    # Every ticket is in a deck, a hand, a pending draw, held for return or the box,
    # exactly once.
    places = [t for group in (*s.ticket_decks.values(), *s.tickets, *s.pending,
                              s.boxed_tickets, s.held_returns) for t in group]
    assert sorted(places) == list(range(len(game.map.tickets)))
    stations = s.ext.get("stations")
    if stations is not None:
        for seat in range(n):
            built = sum(1 for owner in stations.city if owner == seat)
            assert built + stations.left[seat] == rules.stations_per_player
            assert scores[seat].parts["stations"] == rules.station_points * stations.left[seat]


def check_finished(game) -> None:
    """A finished game: nothing legal, the end was triggered (or a round of passes showed
    nobody could move), winners have the top score."""
    assert game.is_over
    assert game.legal_actions() == []
    assert (min(game.state.trains) <= game.ruleset.end_trigger_trains
            or game.state.passes == game.num_players)
    check_accounts(game)
    scores = game.scores()
    winners = game.result().winners
    top = max(sc.total for sc in scores)
    assert winners and all(scores[w].total == top for w in winners)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_random_games_finish_and_account_for_everything(config):
    variant, players, options = config
    for i in range(GAMES):
        seed = 10_000 + i
        game = new_game(variant, players, seed=seed, options=options)
        bot = make_bot("random", seed=seed)
        steps = 0
        while not game.is_over:
            seat = game.current_seat
            action = bot.choose(game.view(seat), game.legal_actions())
            game.apply(action)
            steps += 1
            assert steps < 5000, f"seed {seed}: the game does not end"
            if steps % 25 == 0:
                assert game.total_cards() == game.ruleset.deck_size(players), \
                    f"seed {seed}, step {steps}"
        check_finished(game)


def stalled_game(**options):
    """USA with stations, 3 players, random play (seed 10033): after 340 actions the deck,
    discard and ticket deck are empty, all 110 cards are in hands, every seat has 3 trains
    and no route of 3 or fewer is open, so ``pass`` is the only legal action, forever."""
    game = new_game("usa", 3, seed=10033, options={"stations": True, **options})
    bot = make_bot("random", seed=10033)
    passes = 0
    while not game.is_over and passes < 3:
        action = bot.choose(game.view(game.current_seat), game.legal_actions())
        game.apply(action)
        passes = passes + 1 if action.kind == "pass" else 0
    return game


def test_a_round_of_passes_ends_the_game():
    game = stalled_game()
    assert game.is_over
    assert game.state.passes == game.num_players
    check_finished(game)


def test_with_the_knob_off_passing_goes_on():
    game = stalled_game(end_on_pass_round=False)
    assert not game.is_over
    assert [a.kind for a in game.legal_actions()] == ["pass"]
