"""The map authors' report (tools/map_report.py) and the planner measurement
(tools/measure_planner.py): what they tell an author or a developer must be true of the
boards and the plans."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

from ttr_desktop.bots.graph import Situation
from ttr_desktop.bots.greedy import GreedyBot
from ttr_desktop.maps.loader import load_map, load_ticket_set
from ttr_desktop.rules import new_game
from ttr_desktop.rules.graph import RouteGraph, cheapest_path, components

ROOT = Path(__file__).resolve().parents[1]
MAPS = ROOT / "maps"
BOARDS = sorted(p for p in MAPS.glob("*.toml") if not p.name.endswith(".tickets.toml"))


@pytest.fixture(scope="module")
def tools():
    """The two scripts as modules (tools/ holds developer scripts, not a package)."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import map_report
        import measure_planner
    finally:
        sys.path.remove(str(ROOT / "tools"))
    return map_report, measure_planner


@pytest.mark.parametrize("path", BOARDS, ids=lambda p: p.stem)
def test_fewest_spaces_agree_with_the_engines_cheapest_path(tools, path):
    # Two ways to the same figure: networkx in the report, the engine's own search (which
    # lets a country end point only end a path) with each route costing its length.
    report, _ = tools
    board = load_map(path)
    tickets = list(board.tickets)
    for set_path in MAPS.glob("*.tickets.toml"):
        if report.set_board(set_path) == board.id:
            tickets += load_ticket_set(set_path, board).tickets
    g = RouteGraph(board)
    links = report.link_graph(board)
    for t in tickets:
        found = cheapest_path(g, g.r_len, g.places[t.a], g.places[t.b])
        assert report.fewest_spaces(board, links, t) == found[0], t.id


def test_the_report_names_europes_one_way_to_edinburgh(tools):
    report, _ = tools
    lines = report.report(load_map(MAPS / "europe.toml"),
                          [("of the board", list(load_map(MAPS / "europe.toml").tickets))],
                          all_tickets=False)
    text = "\n".join(lines)
    assert "one connected piece" in text
    assert "bridges (1): edinburgh-london" in text
    assert "articulation cities (2): london, madrid" in text
    assert "dead ends (1): edinburgh" in text
    # The Edinburgh-Athens ticket is worth a point more than its shortest line.
    assert "edinburgh-athina: 21 points, 20 spaces (+1)" in text


def test_the_report_shows_a_board_cut_in_two(tools):
    report, _ = tools
    usa = load_map(MAPS / "usa.toml")
    cut = {"miami"}
    board = dataclasses.replace(usa, routes={
        k: r for k, r in usa.routes.items() if not {r.a, r.b} & cut})
    miami_ticket = next(t for t in usa.tickets if "miami" in (t.a, t.b))
    lines = report.report(board, [("of the board", [miami_ticket])], False)
    text = "\n".join(lines)
    parts = next(line for line in lines if "connected" in line)
    assert parts.strip().startswith("2 connected parts:") and parts.endswith("; miami")
    assert f"{miami_ticket.id}: {miami_ticket.points} points, not joined" in text


def test_an_unknown_map_id_is_refused_by_name(tools, capsys):
    report, _ = tools
    with pytest.raises(SystemExit):
        report.main(["atlantis"])
    err = capsys.readouterr().err
    assert "no board or ticket set atlantis" in err and "usa" in err


def test_a_broken_map_file_is_named_and_the_others_still_reported(tools, tmp_path, capsys):
    report, _ = tools
    for name in ("europe.toml", "usa.toml", "usa-1910.tickets.toml"):
        (tmp_path / name).write_text((MAPS / name).read_text(encoding="utf-8"),
                                     encoding="utf-8")
    broken = tmp_path / "europe.toml"
    broken.write_text(broken.read_text(encoding="utf-8").replace("length = 6\n",
                                                                 "length = six\n", 1),
                      encoding="utf-8")
    assert report.main(["--maps", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    assert "cannot report europe.toml" in err and "line" in err
    assert out.startswith("usa: 36 cities, 100 routes")
    assert "tickets usa-1910: 35" in out


def test_every_planner_measured_joins_every_ticket_on_real_positions(tools):
    # Positions from a Normal game on the USA: each planner's routes, with the seat's own,
    # join every ticket it planned; the engine's and networkx's hot-path answers agree.
    _, measure = tools
    game = new_game("usa", 2, seed=5)
    bots = [GreedyBot(11), GreedyBot(12)]
    measured = turns = 0
    while not game.is_over and measured < 3:
        seat = game.current_seat
        view, legal = game.view(seat), game.legal_actions()
        done = set(view.completed_tickets)
        open_t = [t for t in view.tickets if t.id not in done]
        turns += view.phase == "turn"
        if view.phase == "turn" and len(open_t) >= 2 and turns % 5 == 0:
            row = measure.measure(view, open_t, repeat=1)
            if row is not None:
                measured += 1
                for key in ("ours", "ours+orders", "kou", "mehlhorn"):
                    assert row[key][3], key
                # Our plan costs what its routes cost.
                assert row["ours"][0] == measure_trains(view, open_t)
        game.apply(bots[seat].choose(view, legal))
    assert measured == 3


def measure_trains(view, tickets) -> int:
    sit = Situation(view)
    plan = sit.plan(tickets, budget=10_000)
    g = sit.graph
    comp = components(g, sorted(sit.own) + plan.routes)
    assert all(comp.joined(g, t.a, t.b) for t in plan.planned + plan.done)
    return sum(g.r_len[r] for r in plan.routes)
