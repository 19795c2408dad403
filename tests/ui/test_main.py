"""The program's entry: --selftest, and an unexpected error shown and logged, not a vanished window."""

from __future__ import annotations

import os
import subprocess
import sys

import pygame

from ttr_desktop import __main__ as entry
from ttr_desktop import selftest


def test_selftest_passes_as_a_player_would_run_it(tmp_path):
    env = dict(os.environ, TTR_DESKTOP_HOME=str(tmp_path), SDL_VIDEODRIVER="dummy",
               SDL_AUDIODRIVER="dummy")
    out = subprocess.run([sys.executable, "-m", "ttr_desktop", "--selftest"], env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "self-test passed" in out.stdout
    assert "scoring screen" in out.stdout
    assert "online table final scores" in out.stdout


def test_selftest_failure_exits_non_zero_with_the_reason(home, monkeypatch, capsys):
    import ttr_desktop.maps as maps

    monkeypatch.setattr(maps, "available_maps", lambda: ["usa"])
    assert selftest.run() == 1
    out = capsys.readouterr().out
    assert "SELF-TEST FAILED" in out and "europe map is missing" in out


def test_an_unexpected_error_is_logged_and_shown_in_a_dialog(home, monkeypatch, capsys):
    from ttr_desktop.ui.scenes.menu import MenuScene

    def broken(self, dt):
        raise RuntimeError("a wheel came off")

    shown = []
    monkeypatch.setattr(MenuScene, "update", broken)
    monkeypatch.setattr(pygame.display, "message_box",
                        lambda title, message, **kw: shown.append((title, message)))
    assert entry.main(["--size", "1280x720"]) == 1
    assert shown and "a wheel came off" in shown[0][1]
    assert "Continue" in shown[0][1]
    log_file = home / "logs" / "ttr-desktop.log"
    text = log_file.read_text()
    assert "RuntimeError: a wheel came off" in text and "Traceback" in text
    assert "a wheel came off" in capsys.readouterr().err
