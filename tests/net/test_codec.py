"""What travels over the wire comes back exactly as it left: actions, the events a seat
may see and each seat's view, for every registered rule family, option set and player
count — through real JSON text, as a connection carries them."""

from __future__ import annotations

import json
import random

import pytest

from tests.contract import config_id, every_config
from ttr_desktop.net.codec import (
    CodecError, action_from_json, action_to_json, event_from_json, event_to_json, map_for,
    value_from_json, value_to_json, view_from_json, view_to_json,
)
from ttr_desktop.rules import ClaimRoute, DrawFaceUp, KeepTickets, new_game

_PRIVATE = ("_owner", "_borrow", "_discard", "_known", "_paid", "_ticket_log", "_ledger",
            "_group_open")


def wire(data):
    """Through JSON text and back, as a connection carries it."""
    return json.loads(json.dumps(data, allow_nan=False))


def same_view(a, b) -> None:
    da, db = a.as_dict(), b.as_dict()
    assert da.keys() == db.keys()
    for key in da:
        assert da[key] == db[key], key
    for key in _PRIVATE:
        assert getattr(a, key) == getattr(b, key), key
    assert b.graph is a.graph and b.pay == a.pay
    assert a.ticket_status() == b.ticket_status()
    assert a.closed_routes == b.closed_routes


@pytest.mark.parametrize("config", every_config(), ids=config_id)
def test_every_family_round_trips_views_events_and_actions(config):
    game = new_game(config.variant, config.players, seed=11, options=config.options)
    game_map = map_for(config.variant, config.options)
    assert game_map is game.map, "both ends load the same map from the variant"
    rng = random.Random(5)
    steps = 0
    events = []
    while not game.is_over and steps < 40:
        legal = game.legal_actions()
        for action in legal[:50]:
            back = action_from_json(wire(action_to_json(action)))
            assert back == action and type(back) is type(action)
        if steps % 8 == 0:
            for seat in range(game.num_players):
                view = game.view(seat)
                data = wire(view_to_json(view))
                back = view_from_json(data, game_map)
                same_view(view, back)
                assert wire(view_to_json(back)) == data
        for seat in range(game.num_players):
            for ev in events:
                seen = ev.visible_to(seat)
                if seen is None:
                    continue
                back = event_from_json(wire(event_to_json(seen)))
                assert (back.kind, back.seat, back.data, back.private, back.secret,
                        back.reveals) == (seen.kind, seen.seat, seen.data, seen.private,
                                          seen.secret, seen.reveals)
        events = game.apply(rng.choice(legal))
        steps += 1


def test_free_form_values_keep_their_shapes():
    value = {"a": (1, 2), "b": [1, (2, "x")], 3: None, "c": frozenset({1}), "d": {"e": 1.5}}
    assert value_from_json(wire(value_to_json(value))) == value
    assert type(value_from_json(wire(value_to_json((1,))))) is tuple


def test_malformed_actions_are_refused_in_plain_words():
    for bad, words in [
        ("claim", "object"), ({}, "kind"), ({"kind": "fly"}, "unknown action kind"),
        ({"kind": "claim_route", "route_id": 3, "cards": []}, "text"),
        ({"kind": "claim_route", "route_id": "x", "cards": "red"}, "cards"),
        ({"kind": "draw_face_up", "slot": True, "card": "red"}, "whole number"),
        ({"kind": "keep_tickets", "tickets": [1]}, "list of strings"),
    ]:
        with pytest.raises(CodecError, match=words):
            action_from_json(bad)
    assert action_from_json(action_to_json(DrawFaceUp(2, "red"))) == DrawFaceUp(2, "red")
    assert action_from_json({"kind": "keep_tickets", "tickets": ["a"]}) == KeepTickets(("a",))
    assert action_from_json({"kind": "claim_route", "route_id": "r", "cards": [["red", 2]]}) \
        == ClaimRoute("r", (("red", 2),))


def test_hostile_values_are_refused():
    deep = []
    for _ in range(60):
        deep = [deep]
    with pytest.raises(CodecError, match="deep"):
        value_from_json(deep)
    with pytest.raises(CodecError):
        value_from_json({"$f": [[1]]})          # a list cannot be in a set
    with pytest.raises(CodecError):
        value_to_json(object())
    game = new_game("usa", 2, seed=1)
    data = wire(view_to_json(game.view(0)))
    data["tickets"] = ["no such ticket"]
    with pytest.raises(CodecError, match="ticket"):
        view_from_json(data, game.map)
    data = wire(view_to_json(game.view(0)))
    data["owner"] = data["owner"][:3]
    with pytest.raises(CodecError, match="owner"):
        view_from_json(data, game.map)
