"""architecture.md "Engine contract": the public API that code outside the engine relies on."""

import dataclasses
import inspect
import random
import re
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

from tests.contract import sampled_configs
from tests.helpers import refresh, set_hand, skip_setup, started, ticket_ids
import ttr_desktop.rules as rules
from ttr_desktop.rules import (
    BuildStation, ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, IllegalAction, KeepTickets,
    PlayerView, action_from_dict, games, new_game,
)
from ttr_desktop.rules.state import Phase

RULES_DIR = Path(rules.__file__).parent
CONTRACT_KINDS = {"keep_tickets", "draw_blind", "draw_face_up", "claim_route", "draw_tickets",
                  "build_station", "move_passenger", "choose_home_city", "place_city_marker",
                  "pass", "pay_tunnel", "decline_tunnel", "decline"}
CARD_NAMES = {"red", "blue", "green", "yellow", "black", "white", "orange", "pink", "locomotive"}
VIEW_FIELDS = ["seat", "phase", "current_seat", "hand", "tickets", "pending_tickets", "face_up",
               "deck_size", "discard_size", "ticket_deck_size", "route_owners", "trains_left",
               "hand_sizes", "ticket_counts", "points"]
#: Every registered rule family, each option set at its fewest and most players.
CONFIGS = sampled_configs()
IDS = [c.id for c in CONFIGS]


def play(game, rng, steps):
    """Apply ``steps`` random legal actions (fewer if the game ends); return the actions."""
    done = []
    for _ in range(steps):
        if game.is_over:
            break
        action = rng.choice(game.legal_actions())
        game.apply(action)
        done.append(action)
    return done


def snapshot(game):
    return game.state.to_dict(), list(game.log)


def view_fields(view):
    """Every public field of a PlayerView, by name (properties included)."""
    out = {}
    for name in dir(view):
        if name.startswith("_"):
            continue
        value = getattr(view, name)
        if not callable(value):
            out[name] = value
    return out


# The surface ---------------------------------------------------------------
def test_new_game_and_illegal_action_are_the_package_entry_points():
    params = inspect.signature(new_game).parameters
    assert list(params)[:4] == ["variant", "players", "seed", "options"]
    assert issubclass(IllegalAction, ValueError)


def test_a_game_has_the_contract_members():
    game = new_game(variant="usa", players=["Ann", "Bot 1"], seed=7, options={"stations": True})
    assert isinstance(game.current_seat, int)
    actions = game.legal_actions()
    assert isinstance(actions, list) and actions
    events = game.apply(actions[0])
    assert isinstance(events, list)
    assert isinstance(game.is_over, bool) and not game.is_over
    scores = game.scores()
    assert len(scores) == 2
    for score in scores:
        assert isinstance(score.total, int)
        assert isinstance(score.parts, dict)
        assert score.total == sum(score.parts.values())
        assert {"routes", "tickets", "longest_path"} <= set(score.parts)
    assert isinstance(game.view(0), PlayerView)
    assert game.clone() is not game


def test_players_may_be_names_or_a_count():
    assert new_game("usa", ["Ann", "Bob", "Cy"], seed=1).num_players == 3
    assert new_game("usa", 4, seed=1).num_players == 4


def test_the_map_has_cities_routes_and_tickets():
    game = new_game("usa", 2, seed=1)
    assert isinstance(game.map.cities, Mapping)
    for cid, city in game.map.cities.items():
        assert isinstance(city.name, str) and city.name
    assert isinstance(game.map.routes, Mapping)
    for rid, route in game.map.routes.items():
        assert route.id == rid
        assert route.a in game.map.cities and route.b in game.map.cities
        assert isinstance(route.length, int) and route.length >= 1
        assert route.color in CARD_NAMES - {"locomotive"} | {"gray"}
    assert isinstance(game.map.tickets, list)
    for ticket in game.map.tickets:
        assert ticket.a in game.map.cities and ticket.b in game.map.cities
        assert isinstance(ticket.points, int)


@pytest.mark.parametrize("family", games(), ids=lambda f: f.id)
def test_variant_ids(family):
    game = new_game(family.id, family.player_counts[0], seed=1)
    assert game.variant == family.id and game.map.id == family.map_id


def test_an_unknown_variant_or_option_is_a_value_error():
    with pytest.raises(ValueError):
        new_game("atlantis", 2, seed=1)
    with pytest.raises(ValueError):
        new_game("usa", 2, seed=1, options={"no_such_rule": True})


def test_options_switch_optional_rules():
    plain = new_game("usa", 2, seed=1)
    with_stations = new_game("usa", 2, seed=1, options={"stations": True})
    skip_setup(plain)
    skip_setup(with_stations)
    assert not any(a.kind == "build_station" for a in plain.legal_actions())
    assert any(a.kind == "build_station" for a in with_stations.legal_actions())


