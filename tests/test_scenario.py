"""Positions are built through ``Scenario``: components conserved, points on the score
track with a reason, a new version each time; and no test edits a game by hand."""

from __future__ import annotations

import ast
from collections.abc import Collection
from pathlib import Path

import pytest

from ttr_desktop.rules import DrawBlind, new_game
from ttr_desktop.rules.scenario import Scenario
from ttr_desktop.rules.state import Phase


def test_a_position_is_built_step_by_step_from_a_real_game():
    sc = Scenario.start("usa", players=3, seed=4)
    game = sc.game
    assert game.phase == Phase.TURN and game.current_seat == 0
    cards = game.total_cards()
    tickets = sum(len(d) for d in game.state.ticket_decks.values()) + sum(
        len(t) for t in game.state.tickets)
    sc.hand(1, red=3, locomotive=1).deck_top(["blue", "green"]).face_up(
        ["red", None, "black", "black", "white"]).route(1, "denver-omaha").trains(2, 4)
    sc.tickets(1, ["denver-el-paso"]).ticket_deck_top(["boston-miami"]).turn(1)
    view = game.view(1)
    assert {card: n for card, n in view.hand.items() if n} == {"red": 3, "locomotive": 1}
    assert game.view(1).face_up == ("red", None, "black", "black", "white")
    assert game.current_seat == 1 and game.phase == Phase.TURN
    assert [t.id for t in view.tickets] == ["denver-el-paso"]
    assert game.state.owner[game.board.route_index["denver-omaha"]] == 1
    assert game.state.trains[1] == 45 - 4 and game.state.trains[2] == 4
    assert game.scores()[1].parts["routes"] == 7
    # nothing made up, nothing lost
    assert game.total_cards() == cards
    assert sum(len(d) for d in game.state.ticket_decks.values()) + sum(
        len(t) for t in game.state.tickets) == tickets
    # and play goes on from there with the game's own rules
    game.apply(DrawBlind())
    assert game.view(1).hand["blue"] == 1


def test_every_step_gives_the_game_a_new_version_so_no_legal_move_is_stale():
    game = Scenario.start("usa", 2, seed=2).game
    before = game.version
    legal = game.legal_actions()
    Scenario(game).hand(0)                       # no cards: no claim, no station
    assert game.version > before
    assert not any(a.kind == "claim_route" for a in game.legal_actions())
    assert any(a.kind == "claim_route" for a in legal)     # the cache held these
    Scenario(game).hand(0, locomotive=6)
    assert any(a.kind == "claim_route" for a in game.legal_actions())


def test_points_go_on_the_score_track_with_their_reason():
    game = Scenario.start("usa", 2, seed=2).game
    Scenario(game).score(1, 5, "event", "bonus").route(1, "denver-omaha", score=False)
    assert game.state.points[1] == 5
    assert game.state.ledger[-1] == (1, 5, "event", "bonus")


def test_a_rule_module_state_is_set_by_field():
    game = Scenario.start("usa", 2, seed=1, options={"stations": True}).game
    c = game.board.city_index["denver"]
    Scenario(game).module("stations", city={c: 1}, left={1: 2})
    st = game.state.ext["stations"]
    assert st.city[c] == 1 and st.left[1] == 2
    with pytest.raises(ValueError, match="no state field 'colour'"):
        Scenario(game).module("stations", colour=1)
    with pytest.raises(ValueError, match="no rule module 'tunnels' in play"):
        Scenario(game).module("tunnels", supply=[])


def test_a_step_that_cannot_be_made_names_the_problem():
    sc = Scenario(new_game("usa", 2, seed=1))
    with pytest.raises(ValueError, match="no train card 'purple'"):
        sc.hand(0, purple=1)
    with pytest.raises(ValueError, match="no locomotive card left"):
        sc.hand(0, locomotive=15)
    with pytest.raises(ValueError, match="no route 'atlantis-omaha'"):
        sc.route(0, "atlantis-omaha")
    with pytest.raises(ValueError, match="no ticket 'x-y'"):
        sc.tickets(0, ["x-y"])
    sc.route(0, "denver-omaha")
    with pytest.raises(ValueError, match="denver-omaha is already owned"):
        sc.route(1, "denver-omaha")


# No test edits a game by hand ----------------------------------------------------------
TESTS = Path(__file__).resolve().parent
#: The engine members a test may not touch (the game's private fields and methods).
PRIVATE_ENGINE = {"_version", "_legal_cache", "_hooks", "_group_open", "_pay_vector",
                  "_shared", "_rng", "_rng_shared", "_ev", "_quiet", "_score", "_pay",
                  "_draw_card", "_end_turn", "_setup", "_edited", "_run_pipeline",
                  "_complete_claim", "_module_by_kind", "_module_by_phase", "_log_shared"}
