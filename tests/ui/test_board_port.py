"""The panels over the board (the core's overlays, every family's overlays, painters and
route tips) use the board only through its port: the game as the table sees it (views,
legal actions, events) and requests (perform, take back), never the board scene's own
members nor the engine game — so the board could drive a game running elsewhere."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pygame
import pytest

from ttr_desktop.rules.family import SHIPPED as ENGINE_SHIPPED
from ttr_desktop.ui.families import INSTALLED, window_families
from ttr_desktop.ui.scenes.board import BoardScene
from ttr_desktop.ui.scenes.board_overlays import overlay_for
from ttr_desktop.ui.scenes.board_port import BoardPort, LocalTable
from ttr_desktop.ui.session import VARIANT_CHOICES, GameSession, SeatConfig

UI = Path(__file__).resolve().parents[2] / "ttr_desktop" / "ui"
#: Every file whose code draws over the board or answers its decisions (the Legacy
#: campaign's screens, also under ui/families, are scenes of their own).
PANEL_FILES = [UI / "scenes" / "board_overlays.py", UI / "scenes" / "overlays.py",
               *sorted(p for p in (UI / "families").glob("*.py")
                       if not p.name.startswith("legacy_campaign"))]
USE = re.compile(r"\b(?:self\.board|board|scene|board_scene)\.([A-Za-z_]\w*)")


@pytest.mark.parametrize("path", PANEL_FILES, ids=lambda p: p.name)
def test_panels_use_only_the_ports_members(path):
    source = path.read_text(encoding="utf-8")
    strays = sorted({f"{m.group(0)} (line {source.count(chr(10), 0, m.start()) + 1})"
                     for m in USE.finditer(source) if m.group(1) not in BoardPort.MEMBERS})
    assert not strays, f"{path.name} reaches past the board's port: {strays}"
    assert "import BoardScene" not in source and "board import BoardScene" not in source


def test_the_port_hands_out_no_engine_game(app):
    seats = [SeatConfig("Ann", "human", color="red"), SeatConfig("Bea", "human", color="blue")]
    scene = BoardScene(app, GameSession.new("usa", seats, seed=1))
    port = scene.port
    assert not hasattr(port, "game") and not hasattr(port, "session")
    assert not hasattr(port.table, "apply") and not hasattr(port.table, "state")
    assert set(vars(BoardPort)) >= BoardPort.MEMBERS - {"table", "memo"}


class RecordingPort(BoardPort):
    """The port of a real board scene whose requests are written down, not carried out:
    a panel that needed more than the port would fail here."""

    def __init__(self, scene) -> None:
        super().__init__(scene, LocalTable(scene.session))
        self.requests: list[tuple] = []

    def perform(self, action) -> None:
        self.requests.append(("perform", action))

    def refuse(self, problem: str, seconds: float = 4) -> None:
        self.requests.append(("refuse", problem))

    def take_back(self) -> None:
        self.requests.append(("take_back",))


def _reach(game, phases, rng, steps=900) -> bool:
    for _ in range(steps):
        if game.phase in phases:
            return True
        if game.is_over:
            return False
        game.apply(rng.choice(game.legal_actions()))
    return game.phase in phases


def _choices_with_panels():
    window_families()
    out = []
    for family in ENGINE_SHIPPED:
        window = INSTALLED[family.id]
        if window.overlays:
            key = window.setup_choices()[-1].key   # the fullest choice (Old West with Alvin)
            out.append(pytest.param(key, id=key))
    return out


@pytest.mark.parametrize("choice", _choices_with_panels())
def test_a_familys_panel_asks_and_answers_through_the_port(app, choice):
    variant = VARIANT_CHOICES[choice][0]
    window = INSTALLED[variant]
    seats = [SeatConfig("Ann", "human", color="red"), SeatConfig("Bea", "human", color="blue")]
    session = GameSession.new(choice, seats, seed=3)
    rng = random.Random(7)
    assert _reach(session.game, set(window.overlays), rng), "the game never asked the panel"
    scene = BoardScene(app, session)
    scene.viewer = session.game.current_seat
    port = RecordingPort(scene)
    version = session.game.version
    legal = session.game.legal_actions()

    panel = overlay_for(port, session.game.phase)
    assert panel is not None and panel.board is port
    app.push(panel)
    panel.draw(pygame.Surface(app.size))
    panel.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_1, mod=0,
                                          unicode="1", scancode=0))
    if not port.requests:
        button = next(b for b in panel.buttons if b.enabled)
        for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            panel.handle_event(pygame.event.Event(kind, pos=button.rect.center, button=1))
    performed = [r[1] for r in port.requests if r[0] == "perform"]
    assert len(performed) == 1 and performed[0] in legal
    assert session.game.version == version     # the panel asked; it did not play


@pytest.mark.parametrize("family", ["legacy", "marklin"])
def test_a_familys_painter_draws_through_the_port(app, family):
    seats = [SeatConfig("Ann", "human", color="red"), SeatConfig("Bea", "human", color="blue")]
    session = GameSession.new(family, seats, seed=2)
    _reach(session.game, set(), random.Random(1), steps=40)
    scene = BoardScene(app, session)
    port = RecordingPort(scene)
    INSTALLED[family].painter(port, pygame.Surface(app.size))
    assert not port.requests


def test_old_wests_route_tip_reads_the_table(app):
    seats = [SeatConfig("Ann", "human", color="red"), SeatConfig("Bea", "human", color="blue")]
    session = GameSession.new("old-west", seats, seed=2)
    port = RecordingPort(BoardScene(app, session))
    tip = INSTALLED["old-west"].route_tip
    for rid in list(session.game.map.routes)[:20]:
        assert isinstance(tip(port, rid), list)
