"""Every rule family the engine plays has its window part, described in one list: the setup
screen offers the families in the engine's order, every decision of a family's modules has
a panel, every event it logs has words and every part of its score has a name."""

from __future__ import annotations

import inspect
import re

import pygame
import pytest

from tests.ui.conftest import click, key, step
from ttr_desktop.resources import resource_path
from ttr_desktop.rules.family import SHIPPED as ENGINE_SHIPPED
from ttr_desktop.ui import log_text
from ttr_desktop.ui.families import (
    CHOICE_FAMILY, INSTALLED, NOTES, SetupChoice, SetupGame, SetupSwitch, WindowFamily,
    family_of, register_window_family, window_families,
)
from ttr_desktop.ui.families.shipped import SHIPPED
from ttr_desktop.ui.scenes import board_overlays
from ttr_desktop.ui.scenes.menu import MenuScene
from ttr_desktop.ui.scenes.scoring_words import PART_LABELS
from ttr_desktop.ui.session import VARIANT_CHOICES

#: The setup screen's list: a family with several games (USA 1910) is one entry.
SETUP_ORDER = ["USA", "USA with Stations", "USA 1910", "Europe", "Nordic Countries",
               "Märklin (Germany)", "Legacy: Legends of the West", "Old West",
               "Old West with Alvin", "County Durham (coal)"]
#: Every choice the setup screen can make, as the saves list names it.
CHOICE_ORDER = ["USA", "USA with Stations", "USA 1910", "USA 1910 with Stations",
                "USA 1910: Mega Game", "USA 1910: Mega Game with Stations",
                "USA 1910: Big Cities", "USA 1910: Big Cities with Stations", "Europe",
                "Nordic Countries", "Märklin (Germany)", "Legacy: Legends of the West",
                "Old West", "Old West with Alvin", "County Durham (coal)"]


def _window(family_id: str) -> WindowFamily:
    return INSTALLED[family_id]


def _modules(family):
    return [m for m in family.modules]


def test_the_window_list_follows_the_engine_list():
    assert [w.id for w in SHIPPED] == [f.id for f in ENGINE_SHIPPED]


@pytest.mark.parametrize("family", ENGINE_SHIPPED, ids=lambda f: f.id)
def test_every_engine_family_has_a_window_part(family):
    # The shipped list (families registered by tests to try the engine need no window).
    window_families()
    assert family.id in INSTALLED, f"{family.label} has no window descriptor"
    window = _window(family.id)
    choices = window.setup_choices()
    # Every game of the family is offered, and nothing else.
    assert choices and {c.variant for c in choices} == set(family.variants)
    if family.games:
        assert [g.variant for g in window.games] == list(family.variants)
        assert [g.label for g in window.games] == [g.label for g in family.games]
        for switch in window.switches:     # an optional module of every game, named alike
            for game in family.each_game():
                assert switch.option in game.ruleset.optional_modules
            assert switch.label == family.label_of(switch.option)
    for c in choices:
        assert VARIANT_CHOICES[c.key] == (c.variant, dict(c.options), c.label)
        assert NOTES[c.key], f"{c.label} has no description on the setup screen"


def test_the_setup_screen_offers_the_families_in_the_lists_order(app):
    app.push(MenuScene(app))
    step(app, 2)
    key(app, pygame.K_RETURN)
    setup = app.top
    assert setup.variant_key == "usa"
    shown = [VARIANT_CHOICES[k][2] for k in VARIANT_CHOICES]
    assert shown[:len(CHOICE_ORDER)] == CHOICE_ORDER
    click(app, setup.variant_menu.rect.center)
    step(app, 2)
    assert setup.variant_menu.options_list[:len(SETUP_ORDER)] in (
        SETUP_ORDER, [(label, label) for label in SETUP_ORDER])


@pytest.mark.parametrize("family", ENGINE_SHIPPED, ids=lambda f: f.id)
def test_every_decision_of_a_familys_modules_has_a_panel(family):
    window = _window(family.id)
    for module in _modules(family):
        for phase in module.phases:
            assert phase in window.overlays or phase in window.step_phases, (
                f"{family.label}: the {module.name} phase {phase!r} has neither an overlay "
                "nor is it declared to the generic step panel")
            if phase in window.overlays:
                assert board_overlays.PHASE_OVERLAYS[phase] is window.overlays[phase]


def _emitted(module) -> set[str]:
    source = inspect.getsource(inspect.getmodule(module))
    return set(re.findall(r'ctx\.emit\(\s*"(\w+)"', source))


@pytest.mark.parametrize("family", ENGINE_SHIPPED, ids=lambda f: f.id)
def test_every_event_a_familys_modules_log_has_words(family):
    window = _window(family.id)
    for module in _modules(family):
        for kind in sorted(_emitted(module)):
            assert (kind in window.event_lines or kind in log_text.WORDED
                    or kind in window.silent_events), (
                f"{family.label}: the {module.name} event {kind!r} has no log line and is "
                "not declared silent")
            if kind in window.event_lines:
                assert log_text.EVENT_LINES[kind] is window.event_lines[kind]


def _module_parts(module) -> set[str]:
    if "score_parts" not in vars(module):
        return set()
    return set(re.findall(r'\{\s*"(\w+)":', inspect.getsource(module.score_parts)))


@pytest.mark.parametrize("family", ENGINE_SHIPPED, ids=lambda f: f.id)
def test_every_score_part_has_a_label(family):
    window = _window(family.id)
    parts = set(family.ruleset.score_parts)
    for module in _modules(family):
        parts |= _module_parts(module)
    for part in sorted(parts):
        label = window.part_labels.get(part) or PART_LABELS.get(part)
        assert label, f"{family.label}: the score part {part!r} has no label"
        assert PART_LABELS[part] == label


