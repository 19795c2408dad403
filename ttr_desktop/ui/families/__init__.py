"""The window's part of each rule family, one file per family.

A family file registers what the window needs to play it, through the
registries the window already has:

- ``ui.session.register_choice(key, variant, options, label)`` — offered on the setup screen;
- ``ui.scenes.board_overlays.register_phase_overlay(phase, factory)`` — an overlay for a
  decision of the family's module (without one, the generic step panel asks);
- ``ui.log_text.EVENT_LINES[kind] = fn(event, game) -> str`` — log lines for its events
  (``ui.log_text.SUMMARY_EVENTS``: kinds whose line sums up a whole turn for the news line);
- ``ui.scenes.scoring_words.PART_LABELS[part] = label`` — names of its score parts;
- ``register_note(key, text)`` — the setup screen's short description of its choice;
- ``ROUTE_TIP_LINES[variant] = fn(board, route_id) -> [(text, rgb, bold)]`` — extra lines
  in an unclaimed route's tooltip (who would score it, ...); what a claim would do under
  the family's rules (Alvin, coal, passengers, Legacy's bonus) needs nothing here: the
  rule module's ``claim_effects`` hook says it and every route tooltip shows it;
- ``ui.session.register_seat_options(variant, fn)`` — setup options from the seats
  (``fn(seats) -> dict``; Legacy: each train colour is a company);
- ``ui.scenes.board_panels.BOARD_PAINTERS[variant] = fn(scene, surface)`` — the family's
  own pieces drawn over the board (Legacy's event card, coins, payout badges);
- ``ui.scenes.scoring_words.SLIP_WORDS[variant] = (title, fn(game, seat, kind))`` — the
  scoring panel's title and each seat's caption (Legacy's bank slips);
- its rules page is ``assets/rules/<nn>-<family>.md`` (read by the rules screen; the pages
  come before the keys).

``load_all()`` imports every file here; the window calls it at start.
"""

from __future__ import annotations

import importlib
import pkgutil

_LOADED = False
#: Engine variant -> fn(board, route_id) -> extra tooltip lines of an unclaimed route.
ROUTE_TIP_LINES: dict[str, object] = {}
#: Setup choice key -> its short description on the setup screen.
NOTES: dict[str, str] = {}


def register_note(key: str, text: str) -> None:
    """Describe the setup choice ``key`` on the setup screen."""
    NOTES[key] = text


def load_all() -> None:
    """Import every family file (each registers itself)."""
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        importlib.import_module(f"{__name__}.{info.name}")
