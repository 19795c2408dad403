"""Ferries (rules.md §1.10): one locomotive per locomotive icon on the route."""

from __future__ import annotations

from ttr_desktop.rules.board import Board
from ttr_desktop.rules.modules.base import RuleModule


class Ferries(RuleModule):
    """Sets the wild units each ferry claim must include; the payment enumerator does the
    rest (County Durham's pairs of coal count as locomotives there too, A-29)."""

    name = "ferries"

    def compile(self, board: Board) -> None:
        for i, route in enumerate(board.routes):
            if route.ferry_locomotives:
                board.r_min_locos[i] = route.ferry_locomotives
