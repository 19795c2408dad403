"""Rule modules: each adds what its family needs; the core knows none of them."""

from __future__ import annotations

from ttr_desktop.rules.modules.base import RuleModule


def make_modules(names: tuple[str, ...]) -> list[RuleModule]:
    """Module objects for ``names``, in order; ValueError for an unknown name."""
    from ttr_desktop.rules.modules.ferries import Ferries
    from ttr_desktop.rules.modules.stations import Stations
    from ttr_desktop.rules.modules.tunnels import Tunnels

    known = {m.name: m for m in (Stations, Tunnels, Ferries)}
    out = []
    for name in names:
        if name not in known:
            raise ValueError(f"unknown rule module {name!r}")
        out.append(known[name]())
    return out


__all__ = ["RuleModule", "make_modules"]
