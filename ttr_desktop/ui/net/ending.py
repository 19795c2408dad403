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


def draw_counts(session) -> list[dict[str, int]] | None:
    """Per seat, the draws every person at the table saw (cards from the deck, face-up
    cards and locomotives among them, ticket draws), as the end screen's statistics count
    them; None when this window did not see the game from its start."""
    if not session.saw_start or session.game is None:
        return None
    counts: list[dict[str, int]] = [{} for _ in range(session.game.num_players)]

    def add(seat, kind):
        if isinstance(seat, int) and 0 <= seat < len(counts):
            counts[seat][kind] = counts[seat].get(kind, 0) + 1

    for ev in session.past_events:
        if ev.kind == "card_drawn":
            face_up = ev.data.get("source") == "face_up"
            add(ev.seat, "draw_face_up" if face_up else "draw_blind")
            if face_up and ev.data.get("card") == "locomotive":
                add(ev.seat, "draw_face_up:locomotive")
        elif ev.kind == "tickets_drawn":
            add(ev.seat, "draw_tickets")
    return counts


def _fix_stats(scene, session) -> None:
    """The statistics of draws from what the table showed (this window has no move list
    to replay): counted from the events, or '–' when they were not all seen."""
    counts = draw_counts(session)
    for stats in scene.stats:
        c = counts[stats.seat] if counts is not None else None
        stats.kinds = dict(c) if c is not None else {}
        stats.blind = c.get("draw_blind", 0) if c is not None else None
        stats.face_up = c.get("draw_face_up", 0) if c is not None else None
        stats.face_up_locomotives = c.get("draw_face_up:locomotive", 0) \
            if c is not None else None
        stats.ticket_draws = c.get("draw_tickets", 0) if c is not None else None


def open_end_screen(app, session) -> None:
    """The end screen for a finished online table (the title screen with a message when
    the scores cannot be shown)."""
    from ttr_desktop.ui.scenes.scoring import ScoringScene
    game = session.game
    try:
        game.final = result_of(session.over or {})
        scene = ScoringScene(app, session)
        _fix_stats(scene, session)
        scene.resize(app.size)
        app.replace(scene)
    except Exception as exc:
        log.exception("end screen")
        from ttr_desktop.ui.net.screens import back_to_title
        scores = (session.over or {}).get("scores") or []
        words = ", ".join(f"{session.name_of(i)} {s}" for i, s in enumerate(scores))
        back_to_title(app)
        app.toast(f"The game is over{': ' + words if words else ''}. ({exc})", 10, "error")
