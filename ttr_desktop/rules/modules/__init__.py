"""Rule modules: each adds what its family needs; the core knows none of them.

The shipped modules are registered by the families that use them
(``rules/family.py``: each family descriptor lists its module classes);
``register_module`` makes another one known. ``make_modules`` builds the ones a
ruleset names.
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
    """Register the shipped families, and with them their modules (``rules/family.py``)."""
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    from ttr_desktop.rules.family import load_shipped

    load_shipped()


def load_all() -> None:
    """Make sure every shipped family, its variant and its modules are registered."""
    _load()


__all__ = ["RuleModule", "known_module", "make_modules", "module_class", "module_knobs",
           "register_module"]
