"""The opened core: the one payment enumerator, the route graph with country sinks,
determinization, what a view can reach, and which events reveal hidden information."""

from __future__ import annotations

import gc
import random
import types
from collections import Counter

import pytest

from tests.contract import sampled_configs
from tests.helpers import face_up, play_random, set_face_up, set_hand, set_trains, started
from ttr_desktop.maps import load_map
from ttr_desktop.rules import determinize, new_game
from ttr_desktop.rules.graph import components, graph_for, longest_trail, reachable
from ttr_desktop.rules.payment import (
    ANY_COLOUR, WILDS_ONLY, PaySpec, Wild, cards_of, payments, player_order, words,
)
from ttr_desktop.rules.view import PlayerView

# ----------------------------------------------------------------------
# The payment enumerator (rules.md §1.5, §2.3, §5.3)

NAMES = ("red", "blue", "locomotive", "locomotive_plus4", "coal")
SIMPLE = PaySpec(NAMES[:3], (0, 1), (Wild(2),))
MARKLIN = PaySpec(NAMES[:4], (0, 1), (Wild(2), Wild(3, 1, 4)))
DURHAM = PaySpec(NAMES[:3] + ("coal",), (0, 1), (Wild(2), Wild(3, 2, 1)))


def hand(spec, **counts):
    return [counts.get(n, 0) for n in spec.names]


def as_text(spec, vecs):
    return [words(cards_of(spec, v)) for v in vecs]


def test_a_coloured_route_takes_its_colour_plus_locomotives():
    pays = payments(SIMPLE, 3, 0, hand(SIMPLE, red=2, blue=5, locomotive=2))
    assert as_text(SIMPLE, pays) == ["1 red + 2 locomotives", "2 red + 1 locomotive"]


def test_a_gray_route_takes_any_one_colour_and_all_locomotives_last():
    pays = payments(SIMPLE, 2, ANY_COLOUR, hand(SIMPLE, red=1, blue=2, locomotive=2))
    assert as_text(SIMPLE, pays) == ["1 red + 1 locomotive", "1 blue + 1 locomotive",
                                     "2 blue", "2 locomotives"]


def test_payments_are_never_near_duplicates():
    for spec, h in ((MARKLIN, hand(MARKLIN, red=3, blue=3, locomotive=3, locomotive_plus4=3)),
                    (DURHAM, hand(DURHAM, red=3, locomotive=2, coal=5))):
        for length in range(1, 7):
            pays = payments(spec, length, ANY_COLOUR, h)
            assert len(pays) == len(set(pays))


def test_plus4_locomotives_pay_only_routes_of_4_or_more():
    h = hand(MARKLIN, red=1, locomotive_plus4=4)
    assert payments(MARKLIN, 3, 0, h) == []
    assert as_text(MARKLIN, payments(MARKLIN, 4, 0, h)) == [
        "1 red + 3 +4 locomotives", "4 +4 locomotives"]


def test_plain_and_plus4_locomotives_mix_on_a_long_route():
    pays = payments(MARKLIN, 4, WILDS_ONLY, hand(MARKLIN, locomotive=2, locomotive_plus4=2))
    assert as_text(MARKLIN, pays) == ["2 locomotives + 2 +4 locomotives"]


def test_two_coal_count_as_one_wild_and_a_single_coal_is_never_spent():
    pays = payments(DURHAM, 3, 0, hand(DURHAM, red=1, coal=5))
    assert as_text(DURHAM, pays) == ["1 red + 4 coal"]
    assert all(v[3] % 2 == 0 for v in payments(DURHAM, 2, 0, hand(DURHAM, red=2, coal=3)))


def test_pairs_of_coal_can_be_a_ferrys_locomotive():
    pays = payments(DURHAM, 2, ANY_COLOUR, hand(DURHAM, blue=3, coal=2), min_wilds=1)
    assert as_text(DURHAM, pays) == ["1 blue + 2 coal"]


def test_payment_options_come_fewest_wilds_first_then_the_colour_held_most():
    h = hand(SIMPLE, red=2, blue=3, locomotive=1)
    pays = payments(SIMPLE, 3, ANY_COLOUR, h)
    ordered = [pays[i] for i in player_order(SIMPLE, pays, h)]
    assert as_text(SIMPLE, ordered)[:3] == ["3 blue", "2 blue + 1 locomotive",
                                            "2 red + 1 locomotive"]


def test_the_game_offers_claims_in_player_order():
    game = started("usa", 2, seed=3)
    set_hand(game, 0, green=2, black=3, locomotive=1)
    pays = game.payments_for("denver-omaha-1" if "denver-omaha-1" in game.map.routes else
                             next(r.id for r in game.map.routes.values()
                                  if r.color == "gray" and r.length == 3))
    assert pays and pays[0].cards == (("black", 3),)


