"""Starting the window: the title screen comes up without a warning on the console, at
any window size a screen can give (pygame-gui warned when the title screen's scaled
button font was one the theme had loaded already, e.g. at 1600x840: a 1600x900 laptop
screen less the taskbar)."""

from __future__ import annotations

import logging
import warnings

import pytest

from ttr_desktop import __main__ as entry


@pytest.mark.parametrize("size", ["1280x720", "1480x832", "1600x840", "1600x900",
                                  "1920x1020", "2944x1656"])
def test_the_window_starts_without_a_warning(home, size, caplog):
    caplog.set_level(logging.WARNING)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert entry.main(["--size", size, "--menu-probe"]) == 0
    assert [f"{w.category.__name__}: {w.message}" for w in caught] == []
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
