"""The window's part of each rule family: one ``WindowFamily`` descriptor per engine family.

The engine knows a family by its ``rules.family.Family`` descriptor; the window knows it
by a ``WindowFamily`` with the same id, which says, as data, everything the window needs
to play it:

- ``choices``: what the setup screen offers, in order (``SetupChoice``: key, engine
  variant, options, label, the short description under the menu);
- for a family with several games (``rules.family.Family.games``): ``label``, its one
  entry in the setup screen's list, ``games`` (``SetupGame``: each game's variant, name,
  one line on what differs and its longer description), offered as a choice of game
  under the list, and ``switches`` (``SetupSwitch``: an optional module every game has,
  such as Stations), each an on/off choice. Every combination is a setup choice of its
  own (``setup_choices()``: key, variant and options, as the saves and the last setup
  remember them), grouped under the family's entry (``CHOICE_FAMILY``);
- ``overlays``: module phase -> ``factory(board) -> overlay | None`` for a decision of the
  family's modules; ``step_phases``: its phases the generic step panel asks (the module's
  prompt, a row per legal action) — every phase of its modules is in one or the other;
- ``event_lines``: event kind -> ``fn(event, game) -> str``, the log lines of its events;
  ``summary_events``: kinds whose line sums up a whole turn for the news line;
  ``silent_events``: kinds the family's modules emit that need no wording of their own;
- ``part_labels``: score part -> the name a player calls it;
- ``painter``: ``fn(board, surface)`` drawing the family's own pieces over the board, and
  ``aside_height``: room it keeps under the player rows, ``aside_used``:
  ``fn(board) -> int``, the height its card takes now (the tickets use the rest);
- ``slip_words``: ``(title, fn(game, seat, kind))``, the scoring panel's title and each
  seat's caption (Legacy's bank slips);
- ``route_tip``: ``fn(board, route_id) -> [(text, rgb, bold)]``, extra lines in an unclaimed
  route's tooltip (what a claim would do needs nothing here: the rule module's
  ``claim_effects`` hook says it and every route tooltip shows it);
- ``seat_options``: ``fn(seats) -> dict``, setup options from the seats (Legacy: each
  train colour is a company; ValueError with a player-readable reason);
- ``card_painters``: card name -> ``fn(surface, rect)``, faces of the family's own cards;
- ``rules_page``: its page under ``assets/rules/`` (the rules screen shows the pages in
  the list's order, before the keys); ``rules_section``: the start of the title of the
  section the rules screen opens at from one of its games (None: the top of the page).

Overlays and painters talk to the board only through ``ui.scenes.board_port.BoardPort``.

Also here: the Legacy campaign's screens (``legacy_campaign``: the campaign list, its setup,
the standings between games, retiring an event; ``legacy_campaign_chart``: the vaults
table and chart). ``ui.scenes.campaign`` and ``ui.scenes.campaign_chart`` stay as other
names of the same modules.

``shipped.SHIPPED`` lists the shipped families' descriptors in the engine's order
(``rules.family.SHIPPED``); ``load_all`` (called by the window at start) installs them in
that order, which is the setup screen's order. The older registries (``session.
register_choice``, ``board_overlays.register_phase_overlay``, ``log_text.EVENT_LINES``,
``register_note``, ``ROUTE_TIP_LINES``...) keep working for code outside the list:
``register_window_family`` installs a descriptor at run time, and a file in this folder that
the list does not name yet is imported after the list (it registers itself).
"""

from __future__ import annotations

import importlib
import itertools
import pkgutil
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

_LOADED = False
#: Engine variant -> fn(board, route_id) -> extra tooltip lines of an unclaimed route.
ROUTE_TIP_LINES: dict[str, object] = {}
#: Setup choice key -> its short description on the setup screen.
NOTES: dict[str, str] = {}
#: Family id -> its installed window descriptor, in installation order.
INSTALLED: dict[str, "WindowFamily"] = {}
#: Setup choice key -> the id of the family (with games or switches) whose combination of
#: game and switches it is: the setup screen shows such choices as one entry.
CHOICE_FAMILY: dict[str, str] = {}