# ----------------------------------------------------------------------
# The route graph: countries are dead ends (rules.md §2.4)

SINK_MAP = """
format = 2
id = "sinks"
name = "Sinks"
width = 500
height = 300

[[countries]]
id = "land"
name = "Land"

[[cities]]
id = "a"
name = "A"
lat = 1.0
lon = 1.0
x = 10.0
y = 10.0

[[cities]]
id = "b"
name = "B"
lat = 1.0
lon = 2.0
x = 200.0
y = 10.0

[[cities]]
id = "land-1"
name = "Land"
lat = 2.0
lon = 1.0
x = 100.0
y = 100.0
kind = "country"
country = "land"

[[cities]]
id = "land-2"
name = "Land"
lat = 2.0
lon = 2.0
x = 300.0
y = 100.0
kind = "country"
country = "land"

[[routes]]
id = "a-land"
a = "a"
b = "land-1"
length = 1
color = "gray"

[[routes]]
id = "land-b"
a = "land-1"
b = "b"
length = 1
color = "gray"

[[routes]]
id = "b-land2"
a = "b"
b = "land-2"
length = 2
color = "gray"

# The loader refuses a ticket that no chain of routes can complete: a long way round
# joins a and b without passing through the country.
[[routes]]
id = "a-b-long"
a = "a"
b = "b"
length = 6
color = "gray"

[[tickets]]
id = "a-b"
a = "a"
b = "b"
points = 3

[[tickets]]
id = "a-land"
a = "a"
b = "land"
points = 3
"""


@pytest.fixture
def sink_graph(tmp_path):
    path = tmp_path / "sinks.toml"
    path.write_text(SINK_MAP)
    return graph_for(load_map(path))


def test_a_country_never_joins_two_cities(sink_graph):
    g = sink_graph
    comp = components(g, [0, 1])
    assert not comp.joined(g, "a", "b")
    assert comp.joined(g, "a", "land") and comp.joined(g, "b", "land")


def test_a_ticket_to_a_country_is_done_through_any_of_its_end_points(sink_graph):
    g = sink_graph
    assert components(g, [2]).joined(g, "b", "land")
    assert not components(g, [2]).joined(g, "a", "land")


def test_reachability_stops_at_a_country(sink_graph):
    g = sink_graph
    owner = (0, 0, 0, -1)
    reach = reachable(g, owner, 0, g.city_index["a"])
    assert g.city_index["land-1"] in reach and g.city_index["b"] not in reach


def test_the_longest_trail_may_end_in_a_country_but_never_pass_through(sink_graph):
    g = sink_graph
    length, routes = longest_trail(g, [0, 1, 2])
    assert length == 3 and set(routes) == {1, 2}


# ----------------------------------------------------------------------
# Determinization and views


@pytest.mark.parametrize("variant,players,options", sampled_configs(),
                         ids=[c.id for c in sampled_configs()])
def test_a_determinized_game_shows_the_seat_exactly_its_own_view(variant, players, options):
    rng = random.Random(7)
    game = new_game(variant, players, seed=11, options=options)
    for step in range(240):
        if game.is_over:
            break
        if step % 12 == 0:
            for seat in range(players):
                view = game.view(seat)
                clone = determinize(view, random.Random(step))
                again = clone.view(seat)
                mine, theirs = view.as_dict(), again.as_dict()
                for key in mine:
                    assert mine[key] == theirs[key], key
                assert clone.total_cards() == game.total_cards()
                assert Counter(map(len, clone.state.hands)) == Counter(map(len, game.state.hands))
                assert clone.legal_actions() is not None
        game.apply(rng.choice(game.legal_actions()))


def test_a_determinized_game_plays_on_to_the_end():
    game = started("europe", 3, seed=4)
    play_random(game, random.Random(1), 60)
    clone = determinize(game.view(0), random.Random(3))
    play_random(clone, random.Random(2))
    assert clone.is_over


def test_determinization_resamples_what_the_seat_cannot_see():
    game = started("usa", 3, seed=9)
    view = game.view(0)
    a = determinize(view, random.Random(1))
    b = determinize(view, random.Random(2))
    assert a.state.hands[0] == b.state.hands[0] == game.state.hands[0]
    assert (a.state.deck, a.state.hands[1]) != (b.state.deck, b.state.hands[1])


