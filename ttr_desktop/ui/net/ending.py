"""The end of an online game: the table's ``over`` message (every seat's score parts and
kept tickets, public at the end) shown on the same end screen as a local game.

The result is the table's, never recomputed here: ``over.breakdown`` becomes the
engine's ``ScoreBreakdown`` per seat and the ``Result`` the scoring scene reads; the
final map is the last position the table sent.
"""

from __future__ import annotations

import logging
from typing import Any

from ttr_desktop.rules.scoring import Result, ScoreBreakdown, TicketResult

log = logging.getLogger("ttr_desktop.net")


def _breakdown(d: dict[str, Any]) -> ScoreBreakdown:
    from ttr_desktop.net.codec import value_from_json
    d = value_from_json(d) if not isinstance(d, ScoreBreakdown) else d
    if isinstance(d, ScoreBreakdown):
        return d
    fields = dict(d)
    fields["tickets"] = [t if isinstance(t, TicketResult) else TicketResult(**t)
                         for t in fields.get("tickets", [])]
    fields["measures"] = {k: tuple(v) for k, v in dict(fields.get("measures") or {}).items()}
    for key in ("longest_path_routes", "borrowed_routes"):
        fields[key] = list(fields.get(key) or [])
    known = set(ScoreBreakdown.__slots__)
    return ScoreBreakdown(**{k: v for k, v in fields.items() if k in known})


def result_of(over: dict[str, Any]) -> Result:
    """The table's final result from its ``over`` message (ValueError when it does not
    hold one)."""
    try:
        scores = [_breakdown(b) for b in over["breakdown"]]
        result = Result(list(over.get("winners") or []), over.get("tie_break"), scores)
        result.places = list(over.get("places") or [])
        ranking = sorted(range(len(scores)), key=lambda i: (result.places[i]
                         if i < len(result.places) else 99, -scores[i].total))
        result.ranking = ranking
        return result
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise ValueError(f"the final scores could not be read: {exc}") from exc


def open_end_screen(app, session) -> None:
    """The end screen for a finished online table (the title screen with a message when
    the scores cannot be shown)."""
    from ttr_desktop.ui.scenes.scoring import ScoringScene
    game = session.game
    try:
        game.final = result_of(session.over or {})
        app.replace(ScoringScene(app, session))
    except Exception as exc:  # noqa: BLE001  (the game is over either way)
        log.exception("end screen")
        from ttr_desktop.ui.net.screens import back_to_title
        scores = (session.over or {}).get("scores") or []
        words = ", ".join(f"{session.name_of(i)} {s}" for i, s in enumerate(scores))
        back_to_title(app)
        app.toast(f"The game is over{': ' + words if words else ''}. ({exc})", 10, "error")
