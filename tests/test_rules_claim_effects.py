"""``Game.claim_effects``: what a claim will do under each family's rules, said before it
happens (the route tooltip shows these lines; bots and hints may read them), and then
checked against what the claim really does."""

from __future__ import annotations

from tests.helpers import give_route, set_hand, set_module, started
from tests.test_rules_county_durham import FERRY, claim as durham_claim, coal, fresh, set_coal
from tests.test_rules_legacy import claim as legacy_claim, legacy_state
from tests.test_rules_marklin import started as marklin_started
from tests.test_rules_old_west import claim as west_claim, give_marker, with_homes
from ttr_desktop.rules.modules.legacy import EVENT_BY_ID
from ttr_desktop.rules.modules.old_west import PLACE_MARKER


# Old West and Alvin --------------------------------------------------------------------
def test_a_claim_into_alvins_city_says_he_is_captured_for_ten_and_where_he_goes():
    game = with_homes(["santa-fe", "boise"], alvin=True)
    effects = game.claim_effects("roswell-santa-fe")
    assert ("Captures Alvin in Roswell: +10 now, and +10 at the end if you still hold him. "
            "He then moves to Santa Fe.") in effects
    set_hand(game, 0, yellow=3)
    before = game.state.points[0]
    events = west_claim(game, "roswell-santa-fe", yellow=3)
    captured = next(e for e in events if e.kind == "alvin_captured")
    assert captured.data["points"] == 10
    assert next(e for e in events if e.kind == "alvin_moved").data["city"] == "santa-fe"
    assert game.state.points[0] > before + 10 - 1


def test_with_several_cities_the_preview_lists_every_place_alvin_may_go():
    game = with_homes(["santa-fe", "boise"], alvin=True)
    give_marker(game, 0, "albuquerque")
    line = next(e for e in game.claim_effects("roswell-santa-fe") if "Alvin" in e)
    assert line.endswith("He then moves to one of your cities: Santa Fe or Albuquerque.")


def test_a_city_the_claim_lets_you_mark_first_is_named_as_a_place_for_alvin():
    game = with_homes(["santa-fe", "boise"], alvin=True)
    give_route(game, 0, "roswell-santa-fe")
    line = next(e for e in game.claim_effects("las-cruces-roswell") if "Alvin" in e)
    assert "Las Cruces (if you mark it)" in line and "Santa Fe" in line


def test_alvins_holder_is_told_nothing_about_capturing_him_again():
    game = with_homes(["santa-fe", "boise"], alvin=True)
    set_module(game, "alvin", holder=0)
    assert not any("Alvin" in e for e in game.claim_effects("roswell-santa-fe"))
    assert any("Alvin" in e for e in game.claim_effects("roswell-santa-fe", seat=1))


def test_the_city_marker_the_claim_offers_is_named_with_the_markers_left():
    game = with_homes(["santa-fe", "boise"])
    assert game.claim_effects("albuquerque-santa-fe-1") == [
        "Then you may mark Albuquerque for a pair (2 markers left)."]


def test_the_marker_offer_counts_the_cards_the_claim_itself_uses():
    # The window offers a marker only while a pair is left after paying for the route.
    game = with_homes(["santa-fe", "boise"])
    set_hand(game, 0, green=1, blue=1)
    assert game.claim_effects("albuquerque-santa-fe-1") == [
        "No pair would be left to mark Albuquerque (2 markers left)."]
    set_hand(game, 0, green=1, locomotive=1, blue=1)     # paying the locomotive breaks it
    assert game.claim_effects("albuquerque-santa-fe-1") == [
        "Then you may mark Albuquerque if you pay so that a pair is left (2 markers left)."]
    set_hand(game, 0, green=1, blue=2)
    assert game.claim_effects("albuquerque-santa-fe-1") == [
        "Then you may mark Albuquerque for a pair (2 markers left)."]
    set_hand(game, 0, green=1, blue=1)
    events = west_claim(game, "albuquerque-santa-fe-1", green=1)
    assert game.phase != PLACE_MARKER and not any(e.kind == "city_marker" for e in events)