def test_other_seats_tickets_follow_the_bots_weight_and_the_decks_keep_their_sizes():
    # A bot's guess of another seat's tickets must decide what that seat holds: the
    # ticket decks (most unseen tickets) are filled from what the seats do not hold.
    game = started("usa", 2, seed=5)
    view = game.view(0)
    favourite = next(t.id for t in game.map.tickets
                     if t.id not in {x.id for x in view.tickets})

    def weight(seat, ticket):
        return 1.0 if ticket.id == favourite else 0.0

    for k in range(12):
        clone = determinize(view, random.Random(k), weight)
        held = [clone.map.tickets[t].id for t in clone.state.tickets[1]]
        assert favourite in held
        assert len(held) == view.ticket_counts[1]
        for deck, size in view.ticket_deck_sizes.items():
            assert len(clone.state.ticket_decks[deck]) == size
        every = (clone.state.tickets[0] + clone.state.tickets[1] + clone.state.boxed_tickets
                 + [t for pile in clone.state.ticket_decks.values() for t in pile])
        assert sorted(every) == list(range(len(clone.map.tickets)))


def _reachable_objects(root):
    seen, stack, out = set(), [root], []
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, (types.ModuleType, type)):
            continue
        seen.add(id(obj))
        out.append(obj)
        stack.extend(gc.get_referents(obj))
    return out


def test_nothing_hidden_is_reachable_from_a_view():
    from ttr_desktop.rules.board import Board
    from ttr_desktop.rules.game import Game
    from ttr_desktop.rules.state import GameState

    game = started("europe", 3, seed=2, stations=True)
    play_random(game, random.Random(5), 40)
    view = game.view(0)
    view.route_owners, view.completed_tickets, view.discard_pile  # build the lazy parts
    for obj in _reachable_objects(view):
        assert not isinstance(obj, (Game, GameState, Board)), type(obj)
        assert obj is not game.state.deck and obj is not game.state.hands[1]
        assert obj is not game.state.tickets[1] and obj is not game.state.pending[1]


def test_changing_a_view_changes_nothing_in_the_game():
    game = started("usa", 2, seed=2)
    before = game.state.to_dict()
    view = game.view(0)
    view.hand["red"] = 99
    view.extra["x"] = 1
    for _, _, data in view.pipeline:
        data.clear()
    assert game.state.to_dict() == before


def test_the_view_carries_the_public_record():
    game = started("usa", 2, seed=5)
    set_face_up(game, ["red", *face_up(game)[1:]])
    game.apply(next(a for a in game.legal_actions()
                    if a.kind == "draw_face_up" and a.slot == 0))
    assert game.view(1).known_cards[0].get("red", 0) >= 1
    game.apply(next(a for a in game.legal_actions() if a.kind == "draw_blind"))
    draw = next(a for a in game.legal_actions() if a.kind == "draw_tickets")
    game.apply(draw)
    assert game.view(0).ticket_draws[-1] == (1, 3, -1)
    game.apply(game.legal_actions()[0])
    assert game.view(0).ticket_draws[-1][2] >= 1
    assert isinstance(game.view(0), PlayerView)


# ----------------------------------------------------------------------
# Events that reveal hidden information


def test_blind_draws_and_ticket_draws_reveal_and_claims_do_not():
    game = started("usa", 2, seed=8)
    events = game.apply(next(a for a in game.legal_actions() if a.kind == "draw_blind"))
    assert any(e.reveals for e in events if e.kind == "card_drawn")
    game.apply(next(a for a in game.legal_actions() if a.kind == "draw_blind"))
    set_hand(game, 1, locomotive=6)
    events = game.apply(next(a for a in game.legal_actions() if a.kind == "claim_route"))
    assert not any(e.reveals for e in events if e.kind == "route_claimed")
    events = game.apply(next(a for a in game.legal_actions() if a.kind == "draw_tickets"))
    assert any(e.reveals for e in events)


# ----------------------------------------------------------------------
# The quick legality check agrees with the list of legal actions


def _near_misses(game):
    """Actions that look legal but mostly are not: every route with a few payments, every
    face-up slot with every card, draws and keeps."""
    from ttr_desktop.rules import ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets
    b = game.board
    names = b.card_names
    out = [DrawBlind(), DrawTickets(), KeepTickets(("x",), ())]
    for slot in range(len(game.state.face_up)):
        out.extend(DrawFaceUp(slot, n) for n in names)
    for rid, route in game.map.routes.items():
        colour = route.color if route.color != "gray" else "red"
        out.append(ClaimRoute(rid, ((colour, route.length),)))
        out.append(ClaimRoute(rid, (("locomotive", route.length),)))
        out.append(ClaimRoute(rid, ((colour, route.length - 1), ("locomotive", 1))))
    return out