def test_card_names_are_lowercase_strings():
    game = new_game("usa", 2, seed=1)
    assert set(game.board.card_names) == CARD_NAMES
    assert set(game.view(0).hand) <= CARD_NAMES


@pytest.mark.parametrize("variant,players,options", CONFIGS, ids=IDS)
def test_actions_are_frozen_dataclasses_with_a_kind_and_a_description(variant, players, options):
    game = new_game(variant, players, seed=3, options=options)
    rng = random.Random(3)
    seen = set()
    kinds = CONTRACT_KINDS | {kind for module in game.modules for kind in module.action_kinds}
    while not game.is_over:
        actions = game.legal_actions()
        for action in actions[:40]:
            assert dataclasses.is_dataclass(action)
            assert action.__dataclass_params__.frozen
            assert action.kind in kinds
            assert action_from_dict(action.to_dict()) == action   # saves can write it
            assert isinstance(action.describe(), str) and action.describe()
            for f in dataclasses.fields(action):
                with pytest.raises((dataclasses.FrozenInstanceError, AttributeError, TypeError)):
                    setattr(action, f.name, getattr(action, f.name))
            seen.add(action.kind)
            hash(action)
        game.apply(rng.choice(actions))
    assert {"keep_tickets", "draw_blind", "draw_face_up", "claim_route", "draw_tickets"} <= seen


def test_the_player_view_has_the_contract_fields():
    game = new_game("usa", 3, seed=2)
    view = game.view(1)
    assert set(VIEW_FIELDS) <= set(view_fields(view))
    assert view.seat == 1
    assert isinstance(view.phase, str) and view.phase == game.phase
    assert view.current_seat == game.current_seat
    assert all(isinstance(k, str) and isinstance(v, int) for k, v in view.hand.items())
    assert all(c is None or c in CARD_NAMES for c in view.face_up)
    assert len(view.trains_left) == len(view.hand_sizes) == len(view.ticket_counts) == 3
    assert len(view.points) == 3


def test_legal_actions_come_in_a_deterministic_order():
    a = started("usa", 3, seed=4)
    b = started("usa", 3, seed=4)
    assert a.legal_actions() == a.legal_actions() == b.legal_actions()
    assert a.clone().legal_actions() == a.legal_actions()


def test_changing_the_returned_list_does_not_change_the_game():
    game = started("usa", 2, seed=4)
    actions = game.legal_actions()
    actions.clear()
    assert game.legal_actions()


# Illegal actions ------------------------------------------------------------
def _illegal_actions(game):
    yield ClaimRoute("chicago-duluth", (("red", 3),))             # not enough cards
    yield ClaimRoute("chicago-duluth", (("blue", 3),))            # wrong colour
    yield ClaimRoute("no-such-route", (("red", 1),))
    yield ClaimRoute("calgary-helena", (("blue", 2), ("red", 2)))  # mixed colours
    yield DrawFaceUp(0, "purple")
    yield DrawFaceUp(9, "red")
    yield KeepTickets(("boston-miami",), ())
    yield BuildStation("denver", (("red", 1),))                   # no stations in this game
    yield "draw a card"                                            # not an action at all


@pytest.mark.parametrize("index", range(9))
def test_an_illegal_action_raises_and_changes_nothing(index):
    game = started("usa", 2, seed=5)
    set_hand(game, 0, red=1, blue=2)
    action = list(_illegal_actions(game))[index]
    before = snapshot(game)
    with pytest.raises(IllegalAction) as err:
        game.apply(action)
    assert snapshot(game) == before
    message = str(err.value)
    assert re.fullmatch(r"[A-Z\"'].*[.!]", message), message
    assert "Action(" not in message and "None" not in message and "Route(" not in message


def test_an_action_from_an_earlier_position_is_illegal_now():
    game = started("usa", 2, seed=5)
    draw_tickets = DrawTickets()
    game.apply(draw_tickets)
    before = snapshot(game)
    with pytest.raises(IllegalAction, match="tickets"):
        game.apply(draw_tickets)
    assert snapshot(game) == before


def test_an_unaffordable_claim_names_the_route_and_the_missing_cards():
    game = started("usa", 2, seed=5)
    set_hand(game, 0, red=1)
    with pytest.raises(IllegalAction) as err:
        game.apply(ClaimRoute("chicago-duluth", (("red", 3),)))
    message = str(err.value)
    assert "Chicago" in message and "Duluth" in message
    assert "red" in message


def test_a_payment_listed_in_another_order_is_the_same_payment():
    game = started("usa", 2, seed=5)
    set_hand(game, 0, red=2, locomotive=1)
    game.apply(ClaimRoute("chicago-duluth", (("red", 2), ("locomotive", 1))))
    assert game.state.owner[game.board.route_index["chicago-duluth"]] == 0


