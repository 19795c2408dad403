"""The benchmark command runs end to end on a tiny load: a server process on 127.0.0.1,
two tables of bots played to their end through the protocol, the figures as JSON. (The
real measure, 200 tables, is run by hand: docs/protocol.md, "Benchmark".)"""

from __future__ import annotations

import json
import subprocess
import sys

from tests.net.netkit import ROOT


def test_the_bench_command_plays_its_tables_to_the_end_and_prints_its_figures():
    done = subprocess.run(
        [sys.executable, "-m", "ttr_desktop.net", "bench", "--tables", "2", "--seats", "2",
         "--level", "greedy", "--seed", "7", "--think", "0.001", "--timeout", "60", "--json"],
        capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["tables"] == 2 and result["seats"] == 2
    assert result["tables_lost"] == 0 and result["tables_over"] == 2 and not result["errors"]
    # every action made through the wire has its round trip measured
    assert result["actions"] > 100 and result["rtt_ms"]["count"] == result["actions"]
    rtt = result["rtt_ms"]
    assert 0 < rtt["p50"] <= rtt["p95"] <= rtt["p99"] <= rtt["max"]
    assert result["actions_per_second"] > 0 and result["wall_seconds"] > 0
    rss = result["server_rss_kb"]
    assert 10_000 < rss["baseline"] <= rss["peak"], "the server process's memory is read"
    assert result["memory_per_table_kb"] == round((rss["peak"] - rss["baseline"]) / 2, 1)
    assert result["server_cpu_seconds"] > 0


def test_the_legal_actions_text_the_server_keeps_is_each_actions_own_encoding(monkeypatch):
    """The server splices the legal actions' kept JSON text into its state messages: it
    is exactly the encoding of each action, in order, in every family, even when the
    kept texts are thrown away as the store fills up."""
    from ttr_desktop.bots import make_bot
    from ttr_desktop.net import codec
    from ttr_desktop.rules import new_game

    monkeypatch.setattr(codec, "ACTION_TEXT_LIMIT", 150)
    checked = 0
    for variant in ("usa", "europe", "marklin", "old-west"):
        game = new_game(variant, ["Ann", "Bob"], seed=31)
        bot = make_bot("random", seed=5)
        for _ in range(40):
            legal = game.legal_actions()
            text = codec.actions_json_text(legal)
            assert json.loads(text) == [codec.action_to_json(a) for a in legal]
            assert json.loads(text) == [a.to_dict() for a in legal]
            checked += len(legal)
            game.apply(bot.choose(game.view(game.current_seat), legal))
    assert checked > 300 and len(codec._ACTION_TEXT) <= 150