# County Durham -----------------------------------------------------------------------
def test_the_coal_a_claim_would_take_is_named_before_the_claim():
    game = fresh()
    set_coal(game, on=["consett"], held=[1, 0])
    assert game.claim_effects("consett-stanley") == [
        "Takes the coal at Consett (you would hold 2)."]
    set_hand(game, 0, red=3)
    durham_claim(game, "consett-stanley", red=3)
    assert coal(game).held[0] == 2


def test_with_coal_at_both_ends_the_preview_says_only_one_is_taken():
    game = fresh()
    set_coal(game, on=["consett", "stanley"], held=[0, 0])
    assert game.claim_effects("consett-stanley") == [
        "Take the coal at Consett or at Stanley (one token; you hold 0)."]


def test_no_coal_at_either_end_means_no_coal_line():
    game = fresh()
    set_coal(game, on=[], held=[0, 0])
    assert game.claim_effects("consett-stanley") == []


def test_a_ferry_says_that_pairs_of_coal_count_for_its_locomotive():
    game = fresh()
    set_coal(game, on=[], held=[2, 0])
    assert game.claim_effects(FERRY) == [
        "A pair of coal can pay the ferry's locomotive (you hold 2 coal)."]


# Märklin -----------------------------------------------------------------------------
def test_a_claim_offers_a_passenger_on_either_free_end():
    game = marklin_started()
    assert game.claim_effects("augsburg-nurnberg") == [
        "Then you may place a passenger on Augsburg or Nürnberg (3 left to place)."]
    set_module(game, "marklin", supply={0: 0})
    assert game.claim_effects("augsburg-nurnberg") == []


# Legacy ------------------------------------------------------------------------------
def _make_current(game, event_id):
    """Turn ``event_id`` up as the current event."""
    st = legacy_state(game)
    set_module(game, "legacy", deck=[e for e in st.deck if e != event_id],
               seen=st.seen + [event_id],
               event_paid={event_id: st.event_paid.get(event_id, [0] * game.num_players)})


def _company_route(game, seat):
    colour = legacy_state(game).companies[seat]
    return next(r for r, route in game.map.routes.items() if route.color == colour
                and not any(game.map.cities[c].large for c in (route.a, route.b)))


def test_a_company_route_names_its_bonus_and_the_event_that_doubles_it():
    game = started("legacy", 2, seed=4)
    rid = _company_route(game, 0)
    company = legacy_state(game).companies[0]
    assert game.claim_effects(rid) == [f"Company route ({company}): +$1."]
    _make_current(game, "right_of_way")
    title = EVENT_BY_ID["right_of_way"].title
    assert game.claim_effects(rid) == [
        f"Company route ({company}): +$2, doubled by \u201c{title}\u201d."]
    before = game.state.points[0]
    route = game.map.routes[rid]
    legacy_claim(game, rid, **{route.color: route.length})
    assert game.state.points[0] == before + 2


def test_a_large_city_end_says_a_card_is_drawn_and_an_event_says_what_it_costs():
    game = started("legacy", 2, seed=4)
    big = next(r for r, route in game.map.routes.items() if route.color == "red"
               and any(game.map.cities[c].large for c in (route.a, route.b))
               and route.color != legacy_state(game).companies[0])
    _make_current(game, "mama_fee")
    effects = game.claim_effects(big)
    title = EVENT_BY_ID["mama_fee"].title
    assert f"Event \u201c{title}\u201d: \u2212$2." in effects
    assert any(e.endswith(": you draw a train card from the deck.") and "large cit" in e
               for e in effects)
    route = game.map.routes[big]
    kinds = [e.kind for e in legacy_claim(game, big, red=route.length)]
    assert "event_claim" in kinds and "large_city_card" in kinds


# Tunnels, and routes that cannot be claimed ------------------------------------------------
def test_a_tunnel_says_what_its_reveal_may_cost():
    game = started("europe", 2)
    assert game.claim_effects("barcelona-pamplona") == [
        "Tunnel: 3 cards are turned up; each of the colour you pay with, and each "
        "locomotive, costs one more card (or give it up)."]


def test_a_claimed_or_closed_track_has_no_effects_to_announce():
    game = marklin_started()
    give_route(game, 1, "augsburg-munchen-1")
    assert game.claim_effects("augsburg-munchen-1") == []
    assert game.claim_effects("augsburg-munchen-2") == []      # closed at 2 players
    assert game.claim_effects("no-such-route") == []