def test_a_payment_split_into_several_entries_is_the_same_payment():
    game = started("usa", 2, seed=5)
    set_hand(game, 0, red=3)
    game.apply(ClaimRoute("chicago-duluth", (("red", 1), ("red", 2))))
    assert game.state.owner[game.board.route_index["chicago-duluth"]] == 0


def test_why_a_route_cannot_be_claimed_is_explained_in_words():
    game = started("usa", 2, seed=5)
    set_hand(game, 0, red=1)
    message = game.claim_problem("chicago-duluth")
    assert "Chicago" in message and "Duluth" in message
    assert "3 red" in message and "1 red" in message


# Views -------------------------------------------------------------------------
def test_a_view_shows_the_own_hand_and_tickets_and_only_counts_for_others():
    game = started("usa", 3, seed=6)
    s, b = game.state, game.board
    for seat in range(3):
        view = game.view(seat)
        assert view.hand == {b.card_names[i]: n for i, n in enumerate(s.hands[seat])}
        assert [t.id for t in view.tickets] == ticket_ids(game, s.tickets[seat])
        assert view.hand_sizes == tuple(sum(h) for h in s.hands)
        assert view.ticket_counts == tuple(len(t) for t in s.tickets)
        assert view.deck_size == len(s.deck)
        assert view.ticket_deck_size == len(s.ticket_decks["regular"])


def _leaves(value, depth=0):
    """Every str/int leaf inside a view field (tickets and routes by id)."""
    if depth > 6:
        return
    if isinstance(value, (str, int)) or value is None:
        yield value
    elif isinstance(value, Mapping):
        for k, v in value.items():
            yield from _leaves(k, depth + 1)
            yield from _leaves(v, depth + 1)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            yield from _leaves(v, depth + 1)
    elif hasattr(value, "id"):
        yield value.id
    else:
        yield repr(value)


@pytest.mark.parametrize("variant,players,options", CONFIGS, ids=IDS)
def test_no_view_field_holds_another_seats_tickets(variant, players, options):
    game = new_game(variant, players, seed=10, options=options)
    rng = random.Random(10)
    while not game.is_over:
        s = game.state
        for seat in range(players):
            secret = {game.board.ticket_ids[t] for o in range(players) if o != seat
                      for t in s.tickets[o] + s.pending[o]}
            fields = view_fields(game.view(seat))
            del fields["map"]                      # the printed board lists every ticket
            for name, value in fields.items():
                assert not secret & set(_leaves(value)), f"view field {name!r} leaks a ticket"
        play(game, rng, 7)


def _hide_differently(game, seat, rng):
    """A copy of ``game`` that differs only in what ``seat`` cannot know."""
    other = game.clone()
    s = other.state
    # The deck order and the ticket decks' order.
    rng.shuffle(s.deck)
    for deck in s.ticket_decks.values():
        rng.shuffle(deck)
    # Every other seat's hand (same size), kept tickets and pending tickets (same counts).
    for o in range(other.num_players):
        if o == seat:
            continue
        size = sum(s.hands[o])
        s.deck.extend(c for c, n in enumerate(s.hands[o]) for _ in range(n))
        rng.shuffle(s.deck)
        s.hands[o] = [0] * len(s.hands[o])
        for _ in range(size):
            s.hands[o][s.deck.pop()] += 1
        for held in (s.tickets[o], s.pending[o]):
            for name, pool in s.ticket_decks.items():
                same_deck = [t for t in held if other.board.t_deck[t] == name]
                if same_deck and len(pool) >= len(same_deck):
                    pool.extend(same_deck)
                    rng.shuffle(pool)
                    for t in same_deck:
                        held.remove(t)
                    held.extend(pool.pop() for _ in same_deck)
    refresh(other)
    return other


@pytest.mark.parametrize("variant,players,options", CONFIGS, ids=IDS)
def test_a_view_is_the_same_whatever_the_hidden_cards_are(variant, players, options):
    game = new_game(variant, players, seed=8, options=options)
    rng = random.Random(8)
    checked = differed = 0
    while not game.is_over and checked < 60:
        for seat in range(players):
            twin = _hide_differently(game, seat, random.Random(checked))
            # (Late in a crowded game nothing may be hidden from a seat any more.)
            differed += twin.state.to_dict() != game.state.to_dict()
            assert view_fields(twin.view(seat)) == view_fields(game.view(seat))
        checked += 1
        play(game, rng, 5)
    assert differed >= checked