#: Files ("file") or functions ("file::function") that still build positions by hand:
#: why (or "to convert").
ALLOWED: dict[str, str] = {
    "ui/test_scoring_scene.py::set_position":
        "rewrites a finished game's board (routes taken back): to convert",
    "test_engine_contract.py::_hide_differently":
        "a second world that differs from the game only in what one seat cannot know",
}
#: A line with this comment is exempt (say why after it).
EXEMPT = "# hand-edit-ok"
#: Calls that give a rule module its own state, or a copy of a state.
FRESH = {"state", "to_dict", "copy", "clone"}
MUTATORS = {"append", "extend", "insert", "remove", "pop", "clear", "sort", "reverse",
            "update", "setdefault", "popitem"}


def _reaches_state(node: ast.AST, aliases: set[str], getters: set[str] = frozenset()) -> bool:
    """Whether ``node`` is ``<x>.state...``, a name bound to such a value, or a call of a
    test's helper that returns one (``coal(game).held``)."""
    while True:
        if isinstance(node, ast.Attribute):
            if node.attr == "state":
                return True
            node = node.value
        elif isinstance(node, ast.Subscript):
            node = node.value
        elif isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name):
                return node.func.id in getters
            if isinstance(node.func, ast.Attribute) and node.func.attr in FRESH:
                return False    # a module's own state (ctx.state), a copy, plain data
            node = node.func
        elif isinstance(node, ast.Name):
            return node.id in aliases
        else:
            return False


def _functions(tree: ast.AST):
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def _aliases(fn, getters) -> set[str]:
    """Names ``fn`` binds to a part of a game's state."""
    out: set[str] = set()
    for n in ast.walk(fn):
        if isinstance(n, (ast.Assign, ast.For)):
            value = n.value if isinstance(n, ast.Assign) else n.iter
            if _reaches_state(value, out, getters):
                for t in (n.targets if isinstance(n, ast.Assign) else [n.target]):
                    out.update(e.id for e in ast.walk(t) if isinstance(e, ast.Name))
    return out


def state_getters(sources: list[str]) -> set[str]:
    """Names of the tests' helper functions that return a part of a game's state."""
    out: set[str] = set()
    for source in sources:
        for fn in _functions(ast.parse(source)):
            aliases = _aliases(fn, set())
            if any(isinstance(n, ast.Return) and n.value is not None
                   and _reaches_state(n.value, aliases) for n in ast.walk(fn)):
                out.add(fn.name)
    return out


def hand_edits(source: str, getters: set[str] = frozenset(),
               allowed: Collection[str] = ()) -> list[str]:
    """Where ``source`` writes into a game's state or touches the engine's privates
    (outside the functions named in ``allowed`` and the lines marked exempt)."""
    out = []
    lines = source.splitlines()
    tree = ast.parse(source)
    skip: set[int] = set()
    for fn in _functions(tree):
        if fn.name in allowed:
            skip.update(range(fn.lineno, fn.end_lineno + 1))
    for fn in [tree, *_functions(tree)]:
        aliases = set() if fn is tree else _aliases(fn, getters)
        for n in ast.walk(fn):
            line = getattr(n, "lineno", 0)
            if line in skip or (line and EXEMPT in lines[line - 1]):
                continue
            if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
                targets = n.targets if isinstance(n, (ast.Assign, ast.Delete)) else [n.target]
                for t in targets:
                    if isinstance(t, (ast.Attribute, ast.Subscript)) and _reaches_state(
                            t, aliases, getters):
                        out.append(f"line {line}: writes the state")
            elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                  and n.func.attr in MUTATORS and _reaches_state(n.func.value, aliases, getters)):
                out.append(f"line {line}: changes the state ({n.func.attr})")
            elif isinstance(n, ast.Attribute) and n.attr in PRIVATE_ENGINE:
                out.append(f"line {line}: touches the engine's {n.attr}")
    return sorted(set(out), key=lambda s: int(s.split()[1].rstrip(":")))


def test_the_guard_sees_a_hand_edit():
    assert hand_edits("def t(game):\n    game.state.current = 1\n")
    assert hand_edits("def t(game):\n    s = game.state\n    s.deck.append(3)\n")
    assert hand_edits("def t(g):\n    st = g.state.ext['x']\n    st.held[0] = 2\n")
    assert hand_edits("def t(g):\n    g._version += 1\n")
    getter = "def coal(g):\n    return g.state.ext['county_durham']\n"
    assert state_getters([getter]) == {"coal"}
    assert hand_edits("def t(g):\n    coal(g).held[0] = 2\n", {"coal"})
    assert not hand_edits("def t(g):\n    before = g.state.points[0]\n    assert before\n")
    assert not hand_edits("def t(g):\n    g.state.turn = 3  # hand-edit-ok: why\n")


def test_tests_build_positions_through_the_scenario():
    files = {p.relative_to(TESTS).as_posix(): p.read_text(encoding="utf-8")
             for p in sorted(TESTS.rglob("*.py"))}
    getters = state_getters(list(files.values()))
    found = {}
    for name, source in files.items():
        if name == "test_scenario.py" or name in ALLOWED:
            continue
        allowed = {key.split("::")[1] for key in ALLOWED if key.split("::")[0] == name}
        edits = hand_edits(source, getters, allowed)
        if edits:
            found[name] = edits
    assert found == {}, "build positions with ttr_desktop.rules.scenario.Scenario"