@pytest.mark.parametrize("variant,players,options", [
    ("usa", 2, None), ("usa", 3, {"stations": True}), ("europe", 4, None)])
def test_the_quick_legality_check_matches_the_legal_list(variant, players, options):
    rng = random.Random(11)
    game = new_game(variant, players, seed=5, options=options)
    for step in range(400):
        if game.is_over:
            break
        legal = game.legal_actions()
        if step % 5 == 0:
            for action in legal:
                assert game.is_legal(action), action
            for action in _near_misses(game):
                assert game.is_legal(action) == (action in legal), action
        game.apply(rng.choice(legal))


def test_a_quiet_game_plays_the_same_moves_and_scores():
    loud = new_game("europe", 3, seed=21)
    quiet = new_game("europe", 3, seed=21).quiet()
    rng_a, rng_b = random.Random(4), random.Random(4)
    while not loud.is_over:
        a = rng_a.choice(loud.legal_actions())
        b = rng_b.choice(quiet.legal_actions())
        assert a == b
        loud.apply(a)
        assert quiet.apply(b, check=False) == []
    assert quiet.is_over
    assert [s.total for s in loud.scores()] == [s.total for s in quiet.scores()]
    assert loud.state.to_dict() == quiet.state.to_dict()


def test_canonical_listing_offers_each_claimable_route_once_with_the_first_payment():
    from ttr_desktop.rules import new_game

    for variant, players in (("usa", 3), ("usa", 4), ("europe", 3), ("marklin", 2),
                             ("county-durham", 2)):
        game = new_game(variant, players, seed=6)
        rng = random.Random(2)
        for _ in range(120):
            if game.is_over:
                break
            full = game.legal_actions()
            canonical = game.legal_actions(canonical=True)
            claimable = sorted({a.route_id for a in full if a.kind == "claim_route"})
            offered = [a.route_id for a in canonical if a.kind == "claim_route"]
            assert sorted(offered) == claimable and len(offered) == len(set(offered))
            for a in canonical:
                assert a in full
                if a.kind == "claim_route":
                    assert game.payments_for(a.route_id)[0] == a
            assert [a for a in full if a.kind != "claim_route"] == \
                [a for a in canonical if a.kind != "claim_route"]
            game.apply(full[rng.randrange(len(full))])


def test_the_canonical_listing_offers_no_route_longer_than_the_trains_left():
    for variant in ("usa", "europe"):
        game = started(variant, 2, seed=3)
        set_hand(game, 0, red=6, blue=6, green=4, locomotive=2)
        for trains in range(0, 8):
            set_trains(game, 0, trains)
            full = {a.route_id for a in game.legal_actions() if a.kind == "claim_route"}
            listed = [a for a in game.legal_actions(canonical=True) if a.kind == "claim_route"]
            assert sorted(a.route_id for a in listed) == sorted(full), (variant, trains)
            assert all(game.map.routes[a.route_id].length <= trains for a in listed)
            assert bool(listed) == (trains > 0), (variant, trains)


def test_the_canonical_claim_of_a_ferry_pays_its_locomotives_whatever_colours_are_held():
    game = started("europe", 2, seed=3)
    set_hand(game, 0, black=2, locomotive=2)          # Amsterdam–London: 2 spaces, 2 ferries
    listed = {a.route_id: a for a in game.legal_actions(canonical=True)
              if a.kind == "claim_route"}
    assert listed["amsterdam-london"].cards == (("locomotive", 2),)
    assert listed["amsterdam-london"] == game.payments_for("amsterdam-london")[0]
    set_hand(game, 0, black=2, locomotive=1)
    assert "amsterdam-london" not in {a.route_id for a in game.legal_actions(canonical=True)
                                      if a.kind == "claim_route"}


def test_a_view_survives_pickling_for_a_bot_in_another_process():
    import pickle
    from types import MappingProxyType

    game = started("europe", 3, seed=2, stations=True)
    play_random(game, random.Random(5), 40)
    view = game.view(1)
    copy = pickle.loads(pickle.dumps(view))
    for name in ("hand", "tickets", "owner_list", "route_owners", "completed_tickets",
                 "discard_pile", "score_log", "city_tokens", "pipeline", "trains_left"):
        assert getattr(copy, name) == getattr(view, name), name
    assert isinstance(copy.options, MappingProxyType) and copy.options == view.options
    assert copy.graph.n_routes == view.graph.n_routes


