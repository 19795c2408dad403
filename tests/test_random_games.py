"""Hundreds of random-bot games per variant and player count: all finish, nothing leaks.

At the end of every game: each of the 110 train cards is somewhere, every seat's
trains left plus trains placed make 45, the score track equals the recount of
route points, tickets and stations are all accounted for, and nothing is legal.
"""

from __future__ import annotations

import pytest

from ttr_desktop.bots import make_bot
from ttr_desktop.rules import new_game

GAMES = 100
CONFIGS = (
    [("usa", n, None) for n in range(2, 6)]
    + [("usa", n, {"stations": True}) for n in (2, 3, 5)]
    + [("europe", n, None) for n in range(2, 6)]
)


def config_id(config) -> str:
    variant, players, options = config
    return f"{variant}{'+stations' if options else ''}-{players}p"


def check_accounts(game) -> None:
    """Cards, trains, points, tickets and stations all add up (at any moment)."""
    s, b = game.state, game.board
    n = game.num_players
    assert game.total_cards() == 110
    scores = game.scores()
    for seat in range(n):
        placed = sum(b.r_len[r] for r in range(b.n_routes) if s.owner[r] == seat)
        assert s.trains[seat] + placed == 45, f"seat {seat}: trains"
        assert s.points[seat] == scores[seat].parts["routes"], f"seat {seat}: score track"
        assert scores[seat].total == sum(scores[seat].parts.values())
    # Every ticket is in a deck, a hand, a pending draw or the box, exactly once.
    places = [t for group in (*s.ticket_decks.values(), *s.tickets, *s.pending,
                              s.boxed_tickets) for t in group]
    assert sorted(places) == list(range(len(game.map.tickets)))
    stations = s.ext.get("stations")
    if stations is not None:
        for seat in range(n):
            built = sum(1 for owner in stations.city if owner == seat)
            assert built + stations.left[seat] == game.ruleset.stations_per_player
            assert scores[seat].parts["stations"] == 4 * stations.left[seat]


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
                assert game.total_cards() == 110, f"seed {seed}, step {steps}"
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
