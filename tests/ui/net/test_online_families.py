"""Every family plays at a remote table: the board built from the table's messages only
(this seat's view, the legal choices, the events it may see) draws each position and
lands each move — the same panels, painters and log as a local game of that family."""

from __future__ import annotations

import pytest

from tests.ui.net.loopback import LoopTable


def _choices():
    from ttr_desktop.ui.session import VARIANT_CHOICES
    return list(VARIANT_CHOICES)


@pytest.mark.parametrize("key", _choices())
def test_a_remote_table_of_every_family_shows_its_moves(instant_app, key):
    from ttr_desktop.ui.net.remote import RemoteSession
    from ttr_desktop.ui.scenes.board import BoardScene
    from ttr_desktop.ui.session import VARIANT_CHOICES
    app = instant_app
    variant, options, _ = VARIANT_CHOICES[key]
    table = LoopTable(variant, ["Ann", "Bob", "Cleo"], people=[0], seed=11,
                      options=dict(options))
    session = RemoteSession(table.links[0])
    session.poll()
    board = app.push(BoardScene(app, session))
    app.step(1 / 60)
    lines = len(board.log_lines)
    for _ in range(12):                       # a bot plays every seat, Ann's too
        while app.top is not board:           # the decision's panel: the table decides
            app.pop()
        if table.pump(limit=1, also=(0,)) == 0:
            break
        app.step(1 / 60)
        g = board.game
        assert g.version == table.game.version
        assert g.view(0).hand == table.game.view(0).hand
        assert g.view(0).points == table.game.view(0).points
        if g.current_seat == 0 and not g.is_over:
            assert set(g.legal_actions()) == set(table.game.legal_actions())
            for action in g.legal_actions()[:5]:     # asked of the seat's own position
                assert g.explain(action) is None
    assert len(board.log_lines) > lines
