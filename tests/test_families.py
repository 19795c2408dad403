"""The rule families: one descriptor each, in one explicit list, and every contract suite
plays every game of every registered family without anyone listing it. A family may have
several games on one board (USA 1910: 1910, Mega Game and Big Cities), each a variant of
its own.

A new family is added the documented way (``register_family``, architecture.md "Writing a
rule family"): here a "Big Deal" family on the USA board, USA's rules with bigger deals,
is registered inside a test and the contract suites' game lists take it up.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests import contract
from tests.test_random_games import check_finished
from ttr_desktop.bots import make_bot
from ttr_desktop.bots.families import FamilyPolicy, policy_for, shipped_policies
from ttr_desktop.rules import (
    VARIANTS, Family, FamilyGame, families, game_options, games, new_game, register_family,
)
import ttr_desktop.rules.family as family_module
from ttr_desktop.rules.family import CORE_OPTION_LABELS, SHIPPED, get_family
from ttr_desktop.rules.modules import _REGISTRY, module_class, register_module
from ttr_desktop.rules.modules.base import RuleModule
from ttr_desktop.rules.modules.stations import Stations
from ttr_desktop.rules.ruleset import USA, register_variant

#: USA's rules with a bigger deal: six train cards, five tickets (keep three), 3-4 players.
BIG_DEAL = Family(
    replace(USA, name="big-deal", initial_hand=6, initial_tickets=(("regular", 5),),
            initial_keep_min=3, min_players=3, max_players=4),
    "USA, big deal", modules=(Stations,), option_labels=(("stations", "Stations"),))


@pytest.fixture
def registry():
    """Registries as they were before the test, whatever it registers."""
    saved = (dict(VARIANTS), dict(family_module._FAMILIES), dict(_REGISTRY))
    yield
    for live, before in zip((VARIANTS, family_module._FAMILIES, _REGISTRY), saved):
        live.clear()
        live.update(before)


# The shipped families ----------------------------------------------------------------
SHIPPED_GAMES = ["usa", "usa-1910", "usa-1910-mega", "usa-1910-big-cities", "europe",
                 "nordic", "marklin", "legacy", "old-west", "county-durham"]


def test_the_shipped_families_come_first_in_the_listed_order():
    shipped = [f.id for f in SHIPPED]
    assert shipped == ["usa", "usa-1910", "europe", "nordic", "marklin", "legacy", "old-west",
                       "county-durham"]
    assert [f.id for f in families()][:len(shipped)] == shipped
    # Every game is a variant of its own, a family's games at its place.
    assert [g.id for g in games()][:len(SHIPPED_GAMES)] == SHIPPED_GAMES
    assert list(VARIANTS)[:len(SHIPPED_GAMES)] == SHIPPED_GAMES


@pytest.mark.parametrize("shipped", SHIPPED, ids=lambda f: f.id)
def test_a_shipped_family_lists_every_rule_module_its_ruleset_names(shipped):
    listed = {cls.name: cls for cls in shipped.modules}
    for game in shipped.each_game():
        names = game.ruleset.modules + game.ruleset.optional_modules
        assert set(listed) == set(names)
        for name in names:
            assert module_class(name) is listed[name]   # what new_game builds


@pytest.mark.parametrize("shipped", SHIPPED, ids=lambda f: f.id)
def test_every_option_of_a_shipped_family_is_named_in_a_players_words(shipped):
    own = dict(shipped.option_labels)
    options = shipped.options()
    assert [o.name for o in options] == list(game_options(shipped.id))
    for option in options:
        assert option.name in own or option.name in CORE_OPTION_LABELS, option.name
        assert option.default == game_options(shipped.id)[option.name]
    assert set(own) <= {o.name for o in options}, "a label for an option the family lacks"


def test_a_family_gives_its_board_its_player_counts_and_its_option_sets():
    usa, old_west = get_family("usa"), get_family("old-west")
    assert (usa.map_id, usa.player_counts, usa.tickets) == ("usa", (2, 3, 4, 5), None)
    assert usa.option_sets() == ({}, {"stations": True})
    assert old_west.player_counts == (2, 3, 4, 5, 6)
    assert old_west.option_sets() == ({}, {"alvin": True})
    assert get_family("europe").option_sets() == ({},)   # its stations are always on
    with pytest.raises(ValueError, match="unknown variant 'atlantis'.*usa, usa-1910, "
                                         "usa-1910-mega"):
        get_family("atlantis")


# USA 1910: one family, three games ----------------------------------------------------
def test_usa_1910_is_one_family_with_three_games_on_the_usa_board():
    family = get_family("usa-1910")
    assert [f.label for f in families()].count("USA 1910") == 1
    assert family.variants == ("usa-1910", "usa-1910-mega", "usa-1910-big-cities")
    assert [g.label for g in family.games] == ["1910", "Mega Game", "Big Cities"]
    for variant in family.variants:
        assert get_family(variant) is family      # each game finds its family
        game = family.game(variant)
        assert (game.id, game.map_id, game.player_counts) == (variant, "usa", (2, 3, 4, 5))
        assert game.option_sets() == ({}, {"stations": True})   # Stations optional, as USA
        assert game.options() and game.label_of("stations") == "Stations"
    assert [family.game(v).tickets for v in family.variants] == [
        ("usa-1910",), ("usa-1910", "usa-1910-mega"), ("usa-bigcities",)]
    assert family.game("usa-1910-mega").label == "USA 1910: Mega Game"
    with pytest.raises(ValueError, match="no game 'usa-1910-small'.*usa-1910, usa-1910-mega"):
        family.game("usa-1910-small")


def test_the_contract_suites_play_each_usa_1910_game_with_and_without_stations():
    configs = {(c.variant, c.players, tuple(c.options or ())) for c in contract.every_config()}
    for variant in ("usa-1910", "usa-1910-mega", "usa-1910-big-cities"):
        for players in (2, 3, 4, 5):
            assert (variant, players, ()) in configs
            assert (variant, players, ("stations",)) in configs
    sampled = {c.id for c in contract.sampled_configs()}
    assert {"usa-1910-mega-2p", "usa-1910-big-cities+stations-5p"} <= sampled


def test_every_shipped_family_has_its_bots_policy_in_one_table():
    table = shipped_policies()
    assert list(table) == [g.id for f in SHIPPED for g in f.each_game()]
    for variant, policy in table.items():
        assert type(policy_for(variant)) is type(policy)
        assert type(policy) is FamilyPolicy or variant in policy.variants
    assert type(policy_for("usa")) is FamilyPolicy
    assert type(policy_for("old-west")).__name__ == "OldWestPolicy"


# A new family, added the documented way ----------------------------------------------
def test_a_registered_family_is_played_by_every_contract_suite(registry):
    import tests.test_properties as properties

    assert "big-deal" not in {c.variant for c in contract.every_config()}
    register_family(BIG_DEAL)

    assert families()[-1] == BIG_DEAL
    assert [c for c in contract.every_config() if c.variant == "big-deal"] == [
        ("big-deal", 3, None), ("big-deal", 4, None),
        ("big-deal", 3, {"stations": True}), ("big-deal", 4, {"stations": True})]
    assert {c.id for c in contract.sampled_configs() if c.variant == "big-deal"} == {
        "big-deal-3p", "big-deal-4p", "big-deal+stations-3p", "big-deal+stations-4p"}
    cases = properties.game_cases()
    assert {"TestBigDealGame", "TestBigDealStationsGame"} <= set(cases)

    # ... and it plays: its own deal, and the random-game suite's accounts add up.
    game = new_game("big-deal", 3, seed=4, options={"stations": True})
    assert [sum(hand) for hand in game.state.hands] == [6, 6, 6]
    assert len(game.state.pending[game.current_seat]) == 5
    bot = make_bot("random", seed=4)
    while not game.is_over:
        game.apply(bot.choose(game.view(game.current_seat), game.legal_actions()))
    check_finished(game)


#: A family of two games on the USA board: USA's deal, and a bigger one.
TWO_DEALS = Family(
    replace(USA, name="two-deals"), "Two deals", modules=(Stations,),
    option_labels=(("stations", "Stations"),),
    games=(FamilyGame(replace(USA, name="two-deals"), "Usual deal"),
           FamilyGame(replace(USA, name="two-deals-big", initial_tickets=(("regular", 5),),
                              initial_keep_min=3), "Big deal")))


def test_a_family_with_games_is_one_family_and_every_suite_plays_each_game(registry):
    import tests.test_properties as properties

    register_family(TWO_DEALS)
    assert families()[-1] == TWO_DEALS and [g.id for g in games()][-2:] == [
        "two-deals", "two-deals-big"]
    assert {c.id for c in contract.sampled_configs() if c.variant.startswith("two-deals")} == {
        "two-deals-2p", "two-deals-5p", "two-deals+stations-2p", "two-deals+stations-5p",
        "two-deals-big-2p", "two-deals-big-5p", "two-deals-big+stations-2p",
        "two-deals-big+stations-5p"}
    assert {"TestTwoDealsGame", "TestTwoDealsBigStationsGame"} <= set(properties.game_cases())
    big = new_game("two-deals-big", 2, seed=2, options={"stations": True})
    assert len(big.state.pending[big.current_seat]) == 5
    assert get_family("two-deals-big") is TWO_DEALS

    # Registered again without its big game: that game is no longer playable.
    register_family(replace(TWO_DEALS, games=TWO_DEALS.games[:1]))
    assert "two-deals-big" not in VARIANTS
    with pytest.raises(ValueError, match="unknown variant 'two-deals-big'"):
        new_game("two-deals-big", 2, seed=2)


def test_a_family_with_games_is_refused_when_they_do_not_fit(registry):
    first, big = TWO_DEALS.games
    with pytest.raises(ValueError, match="its first game must be its own ruleset"):
        register_family(replace(TWO_DEALS, games=(big, first)))
    with pytest.raises(ValueError, match="two of its games have the same id"):
        register_family(replace(TWO_DEALS, games=(first, big, big)))
    with pytest.raises(ValueError, match="a game needs a ruleset and a label"):
        register_family(replace(TWO_DEALS, games=(first, replace(big, label=""))))
    taken = FamilyGame(get_family("usa-1910").game("usa-1910-mega").ruleset, "Mega")
    with pytest.raises(ValueError, match="the game 'usa-1910-mega' is already family "
                                         "'usa-1910'"):
        register_family(replace(TWO_DEALS, games=(first, taken)))
    assert "two-deals" not in VARIANTS and get_family("usa-1910-mega").id == "usa-1910"


def test_a_family_registered_again_keeps_its_place(registry):
    register_family(BIG_DEAL)
    again = replace(BIG_DEAL, label="USA, bigger deal")
    register_family(again)
    assert [f for f in families() if f.id == "big-deal"] == [again]
    register_family(replace(get_family("usa"), label="America"))
    assert families()[0].label == "America"


def test_a_variant_registered_alone_is_a_family_too(registry):
    register_variant(replace(USA, name="usa-alone"))
    alone = families()[-1]
    assert (alone.id, alone.label, alone.map_id) == ("usa-alone", "usa-alone", "usa")
    assert "usa-alone-2p" in {c.id for c in contract.sampled_configs()}


def test_a_family_whose_modules_are_missing_is_refused_by_name(registry):
    lost = Family(replace(USA, name="lost", modules=("compass",)), "Lost")
    with pytest.raises(ValueError, match="rule module 'compass', which the family does not "
                                         "list and nothing has registered"):
        register_family(lost)
    assert "lost" not in VARIANTS

    class Compass(RuleModule):
        name = "compass"

    register_family(replace(lost, modules=(Compass,)))
    assert new_game("lost", 2, seed=1).modules[0].name == "compass"


def test_a_family_cannot_take_another_modules_name(registry):
    class FakeStations(RuleModule):
        name = "stations"

    with pytest.raises(ValueError, match="another rule module is already registered as "
                                         "'stations'"):
        register_family(replace(BIG_DEAL, modules=(FakeStations,)))
    assert module_class("stations") is Stations
    register_module(FakeStations)   # the module registry itself still lets code replace one
    assert module_class("stations") is FakeStations


def test_a_family_needs_a_label_and_a_playable_ruleset(registry):
    with pytest.raises(ValueError, match="needs a label"):
        register_family(replace(BIG_DEAL, label=""))
    with pytest.raises(ValueError, match="bad player range"):
        register_family(replace(BIG_DEAL, ruleset=replace(BIG_DEAL.ruleset, max_players=9)))
    assert "big-deal" not in VARIANTS