def register_note(key: str, text: str) -> None:
    """Describe the setup choice ``key`` on the setup screen."""
    NOTES[key] = text


@dataclass(frozen=True)
class SetupChoice:
    """One entry of the setup screen's game menu."""

    key: str
    variant: str
    label: str
    options: Mapping[str, Any] = field(default_factory=dict)
    note: str = ""


@dataclass(frozen=True)
class SetupGame:
    """One game of a family with several, as the setup screen offers it: its engine
    variant, its name within the family ("Mega Game"), one line on what differs from the
    family's other games, a few words beside its name ("69 tickets"), its longer
    description, and its full name where the family is not named beside it (the saves
    list; "" -> "Family: Game")."""

    variant: str
    label: str
    line: str
    aside: str = ""
    note: str = ""
    title: str = ""


@dataclass(frozen=True)
class SetupSwitch:
    """An on/off choice the setup screen offers for every game of a family: the option
    (an optional module, true when on), its name, one line on what it does, a few words
    beside its name and a longer description (added to the game's when on)."""

    option: str
    label: str
    line: str = ""
    aside: str = ""
    note: str = ""


@dataclass(frozen=True)
class WindowFamily:
    """The window's part of one rule family (see the module's docstring)."""

    id: str
    choices: tuple[SetupChoice, ...] = ()
    #: The family's entry in the setup screen's list when it has games or switches.
    label: str = ""
    games: tuple[SetupGame, ...] = ()
    switches: tuple[SetupSwitch, ...] = ()
    overlays: Mapping[str, Callable] = field(default_factory=dict)
    step_phases: frozenset[str] = frozenset()
    event_lines: Mapping[str, Callable] = field(default_factory=dict)
    summary_events: frozenset[str] = frozenset()
    silent_events: frozenset[str] = frozenset()
    part_labels: Mapping[str, str] = field(default_factory=dict)
    painter: Callable | None = None
    aside_height: int = 0
    aside_used: Callable | None = None
    slip_words: tuple[str, Callable] | None = None
    route_tip: Callable | None = None
    seat_options: Callable | None = None
    card_painters: Mapping[str, Callable] = field(default_factory=dict)
    rules_page: str | None = None
    rules_section: str | None = None

    @property
    def variants(self) -> tuple[str, ...]:
        """The engine variant of every game of the family, first its own."""
        return tuple(dict.fromkeys([self.id, *(g.variant for g in self.games),
                                    *(c.variant for c in self.choices)]))

    def choice_key(self, variant: str, on: frozenset[str] | set[str] = frozenset()) -> str:
        """The setup choice of game ``variant`` with the switches ``on``: the variant, then
        '+option' for each switch on, in the family's order ('usa-1910-mega+stations')."""
        return variant + "".join(f"+{s.option}" for s in self.switches if s.option in on)

    def setup_choices(self) -> tuple[SetupChoice, ...]:
        """What the setup screen offers for the family: its ``choices``, then each game
        with each combination of its switches (none first), in the games' order."""
        out = list(self.choices)
        for game in self.games:
            title = game.title or f"{self.label}: {game.label}"
            for k in range(len(self.switches) + 1):
                for on in itertools.combinations(self.switches, k):
                    label = title + (" with " + " and ".join(s.label for s in on) if on
                                     else "")
                    note = " ".join([game.note or game.line,
                                     *(s.note or s.line for s in on if s.note or s.line)])
                    out.append(SetupChoice(self.choice_key(game.variant,
                                                           {s.option for s in on}),
                                           game.variant, label, {s.option: True for s in on},
                                           note))
        return tuple(out)

    def check(self) -> None:
        """ValueError naming what is wrong with the descriptor."""
        if not self.id:
            raise ValueError("a window family needs the id of its engine family")
        if (self.games or self.switches) and not self.label:
            raise ValueError(f"window family {self.id!r}: a family with games or switches "
                             "needs a label for the setup screen's list")
        for g in self.games:
            if not g.variant or not g.label or not g.line:
                raise ValueError(f"window family {self.id!r}: a game needs a variant, a "
                                 f"label and a line on what differs ({g!r})")
        for s in self.switches:
            if not s.option or not s.label:
                raise ValueError(f"window family {self.id!r}: a switch needs an option "
                                 f"and a label ({s!r})")
        if self.switches and not self.games:
            raise ValueError(f"window family {self.id!r}: switches are offered for its "
                             "games: name at least one game")
        keys = [c.key for c in self.setup_choices()]
        for c in self.choices:
            if not c.key or not c.variant or not c.label:
                raise ValueError(f"window family {self.id!r}: a setup choice needs a key, "
                                 f"a variant and a label ({c!r})")
        if len(set(keys)) != len(keys):
            raise ValueError(f"window family {self.id!r}: two setup choices have the same "
                             f"key ({', '.join(keys)})")