def test_other_seats_see_blind_draws_and_ticket_draws_without_their_content():
    game = started("usa", 2, seed=9)
    events = game.apply(DrawBlind())
    drawn = next(e for e in events if e.kind == "card_drawn")
    assert "card" in drawn.visible_to(0).data
    assert "card" not in drawn.visible_to(1).data
    game.apply(DrawBlind())
    events = game.apply(DrawTickets())
    drawn = next(e for e in events if e.kind == "tickets_drawn")
    assert "tickets" in drawn.visible_to(1).data
    assert "tickets" not in drawn.visible_to(0).data and drawn.visible_to(0).data["count"] == 3
    events = game.apply(game.legal_actions()[0])
    for event in events:
        seen = event.visible_to(0)
        if seen is not None:
            assert not set(_leaves(seen.data)) & set(game.board.ticket_ids)


@pytest.mark.parametrize("variant,players,options", CONFIGS, ids=IDS)
def test_events_never_show_other_seats_tickets_or_blind_cards(variant, players, options):
    game = new_game(variant, players, seed=15, options=options)
    rng = random.Random(15)
    all_tickets = set(game.board.ticket_ids)
    while not game.is_over:
        for event in game.apply(rng.choice(game.legal_actions())):
            for seat in range(players):
                if seat == event.seat:
                    continue
                seen = event.visible_to(seat)
                if seen is None:
                    continue
                assert not set(_leaves(seen.data)) & all_tickets, seen
                if seen.kind == "card_drawn" and seen.data.get("source") == "deck":
                    assert "card" not in seen.data


# Determinism, copies and purity -------------------------------------------------
@pytest.mark.parametrize("variant,players,options", CONFIGS, ids=IDS)
def test_the_same_seed_and_the_same_actions_give_the_same_game(variant, players, options):
    first = new_game(variant, players, seed=11, options=options)
    actions = play(first, random.Random(1), 10_000)
    second = new_game(variant, players, seed=11, options=options)
    assert second.state.to_dict() == new_game(variant, players, seed=11,
                                              options=options).state.to_dict()
    for action in actions:
        second.apply(action)
    assert second.state.to_dict() == first.state.to_dict()
    assert [s.total for s in second.scores()] == [s.total for s in first.scores()]


def test_different_seeds_give_different_deals():
    assert new_game("usa", 2, seed=1).state.to_dict() != new_game("usa", 2, seed=2).state.to_dict()


@pytest.mark.parametrize("variant,players,options", CONFIGS, ids=IDS)
def test_a_clone_is_independent_and_plays_on_identically(variant, players, options):
    game = new_game(variant, players, seed=12, options=options)
    play(game, random.Random(2), 40)
    copy = game.clone()
    before = snapshot(game)
    play(copy, random.Random(3), 200)
    assert snapshot(game) == before
    twin = game.clone()
    rng_a, rng_b = random.Random(4), random.Random(4)
    while not game.is_over:
        a = rng_a.choice(game.legal_actions())
        b = rng_b.choice(twin.legal_actions())
        assert a == b
        game.apply(a)
        twin.apply(b)
        assert twin.state.to_dict() == game.state.to_dict()


@pytest.mark.parametrize("variant,players,options", CONFIGS, ids=IDS)
def test_the_claimed_cards_record_is_replaced_exactly_when_a_route_changes_hands(
        variant, players, options):
    # Search tells by the record's identity whether any route changed hands since it
    # last looked (a rollout's plan is checked again only then).
    game = new_game(variant, players, seed=7, options=options)
    rng = random.Random(5)
    while not game.is_over:
        paid, owner = game.state.route_paid, game.state.owner[:]
        game.apply(rng.choice(game.legal_actions()))
        assert (game.state.route_paid is paid) == (game.state.owner == owner)


def test_the_engine_does_not_import_pygame():
    code = ("import sys, ttr_desktop.rules, ttr_desktop.maps, ttr_desktop.bots, "
            "ttr_desktop.persistence; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pygame', 'pygame_gui')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("variant,players,options", CONFIGS, ids=IDS)
def test_the_engine_does_not_use_the_global_random(variant, players, options):
    results = []
    for global_seed in (1, 99):
        random.seed(global_seed)
        state = random.getstate()
        game = new_game(variant, players, seed=13, options=options)
        play(game, random.Random(5), 10_000)
        assert random.getstate() == state, "the engine drew from the global random"
        results.append(game.state.to_dict())
    assert results[0] == results[1]


def test_the_engine_does_no_file_io():
    pattern = re.compile(r"(?<![\w.])(?<!def )open\(|\bPath\b|read_text|write_text|read_bytes|write_bytes|"
                         r"\bpathlib\b|\bshutil\b")
    offenders = []
    for path in sorted(RULES_DIR.rglob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if pattern.search(line.split("#")[0]):
                offenders.append(f"{path.name}:{number}: {line.strip()}")
    assert offenders == []


def test_is_over_is_a_value_and_the_phase_says_so():
    game = started("usa", 2, seed=14)
    play(game, random.Random(6), 10_000)
    assert game.is_over and game.phase == Phase.GAME_OVER
    assert game.legal_actions() == []
