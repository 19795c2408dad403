"""Fixtures for window tests: headless SDL, a private user folder, real input events."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import sys  # noqa: E402
import types  # noqa: E402
from pathlib import Path  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """TTR_DESKTOP_HOME in a temporary folder: no test touches the real user folders."""
    root = tmp_path / "home"
    monkeypatch.setenv("TTR_DESKTOP_HOME", str(root))
    return root


@pytest.fixture
def instant_app(home: Path):
    """A 1280x720 window whose animations are instant (a move lands in one frame)."""
    from dataclasses import replace

    from ttr_desktop.ui.app import App
    application = App(size=(1280, 720))
    application.settings = replace(application.settings, animation_speed="instant")
    yield application
    application.shutdown()


@pytest.fixture
def app(home: Path):
    """A 1280x720 window on the dummy driver; closed afterwards."""
    from ttr_desktop.ui.app import App
    application = App(size=(1280, 720))
    yield application
    application.shutdown()


class StubBoardScene:
    """Stands in for the board scene while the real one does not exist yet."""

    opaque = True

    def __init__(self, app, session) -> None:
        self.app = app
        self.session = session

    def enter(self) -> None: ...
    def exit(self) -> None: ...
    def pause(self) -> None: ...
    def resume(self) -> None: ...
    def handle_event(self, event) -> bool: return False
    def update(self, dt: float) -> None: ...
    def draw(self, surface) -> None: surface.fill((200, 200, 200))
    def resize(self, size) -> None: ...


@pytest.fixture
def board_cls(monkeypatch: pytest.MonkeyPatch):
    """The real BoardScene when it exists, otherwise a stub module in its place."""
    try:
        from ttr_desktop.ui.scenes.board import BoardScene
        return BoardScene
    except ImportError:
        module = types.ModuleType("ttr_desktop.ui.scenes.board")
        module.BoardScene = StubBoardScene
        monkeypatch.setitem(sys.modules, "ttr_desktop.ui.scenes.board", module)
        return StubBoardScene


# Input helpers -------------------------------------------------------------------
def step(app, frames: int = 3) -> None:
    """Run ``frames`` frames at 60 fps."""
    for _ in range(frames):
        app.step(1 / 60)


def click(app, pos, frames: int = 5, button: int = 1) -> None:
    """Move there, press and release the mouse button, then let the scenes react."""
    pos = (int(pos[0]), int(pos[1]))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0),
                                         buttons=(0, 0, 0), touch=False))
    step(app, 1)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button,
                                         touch=False))
    step(app, 1)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button,
                                         touch=False))
    step(app, frames)


def key(app, key_code: int, mod: int = 0, unicode: str = "", frames: int = 3) -> None:
    """Press and release a key."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key_code, mod=mod,
                                         unicode=unicode, scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key_code, mod=mod,
                                         unicode=unicode, scancode=0))
    step(app, frames)


def type_text(app, text: str) -> None:
    """Type ``text`` into the focused field."""
    for ch in text:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    step(app, 3)


def wheel(app, y: int, pos=(640, 360)) -> None:
    """Turn the mouse wheel (negative y scrolls down)."""
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=y, flipped=False,
                                         precise_x=0.0, precise_y=float(y), touch=False))
    step(app, 2)


def ui_elements(scene, kind=None) -> list:
    """The scene's pygame-gui elements (of type ``kind``)."""
    elements = scene.ui.get_sprite_group().sprites() if scene.ui is not None else []
    return [e for e in elements if kind is None or isinstance(e, kind)]


def find_button(scene, text: str):
    """The centre of the visible UIButton labelled ``text`` (AssertionError if none)."""
    from pygame_gui.elements import UIButton
    for element in ui_elements(scene, UIButton):
        if element.text == text and element.visible:
            return element.rect.center
    labels = sorted(e.text for e in ui_elements(scene, UIButton))
    raise AssertionError(f"no button {text!r}; buttons: {labels}")


def button_element(scene, text: str):
    """The UIButton labelled ``text``."""
    from pygame_gui.elements import UIButton
    for element in ui_elements(scene, UIButton):
        if element.text == text and element.visible:
            return element
    raise AssertionError(f"no button {text!r}")