def install(family: WindowFamily) -> WindowFamily:
    """Put ``family``'s parts where the window looks for them (the registries)."""
    from ttr_desktop.ui import cards, log_text, session
    from ttr_desktop.ui.scenes import board_overlays, board_panels, scoring_words

    family.check()
    grouped = {c.key for c in family.setup_choices()[len(family.choices):]}
    # A family installed again: the combinations it no longer has are no longer offered.
    for key in [k for k, fid in CHOICE_FAMILY.items() if fid == family.id]:
        del CHOICE_FAMILY[key]
        if key not in grouped:
            session.VARIANT_CHOICES.pop(key, None)
            NOTES.pop(key, None)
    for c in family.setup_choices():
        session.register_choice(c.key, c.variant, dict(c.options), c.label)
        if c.note:
            register_note(c.key, c.note)
        if c.key in grouped:
            CHOICE_FAMILY[c.key] = family.id
    for phase, factory in family.overlays.items():
        board_overlays.register_phase_overlay(phase, factory)
    log_text.EVENT_LINES.update(family.event_lines)
    log_text.SUMMARY_EVENTS.update(family.summary_events)
    scoring_words.PART_LABELS.update(family.part_labels)
    for variant in family.variants:      # each game of the family is played the same way
        if family.painter is not None:
            board_panels.BOARD_PAINTERS[variant] = family.painter
        if family.aside_height:
            board_panels.ASIDE_HEIGHT[variant] = family.aside_height
        if family.aside_used is not None:
            board_panels.ASIDE_USED[variant] = family.aside_used
        if family.slip_words is not None:
            scoring_words.SLIP_WORDS[variant] = family.slip_words
        if family.route_tip is not None:
            ROUTE_TIP_LINES[variant] = family.route_tip
        if family.seat_options is not None:
            session.register_seat_options(variant, family.seat_options)
    for name, painter in family.card_painters.items():
        cards.CARD_PAINTERS.setdefault(name, painter)
    INSTALLED[family.id] = family
    return family


def register_window_family(family: WindowFamily) -> WindowFamily:
    """Add (or replace) a family's window part at run time: code outside the project."""
    load_all()
    return install(family)


def window_families() -> tuple[WindowFamily, ...]:
    """Every installed window descriptor: the shipped ones in order, then later ones."""
    load_all()
    return tuple(INSTALLED.values())


def family_of(variant: str) -> WindowFamily | None:
    """The installed window descriptor of the family that plays ``variant`` (its id or
    one of its games), or None."""
    load_all()
    if variant in INSTALLED:
        return INSTALLED[variant]
    return next((f for f in INSTALLED.values() if variant in f.variants), None)


def load_all() -> None:
    """Install the shipped families' window parts in the list's order (once); then import
    any family file here the list does not name yet (it registers itself)."""
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    from ttr_desktop.ui.families import shipped

    for family in shipped.SHIPPED:
        install(family)
    known = set(shipped.MODULES) | {"shipped"}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name not in known and not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")


__all__ = ["CHOICE_FAMILY", "INSTALLED", "NOTES", "ROUTE_TIP_LINES", "SetupChoice", "SetupGame",
           "SetupSwitch", "WindowFamily", "family_of", "install", "load_all", "register_note",
           "register_window_family", "window_families"]