def test_the_canonical_claim_of_one_route_is_the_one_the_canonical_list_offers():
    from ttr_desktop.rules import new_game

    for variant, players, opts in (("usa", 3, {"stations": True}), ("europe", 4, None),
                                   ("old-west", 3, None), ("legacy", 2, None),
                                   ("marklin", 2, None), ("county-durham", 3, None)):
        game = new_game(variant, players, seed=8, options=opts)
        rng = random.Random(4)
        for _ in range(150):
            if game.is_over:
                break
            listed = {a.route_id: a for a in game.legal_actions(canonical=True)
                      if a.kind == "claim_route"}
            for rid in game.board.route_index:
                assert game.canonical_claim(rid) == listed.get(rid), (variant, rid)
            draws = [a for a in game.legal_actions()
                     if a.kind in ("draw_blind", "draw_face_up")]
            assert game.draw_choices() == draws
            core = {"draw_blind", "draw_face_up", "claim_route", "draw_tickets", "pass",
                    "keep_tickets"}
            if game.phase == "turn":
                assert game.module_choices() == [a for a in game.legal_actions()
                                                 if a.kind not in core]
            acts = game.legal_actions()
            game.apply(acts[rng.randrange(len(acts))])


#: A game of each family (USA with and without stations), for the search calls' checks.
EVERY_FAMILY = (("usa", 4, None), ("usa", 3, {"stations": True}), ("europe", 4, None),
                ("old-west", 3, None), ("legacy", 2, None), ("marklin", 2, None),
                ("county-durham", 3, None))


def test_the_first_claim_of_a_list_is_the_canonical_claim_of_its_first_claimable_route():
    # A search's "the best route I can pay for": routes in its order of preference.
    from ttr_desktop.rules import new_game

    for variant, players, opts in EVERY_FAMILY:
        game = new_game(variant, players, seed=9, options=opts)
        rng = random.Random(5)
        checked = found = 0
        for _ in range(200):
            if game.is_over:
                break
            order = list(range(game.board.graph.n_routes))
            for _ in range(3):
                rng.shuffle(order)
                for routes in (order, order[:7], [], order[::-1]):
                    first = next((a for a in map(game.canonical_claim, routes)
                                  if a is not None), None)
                    assert game.first_claim(routes) == first, (variant, routes)
                    checked += 1
                    found += first is not None
            acts = game.legal_actions()
            game.apply(acts[rng.randrange(len(acts))])
        assert checked and found, variant      # some lists held a claimable route


def test_the_first_wanted_draw_is_the_first_such_card_on_display_else_a_blind_draw():
    # A search's "take a card I want, else draw blind": the same answer as reading the
    # listed draws in order, for any wish list, in every family.
    from ttr_desktop.rules import new_game

    for variant, players, opts in EVERY_FAMILY:
        game = new_game(variant, players, seed=10, options=opts)
        rng = random.Random(6)
        kinds = range(game.board.n_cards)
        for _ in range(200):
            if game.is_over:
                break
            draws = game.draw_choices()
            for _ in range(3):
                wanted = set(rng.sample(kinds, rng.randint(0, 3)))
                expected = next((a for a in draws if a.kind == "draw_face_up"
                                 and game.board.card_index[a.card] in wanted), None) or \
                    next((a for a in draws if a.kind == "draw_blind"), None)
                assert game.first_draw(wanted) == expected, (variant, wanted, draws)
            acts = game.legal_actions()
            game.apply(acts[rng.randrange(len(acts))])


def test_a_wanted_locomotive_on_display_is_never_the_second_card_drawn():
    # rules.md §1.4: a face-up locomotive may only be taken as the first and only card.
    game = started("usa", 2, seed=3)
    set_face_up(game, ["locomotive", "red", "blue", "locomotive", "green"])
    b = game.board
    loco, red = b.card_index["locomotive"], b.card_index["red"]
    first = game.first_draw({loco})
    assert (first.kind, first.slot, first.card) == ("draw_face_up", 0, "locomotive")
    game.apply(game.first_draw({red}))          # red: a second card follows
    assert game.phase == "second_card"
    assert game.first_draw({loco}).kind == "draw_blind"


def test_keeping_tickets_in_a_copy_leaves_the_original_tickets_alone():
    game = started("usa", 2, seed=4)
    seat = game.current_seat
    before = [list(t) for t in game.state.tickets]
    copy = game.clone(random.Random(1))
    copy.apply(next(a for a in copy.legal_actions() if a.kind == "draw_tickets"))
    keep_all = max(copy.legal_actions(), key=lambda a: len(a.tickets))
    copy.apply(keep_all)
    assert [list(t) for t in game.state.tickets] == before
    assert len(copy.state.tickets[seat]) == len(before[seat]) + 3
