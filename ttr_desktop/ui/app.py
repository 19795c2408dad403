"""The window: the pygame loop and the scene stack.

Loop order (one frame): ``dt = clock.tick(60) / 1000``; events go to the top
scene; ``update(dt)`` for the top scene (and running overlays' base); draw
from the topmost opaque scene up; flip.

The window only draws when it has to: while something moves (an animation, a fading
toast, a bot to poll) frames run at 60 fps; when every running scene stands still
(``Scene.next_wake``) the loop sleeps (``App.wait``) until input comes or the next timer
is due, and draws only then, so a screen waiting for a person costs next to no CPU.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from pathlib import Path

import pygame

from ttr_desktop.paths import UserPaths, user_paths
from ttr_desktop.persistence.settings import Settings, load_settings, save_settings
from ttr_desktop.resources import resource_path
from ttr_desktop.ui import style
from ttr_desktop.ui.scene import Scene
from ttr_desktop.ui.sound import Sound

MIN_SIZE = (1280, 720)
#: Seconds a toast takes to fade out.
FADE = 0.4
#: The most a frame advances the scenes while frames run back to back (a stall, such as
#: a window being dragged, does not jump the animations); time spent asleep is added.
MAX_DT = 0.1
#: How often a toast that may end early (``until``) is looked at while nothing else moves.
TOAST_POLL = 0.1
#: While the window sleeps it looks for input this often (seconds): quick enough that a
#: click answers within a frame, rare enough to cost next to nothing.
WAIT_SLICE = 0.01
#: Input a long piece of work drops when it ends (``drop_pending_input``): a key or a
#: click made while the window could not answer was aimed at the screen shown then.
INPUT_EVENTS = (pygame.KEYDOWN, pygame.KEYUP, pygame.TEXTINPUT, pygame.TEXTEDITING,
                pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEWHEEL)
log = logging.getLogger("ttr_desktop")


class Toast:
    """A short message shown for a few seconds at the top of the window."""

    def __init__(self, message: str, seconds: float = 3.5, kind: str = "info",
                 until: Callable[[], bool] | None = None) -> None:
        self.message = message
        self.left = seconds
        self.kind = kind
        #: Fade out early once this holds (a "wait" that is over says nothing any more).
        self.until = until
        #: Its wrapped lines and size on screen (set when first laid out).
        self.lines: list[str] | None = None
        self.size = (0, 0)
        #: The width the lines were wrapped to.
        self.wrap = 0


class App:
    """Owns the window, the clock, the scene stack, settings, sound and user paths."""

    def __init__(self, size: tuple[int, int] | None = None, paths: UserPaths | None = None,
                 fps: int = 60) -> None:
        self.paths = paths or user_paths()
        self.settings, settings_msg = load_settings(self.paths.settings_file)
        #: What went wrong at start (a damaged settings file...): the title screen shows it.
        self.notices: list[str] = []
        if settings_msg:
            log.warning("settings: %s", settings_msg)
            self.notices.append(settings_msg)
        pygame.init()
        style.reset_caches()
        pygame.display.set_caption("ttr-desktop — Ticket to Ride")
        if size is None:
            size = (self.settings.window_width, self.settings.window_height)
            info = pygame.display.Info()
            if info.current_w > 0 and info.current_h > 0:
                size = (min(size[0], info.current_w), min(size[1], info.current_h - 60))
        size = (max(MIN_SIZE[0], size[0]), max(MIN_SIZE[1], size[1]))
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        try:
            icon = pygame.image.load(str(resource_path("assets", "icon.png")))
            pygame.display.set_icon(icon)
        except (pygame.error, FileNotFoundError):
            pass
        self.clock = pygame.time.Clock()
        self.fps = fps
        self.scenes: list[Scene] = []
        self.running = True
        self.sound = Sound(self.settings)
        self.toasts: list[Toast] = []
        self.frame_times: list[float] = []
        #: Frames drawn so far (the tests and the bench count them).
        self.frames = 0
        #: Seconds the last ``frame()`` slept waiting for input or a timer.
        self.slept = 0.0
        #: The time source of ``wake_in`` (seconds; tests give a simulated one).
        self.monotonic: Callable[[], float] = time.monotonic
        #: ``monotonic()`` by which something asked to be drawn again (``wake_in``).
        self._wake_at: float | None = None
        #: The scene stack changed since the last frame: the uncovered scene gets a frame.
        self._stack_changed = True
        #: The rest of this frame's input is dropped (``drop_pending_input``).
        self._drop_input = False
        #: The last note ``show_busy`` put on screen (the tests read it).
        self.busy_note_shown: str | None = None
        self.theme_path = str(resource_path("assets", "theme.json"))

    # Scene stack ---------------------------------------------------------
    @property
    def size(self) -> tuple[int, int]:
        """Current window size."""
        return self.screen.get_size()

    @property
    def top(self) -> Scene | None:
        """The scene that receives events."""
        return self.scenes[-1] if self.scenes else None

    def push(self, scene: Scene) -> Scene:
        """Put ``scene`` on top."""
        if self.scenes:
            self.scenes[-1].pause()
        self.scenes.append(scene)
        self._stack_changed = True
        scene.resize(self.size)
        scene.enter()
        return scene

    def pop(self, scene: Scene | None = None) -> Scene | None:
        """Remove the top scene (or ``scene`` and everything above it)."""
        if not self.scenes:
            return None
        if scene is not None and scene in self.scenes:
            while self.scenes and self.scenes[-1] is not scene:
                self.pop()
        top = self.scenes.pop()
        self._stack_changed = True
        top.exit()
        if self.scenes:
            self.scenes[-1].resume()
        return top

    def replace(self, scene: Scene) -> Scene:
        """Clear the stack and show ``scene``."""
        while self.scenes:
            self.scenes.pop().exit()
        self._stack_changed = True
        return self.push(scene)

    def find(self, kind: type) -> Scene | None:
        """The topmost scene of type ``kind``."""
        for scene in reversed(self.scenes):
            if isinstance(scene, kind):
                return scene
        return None

    # Services ------------------------------------------------------------
    def toast(self, message: str, seconds: float = 3.5, kind: str = "info",
              until: Callable[[], bool] | None = None) -> None:
        """Show a short message (faded out early once ``until()`` holds, when given)."""
        self.toasts.append(Toast(message, seconds, kind, until))
        self.toasts = self.toasts[-4:]

    def take_notices(self) -> list[str]:
        """The start-up notices, once (the first title screen shows them)."""
        notices, self.notices = self.notices, []
        return notices

    def apply_settings(self, settings: Settings) -> None:
        """Use and store new settings; a write failure is shown, never fatal."""
        self.settings = settings
        self.sound.configure(settings)
        try:
            save_settings(settings, self.paths.settings_file)
        except OSError as exc:
            self.toast(f"Settings could not be saved: {exc}", 6, "error")

    def quit(self) -> None:
        """Stop the loop."""
        self.running = False

    def wake_in(self, seconds: float) -> None:
        """Draw again within ``seconds`` even if no scene asks to (something drawn for a
        while, such as a badge that goes after a few seconds)."""
        at = self.monotonic() + max(0.0, seconds)
        if self._wake_at is None or at < self._wake_at:
            self._wake_at = at

    # Loop ----------------------------------------------------------------
    def live_scenes(self) -> list[Scene]:
        """The scenes updated and drawn each frame: the topmost opaque one and those above."""
        start = len(self.scenes) - 1
        while start > 0 and not self.scenes[start].opaque:
            start -= 1
        return self.scenes[max(start, 0):]

    def next_wake(self) -> float | None:
        """Seconds until the window must draw again when no input comes: 0.0 while
        anything moves, else the soonest timer of the live scenes and the toasts (or of a
        ``wake_in``), None when only input can change the screen."""
        if self._stack_changed:
            return 0.0
        waits = [scene.next_wake() if hasattr(scene, "next_wake") else 0.0
                 for scene in self.live_scenes()]
        for toast in self.toasts:
            showing = toast.left - FADE
            if showing <= 0:
                waits.append(0.0)                       # fading out
            else:
                waits.append(showing if toast.until is None else min(showing, TOAST_POLL))
        if self._wake_at is not None:
            waits.append(max(0.0, self._wake_at - self.monotonic()))
        due = [w for w in waits if w is not None]
        return max(0.0, min(due)) if due else None

    def frame(self) -> None:
        """One turn of the main loop: a frame at ``fps`` while something moves; when all
        stands still, sleep until input comes or the next timer is due, then one frame."""
        wake = self.next_wake()
        if wake is not None and wake < 1.0 / self.fps:
            self.step()
            return
        events = self.wait(wake)
        self.step(events=events)

    def show_busy(self, note: str) -> None:
        """Put ``note`` on screen at once, over what is shown, before a piece of work that
        keeps the window from drawing (building a board): the player sees it is working."""
        self.draw()
        font = style.font(22, True)
        w, h = font.size(note)
        rect = pygame.Rect(0, 0, w + 64, h + 36)
        rect.center = self.screen.get_rect().center
        pygame.draw.rect(self.screen, style.PANEL, rect, border_radius=12)
        pygame.draw.rect(self.screen, style.INK, rect, 2, border_radius=12)
        self.screen.blit(style.text(note, 22, style.INK, bold=True),
                         (rect.x + 32, rect.y + 18))
        pygame.display.flip()
        pygame.event.pump()
        self.busy_note_shown = note

    def drop_pending_input(self) -> None:
        """Forget the keys and clicks made during a piece of work that froze the window
        (queued, or still to be handed out this frame): they were aimed at the screen
        shown before it, and must not act on the new one."""
        pygame.event.clear(INPUT_EVENTS)
        self._drop_input = True

    def wait(self, timeout: float | None) -> list[pygame.event.Event]:
        """Sleep until events come (returned) or ``timeout`` seconds pass (None: no
        timeout); ``slept`` says how long it took. The queue is looked at every
        ``WAIT_SLICE`` (``pygame.event.wait`` looks every millisecond, which alone costs
        2-4 % of a core)."""
        start = time.perf_counter()
        end = None if timeout is None else start + timeout
        while True:
            events = pygame.event.get()
            now = time.perf_counter()
            if events or (end is not None and now >= end):
                break
            time.sleep(WAIT_SLICE if end is None else min(WAIT_SLICE, end - now))
        self.slept = now - start
        return events

    def step(self, dt: float | None = None,
             events: list[pygame.event.Event] | None = None) -> None:
        """One frame: events, update, draw, flip. Tests call this directly."""
        asleep = 0.0
        if dt is None:
            dt = self.clock.tick(self.fps) / 1000.0
            asleep = min(self.slept, dt)
            dt = min(dt - asleep, MAX_DT)
        else:
            dt = min(dt, MAX_DT)
        events = [*(events or ()), *pygame.event.get()]
        self.slept = 0.0
        self._stack_changed = False
        self._drop_input = False
        if self._wake_at is not None and self._wake_at <= self.monotonic():
            self._wake_at = None
        if asleep > 0 and self.scenes:
            if events:
                self.update(asleep)     # the time asleep came before the input
            else:
                dt += asleep            # woken by a timer: it is all this frame's
        for event in events:
            if self._drop_input and event.type in INPUT_EVENTS:
                continue
            self.dispatch(event)
        if not self.scenes:
            self.running = False
            return
        self.update(dt)
        start = time.perf_counter()
        self.draw()
        pygame.display.flip()
        self.frames += 1
        self.frame_times.append(time.perf_counter() - start)
        if len(self.frame_times) > 600:
            del self.frame_times[:300]

    def dispatch(self, event: pygame.event.Event) -> None:
        """Hand one event to the top scene (window events are handled here)."""
        if event.type == pygame.QUIT:
            self.running = False
            return
        if event.type == pygame.VIDEORESIZE:
            w, h = max(MIN_SIZE[0], event.w), max(MIN_SIZE[1], event.h)
            if (w, h) != (event.w, event.h):
                self.screen = pygame.display.set_mode((w, h), pygame.RESIZABLE)
            for scene in self.scenes:
                scene.resize((w, h))
            if not self.settings.fullscreen and (w, h) != (self.settings.window_width,
                                                           self.settings.window_height):
                from dataclasses import replace
                self.settings = replace(self.settings, window_width=w, window_height=h)
                try:
                    save_settings(self.settings, self.paths.settings_file)
                except OSError:
                    pass
            return
        top = self.top
        if top is not None:
            top.handle_event(event)

    def update(self, dt: float) -> None:
        """Advance the top scene and toasts; scenes under an overlay keep animating."""
        for toast in self.toasts:
            toast.left -= dt
            if toast.until is not None and toast.left > FADE and toast.until():
                toast.left = FADE
        self.toasts = [t for t in self.toasts if t.left > 0]
        for scene in self.live_scenes():
            scene.update(dt)

    def draw(self) -> None:
        """Paint from the topmost opaque scene up, then toasts."""
        for scene in self.live_scenes():
            scene.draw(self.screen)
        self._draw_toasts()

    def toast_rects(self) -> list[pygame.Rect]:
        """Where the toasts stand on screen now, top to bottom (a scene keeps its own notes
        clear of them)."""
        return [rect for _, _, rect in self._toast_layout()]

    def toast_area(self) -> pygame.Rect:
        """Where toasts stack: the top scene's ``toast_area()`` when it has one (the title
        screen keeps them off its title and buttons), else a band across the top under the
        board's header, so a toast never hides whose turn it is."""
        top = self.top
        area = getattr(top, "toast_area", None) if top is not None else None
        rect = area() if callable(area) else None
        if rect is None:
            w = self.screen.get_width()
            rect = pygame.Rect(0, 50, w, self.screen.get_height() - 50)
        return rect

    def _toast_layout(self) -> list[tuple[Toast, list[str], pygame.Rect]]:
        area = self.toast_area()
        wrap = max(120, min(560, area.w - 36))
        y = area.y
        out = []
        for toast in self.toasts:
            if toast.lines is None or toast.wrap != wrap:   # wrapped once per width
                toast.wrap = wrap
                toast.lines = style.wrap(toast.message, 17, wrap)
                toast.size = (max(style.font(17).size(line)[0] for line in toast.lines) + 36,
                              16 + 24 * len(toast.lines))
            lines = toast.lines
            width, height = toast.size
            rect = pygame.Rect(0, y, width, height)
            rect.centerx = area.centerx
            out.append((toast, lines, rect))
            y += height + 8
        return out

    def _draw_toasts(self) -> None:
        for toast, lines, rect in self._toast_layout():
            color = style.BAD if toast.kind == "error" else style.INK
            alpha = min(1.0, toast.left / FADE)
            surf = pygame.Surface(rect.size, pygame.SRCALPHA)
            pygame.draw.rect(surf, (*style.PANEL, int(240 * alpha)), surf.get_rect(),
                             border_radius=10)
            pygame.draw.rect(surf, (*color, int(255 * alpha)), surf.get_rect(), 2,
                             border_radius=10)
            for i, line in enumerate(lines):
                t = style.text(line, 17, color)
                surf.blit(t, (18, 8 + 24 * i))
            self.screen.blit(surf, rect)

    def run(self) -> None:
        """The main loop, until the window closes or the last scene is gone."""
        while self.running:
            self.frame()
        self.shutdown()

    def shutdown(self) -> None:
        """Close the window (scenes get exit())."""
        while self.scenes:
            self.scenes.pop().exit()
        from ttr_desktop.ui.bot_runner import shutdown_workers
        shutdown_workers()
        pygame.quit()
        style.reset_caches()     # fonts and surfaces die with pygame: nothing stale is kept


def configure_logging(paths: UserPaths) -> Path | None:
    """Log to the user's log folder; None when it cannot be written."""
    try:
        paths.log_dir.mkdir(parents=True, exist_ok=True)
        logger = logging.getLogger("ttr_desktop")
        target = os.path.abspath(paths.log_file)
        if not any(isinstance(h, logging.FileHandler) and h.baseFilename == target
                   for h in logger.handlers):
            handler = logging.FileHandler(target, encoding="utf-8")
            handler.setFormatter(logging.Formatter(
                "%(asctime)s %(levelname)s %(name)s: %(message)s"))
            logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        return paths.log_file
    except OSError:
        return None


def headless_env() -> None:
    """Use the dummy video and audio drivers (tests, self-test, benchmarks)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
