"""One place that knows where bundled data lives, in a checkout and in a PyInstaller bundle."""

from __future__ import annotations

import sys
from pathlib import Path


def project_root() -> Path:
    """The folder that holds ``maps/`` and ``assets/``.

    In a PyInstaller bundle that is ``sys._MEIPASS``; in a checkout (or an
    editable install) it is the repository root next to the package.
    """
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        return Path(bundle)
    return Path(__file__).resolve().parent.parent


def resource_path(*parts: str) -> Path:
    """Absolute path of a bundled resource, e.g. ``resource_path("maps", "usa.toml")``."""
    return project_root().joinpath(*parts)