@pytest.mark.parametrize("window", SHIPPED, ids=lambda w: w.id)
def test_a_familys_rules_page_exists(window):
    if window.rules_page is not None:
        assert (resource_path("assets", "rules") / window.rules_page).is_file()


def test_the_rules_pages_follow_the_list():
    from ttr_desktop.ui.scenes.rules import load_rules_text
    text = load_rules_text()
    heads = [text.index(h) for h in ("## USA 1910", "## Märklin", "## Legacy", "## Old West",
                                     "## County Durham")]
    assert heads == sorted(heads)


def test_a_family_added_at_run_time_is_offered_after_the_shipped_ones(monkeypatch):
    monkeypatch.setattr("ttr_desktop.ui.families.INSTALLED", dict(INSTALLED))
    before = dict(VARIANT_CHOICES)
    try:
        register_window_family(WindowFamily(
            "usa", choices=(SetupChoice("usa-short", "usa", "USA (short)",
                                        {"stations": True}, "A test choice."),)))
        assert list(VARIANT_CHOICES)[-1] == "usa-short"
        assert NOTES["usa-short"] == "A test choice."
    finally:
        VARIANT_CHOICES.clear()
        VARIANT_CHOICES.update(before)
        NOTES.pop("usa-short", None)


def test_a_descriptor_without_a_label_is_refused_by_name():
    with pytest.raises(ValueError, match="needs a key, a variant and a label"):
        WindowFamily("usa", choices=(SetupChoice("x", "usa", ""),)).check()


@pytest.mark.parametrize("window", SHIPPED, ids=lambda w: w.id)
def test_the_rules_screen_opens_at_the_familys_own_section(window):
    from ttr_desktop.ui.scenes.rules import family_section, load_rules_text
    titles = re.findall(r"^#+ (.*)", load_rules_text(), re.M)
    found = family_section(window.id, titles)
    if window.rules_section is None:
        assert found is None            # the base game opens at the top
    else:
        assert found is not None and found.startswith(window.rules_section)


# A family with several games ------------------------------------------------------------
def test_a_family_with_games_is_one_entry_and_each_combination_a_setup_choice():
    from ttr_desktop.ui.scenes import board_panels
    from ttr_desktop.ui.scenes.setup_choices import (
        entry_label, game_and_switches, menu_entries,
    )

    window_families()
    before = [dict(r) for r in (INSTALLED, CHOICE_FAMILY, VARIANT_CHOICES, NOTES,
                                board_panels.BOARD_PAINTERS)]

    def painter(board, surface):
        return None

    try:
        register_window_family(WindowFamily(
            "usa-1910", label="Nineteen-ten", painter=painter,
            games=(SetupGame("usa-1910", "First", "Deal 3", note="The first."),
                   SetupGame("usa-1910-mega", "Mega", "Deal 5", title="The mega one")),
            switches=(SetupSwitch("stations", "Stations", "3 each", note="With stations."),)))
        keys = [k for k, fid in CHOICE_FAMILY.items() if fid == "usa-1910"]
        assert keys == ["usa-1910", "usa-1910+stations", "usa-1910-mega",
                        "usa-1910-mega+stations"]
        assert VARIANT_CHOICES["usa-1910+stations"] == (
            "usa-1910", {"stations": True}, "Nineteen-ten: First with Stations")
        assert VARIANT_CHOICES["usa-1910-mega"][2] == "The mega one"
        assert NOTES["usa-1910-mega+stations"] == "Deal 5 With stations."
        assert [label for label, _ in menu_entries()].count("Nineteen-ten") == 1
        assert "usa-1910-big-cities" not in VARIANT_CHOICES   # the game it no longer has
        assert "USA 1910" not in [label for label, _ in menu_entries()]
        assert entry_label("usa-1910-mega+stations") == "Nineteen-ten"
        assert game_and_switches("usa-1910-mega+stations") == (
            "usa-1910-mega", frozenset({"stations"}))
        assert family_of("usa-1910-mega").label == "Nineteen-ten"
        # Each game is drawn the family's way.
        assert board_panels.BOARD_PAINTERS["usa-1910-mega"] is painter
    finally:
        for registry, saved in zip((INSTALLED, CHOICE_FAMILY, VARIANT_CHOICES, NOTES,
                                    board_panels.BOARD_PAINTERS), before):
            registry.clear()
            registry.update(saved)


@pytest.mark.parametrize("family, problem", [
    (WindowFamily("x", games=(SetupGame("usa", "USA", "line"),)), "needs a label"),
    (WindowFamily("x", label="X", games=(SetupGame("usa", "USA", ""),)),
     "a game needs a variant, a label and a line"),
    (WindowFamily("x", label="X", switches=(SetupSwitch("stations", "Stations"),)),
     "name at least one game"),
    (WindowFamily("x", label="X", games=(SetupGame("usa", "USA", "line"),),
                  switches=(SetupSwitch("", "Stations"),)), "a switch needs an option"),
    (WindowFamily("x", label="X", choices=(SetupChoice("usa", "usa", "USA"),),
                  games=(SetupGame("usa", "USA", "line"),)), "two setup choices have the same"),
])
def test_a_family_whose_games_do_not_fit_is_refused_by_name(family, problem):
    with pytest.raises(ValueError, match=problem):
        family.check()
