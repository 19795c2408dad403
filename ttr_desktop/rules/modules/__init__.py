"""Rule modules: each adds what its family needs; the core knows none of them.

Modules register themselves with ``register_module``; ``make_modules`` builds
the ones a ruleset names. Importing this package imports the shipped modules.
"""

from __future__ import annotations

from typing import Any

from ttr_desktop.rules.modules.base import RuleModule

_REGISTRY: dict[str, type[RuleModule]] = {}


def register_module(cls: type[RuleModule]) -> type[RuleModule]:
    """Class decorator: make a module known by its ``name``."""
    if not cls.name:
        raise ValueError("a rule module needs a name")
    _REGISTRY[cls.name] = cls
    return cls


def known_module(name: str) -> bool:
    """Whether ``name`` is a registered module."""
    _load()
    return name in _REGISTRY


def module_knobs(names: tuple[str, ...]) -> dict[str, Any]:
    """The knobs (name -> default) of the named modules."""
    _load()
    out: dict[str, Any] = {}
    for name in names:
        cls = _REGISTRY.get(name)
        if cls is not None:
            out.update(cls.knobs)
    return out


def make_modules(names: tuple[str, ...]) -> list[RuleModule]:
    """Module objects for ``names``, in order; ValueError for an unknown name."""
    _load()
    out = []
    for name in names:
        cls = _REGISTRY.get(name)
        if cls is None:
            raise ValueError(f"unknown rule module {name!r}")
        out.append(cls())
    return out


def module_class(name: str) -> type[RuleModule]:
    """The registered class of module ``name`` (KeyError if unknown)."""
    _load()
    return _REGISTRY[name]


_LOADED = False


def _load() -> None:
    """Import every module in this package (each registers itself, and a family's
    module file also registers its variants)."""
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    import importlib
    import pkgutil

    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name != "base":
            importlib.import_module(f"{__name__}.{info.name}")


def load_all() -> None:
    """Make sure every shipped module and family variant is registered."""
    _load()


__all__ = ["RuleModule", "known_module", "make_modules", "module_class", "module_knobs",
           "register_module"]
