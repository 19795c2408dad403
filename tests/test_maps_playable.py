"""A map the loader accepts must be playable: a game that is not over has a legal action.

A hand-edited map can be a valid map file and still be unable to seat a number of
players under its family's rules (every Old West city forbidden while Alvin plays,
a Märklin deck too small for every seat's announced tickets...). Such a game is
refused before it is dealt, with a message naming the map file and the field.

Then the engine's invariant itself, over every registered rule family
(``rules.family.families()``), each of its optional rules switched on or off, and every
player count it seats: random games,
some of them hoarding cards and tickets so the decks run dry, never reach a moment
where the game is not over and nobody has anything to do.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.contract import config_id, every_config
from ttr_desktop.maps import MapError, load_map
from ttr_desktop.resources import resource_path
from ttr_desktop.rules import new_game
from ttr_desktop.rules.family import SHIPPED


def shipped_text(map_id: str) -> str:
    return resource_path("maps", f"{map_id}.toml").read_text(encoding="utf-8")


def hand_edited(tmp_path: Path, map_id: str, text: str):
    """Write an edited copy of a shipped map and load it: the loader accepts it."""
    path = tmp_path / f"{map_id}.toml"
    path.write_text(text, encoding="utf-8")
    return load_map(path)


def refusal(variant: str, players: int, game_map, options=None) -> MapError:
    with pytest.raises(MapError) as caught:
        new_game(variant, players, seed=1, options=options, game_map=game_map)
    return caught.value


def every_city(text: str, line: str, skip: int = 0) -> str:
    """Add ``line`` to every [[cities]] entry after the first ``skip``."""
    parts = text.split("[[cities]]\n")
    return "[[cities]]\n".join(
        parts[:1 + skip] + [line + "\n" + p for p in parts[1 + skip:]])


def first_tickets(text: str, count: int) -> str:
    """The map with only its first ``count`` tickets (tickets end the shipped files)."""
    parts = text.split("\n[[tickets]]\n")
    return "\n[[tickets]]\n".join(parts[:count + 1]) + "\n"


def play_initial_choices(game) -> None:
    """Everyone announces, keeps and (Old West) chooses a home: the first offer each time."""
    for _ in range(40):
        if game.phase == "turn":
            return
        actions = game.legal_actions()
        assert actions, f"stuck in {game.phase} before the first turn"
        game.apply(actions[0])
    raise AssertionError("the setup choices never end")


# --- A. Maps that cannot seat the players are refused -----------------------------
def test_old_west_with_alvin_and_every_city_forbidden_is_refused(tmp_path):
    text = every_city(shipped_text("old-west").replace("forbidden_start = true\n", ""),
                      "forbidden_start = true")
    game_map = hand_edited(tmp_path, "old-west", text)
    for players in range(2, 7):
        err = refusal("old-west", players, game_map, {"alvin": True})
        assert err.field == "cities.forbidden_start"
        assert "old-west.toml, cities.forbidden_start:" in str(err)
        assert f"each of the {players} players chooses a home city" in str(err)
        assert "but the map has none" in str(err)
    # Without Alvin nobody is kept out of a forbidden_start city: the map plays.
    game = new_game("old-west", 6, seed=1, game_map=game_map)
    play_initial_choices(game)


def test_old_west_with_alvin_seats_only_as_many_players_as_free_cities(tmp_path):
    text = every_city(shipped_text("old-west").replace("forbidden_start = true\n", ""),
                      "forbidden_start = true", skip=3)
    game_map = hand_edited(tmp_path, "old-west", text)
    game = new_game("old-west", 3, seed=2, options={"alvin": True}, game_map=game_map)
    play_initial_choices(game)
    err = refusal("old-west", 4, game_map, {"alvin": True})
    assert "4 cities without forbidden_start needed, but the map has 3" in str(err)


def test_alvin_needs_a_city_to_start_in(tmp_path):
    game_map = hand_edited(tmp_path, "old-west",
                           shipped_text("old-west").replace("forbidden_start = true\n", ""))
    err = refusal("old-west", 2, game_map, {"alvin": True})
    assert err.field == "cities.forbidden_start"
    assert "Alvin the Alien starts in a city marked forbidden_start" in str(err)
    new_game("old-west", 2, seed=1, game_map=game_map)   # without Alvin it plays


def test_marklin_with_six_tickets_is_refused_for_the_third_seat(tmp_path):
    game_map = hand_edited(tmp_path, "marklin", first_tickets(shipped_text("marklin"), 6))
    assert len(game_map.tickets) == 6
    err = refusal("marklin", 3, game_map)
    assert err.field == "tickets"
    assert re.search(r"marklin\.toml, tickets: each of the 3 players announces 4 starting "
                     r"tickets .*12 tickets needed, but the map has 6", str(err))


def test_marklin_seats_as_many_players_as_full_announcements(tmp_path):
    game_map = hand_edited(tmp_path, "marklin", first_tickets(shipped_text("marklin"), 8))
    game = new_game("marklin", 2, seed=3, game_map=game_map)
    play_initial_choices(game)
    assert "12 tickets needed, but the map has 8" in str(refusal("marklin", 3, game_map))


def test_usa_deals_three_tickets_to_every_seat(tmp_path):
    game_map = hand_edited(tmp_path, "usa", first_tickets(shipped_text("usa"), 14))
    play_initial_choices(new_game("usa", 4, seed=1, game_map=game_map))
    err = refusal("usa", 5, game_map)
    assert err.field == "tickets"
    assert "each of the 5 players is dealt 3 starting tickets: 15 tickets needed, " \
           "but the map has 14" in str(err)


def test_europe_deals_one_long_ticket_to_every_seat(tmp_path):
    text = shipped_text("europe").replace('deck = "long"', 'deck = "regular"', 2)
    game_map = hand_edited(tmp_path, "europe", text)
    play_initial_choices(new_game("europe", 4, seed=1, game_map=game_map))
    err = refusal("europe", 5, game_map)
    assert err.field == "tickets.deck"
    assert '1 starting ticket from the "long" deck: 5 tickets with deck = "long" needed, ' \
           "but the map has 4" in str(err)


def test_county_durham_needs_coal_left_after_setup_removes_nine(tmp_path):
    text = every_city(shipped_text("county-durham"), "coal = false", skip=9)
    game_map = hand_edited(tmp_path, "county-durham", text)
    err = refusal("county-durham", 2, game_map)
    assert err.field == "cities.coal"
    assert "coal_removed" in str(err) and "10 cities with coal needed, but the map has 9" \
        in str(err)
    # Removing fewer tokens leaves some: the same map plays.
    new_game("county-durham", 2, seed=1, options={"coal_removed": 5}, game_map=game_map)


def test_a_route_colour_the_family_has_no_cards_for_is_named(tmp_path):
    text = shipped_text("legacy").replace('color = "yellow"', 'color = "pink"', 1)
    err = refusal("legacy", 2, hand_edited(tmp_path, "legacy", text))
    assert err.field == "routes[0].color"
    assert "route bangor-quebec-1 is pink, but legacy's train cards have no pink" in str(err)


def test_a_route_longer_than_the_score_table_is_named(tmp_path):
    text = shipped_text("marklin").replace("length = 2", "length = 8", 1)
    err = refusal("marklin", 2, hand_edited(tmp_path, "marklin", text))
    assert err.field == "routes[0].length"
    assert "has length 8, which scores nothing in marklin" in str(err)


def test_a_ticket_in_a_deck_the_family_does_not_use_is_named(tmp_path):
    text = shipped_text("usa").replace("points = ", 'deck = "long"\npoints = ', 1)
    game_map = hand_edited(tmp_path, "usa", text)
    err = refusal("usa", 2, game_map)
    assert err.field == "tickets[0].deck"
    assert "which usa does not use (its decks: regular)" in str(err)


def test_rulesets_that_leave_a_seat_without_a_deal_are_refused():
    # Neither number is an option a game may set (only rules.md §7 knobs are), so the
    # ruleset is changed directly, as a new family's ruleset could be written.
    from dataclasses import replace

    from ttr_desktop.maps.loader import get_map
    from ttr_desktop.rules.ruleset import check_playable, get_ruleset
    usa = get_ruleset("usa")
    with pytest.raises(ValueError, match="each of the 5 players is dealt 30 train cards: "
                                         "150 train cards needed, but the deck has 110"):
        check_playable(replace(usa, initial_hand=30), get_map("usa"), 5)
    legacy = get_ruleset("legacy")
    with pytest.raises(ValueError, match="each of the 6 players runs a company of its own "
                                         "colour: 6 companies needed, but the game has 5"):
        check_playable(replace(legacy, max_players=6), get_map(legacy.map_id), 6)
    with pytest.raises(ValueError, match="unknown option 'initial_hand'"):
        new_game("usa", 5, options={"initial_hand": 30})


def test_a_ruleset_that_cannot_be_played_is_refused():
    from dataclasses import replace

    from ttr_desktop.rules.ruleset import get_ruleset
    with pytest.raises(ValueError, match="stations_per_player cannot be negative"):
        replace(get_ruleset("usa", {"stations": True}), stations_per_player=-1).check()


# --- B. Every family: a game that is not over has a legal action -----------------
CONFIGS = every_config()


def test_every_family_and_optional_rule_is_covered():
    covered = {(c.variant, tuple(c.options or ())) for c in CONFIGS}
    assert {f.id for f in SHIPPED} <= {name for name, _ in covered}
    assert ("usa", ("stations",)) in covered and ("old-west", ("alvin",)) in covered
    assert {c.players for c in CONFIGS if c.variant == "old-west"} == {2, 3, 4, 5, 6}


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
@settings(max_examples=3, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), hoard=st.sampled_from((0.0, 0.6, 0.95)))
def test_a_game_that_is_not_over_has_a_legal_action(config, seed, hoard):
    """Random play to the end. With ``hoard`` > 0 a seat prefers drawing cards and tickets
    to claiming, so decks, the display and the ticket piles run dry along the way."""
    game = new_game(config.variant, config.players, seed=seed, options=config.options)
    rng = random.Random(seed)
    for step in range(3000):
        actions = game.legal_actions()
        if game.is_over:
            assert actions == []
            return
        assert actions, (f"{config.id} seed {seed}: not over, nothing legal "
                         f"(phase {game.phase}, step {step})")
        if hoard and rng.random() < hoard:
            quiet = [a for a in actions if a.kind not in ("claim_route", "build_station")]
            actions = quiet or actions
        game.apply(rng.choice(actions))
    raise AssertionError(f"{config.id} seed {seed}: no end after 3000 actions")
