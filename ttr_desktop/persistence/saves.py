"""TOML saves: a format number, the game config and seed, a full state snapshot and the action log.

Writing is atomic (a temporary file in the same folder, then ``os.replace``),
so a crash never leaves half a save and never destroys the previous one.
Loading replays the log from the seed and checks the result against the
snapshot: a loaded game continues exactly as the saved one would, and a
hand-edited or inconsistent file is refused with a message a player can act
on (``SaveError``), never a half-loaded game.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import tomli_w

from ttr_desktop import __version__
from ttr_desktop.persistence.atomic import write_atomically
from ttr_desktop.persistence.autosaves import MAX_SAVE_BYTES
from ttr_desktop.rules import Game, IllegalAction, action_from_dict, new_game
from ttr_desktop.toml_reading import read_toml

SAVE_FORMAT = 2
#: Snapshot entries a format-1 save has that format 2 no longer keeps.
_FORMAT1_ONLY = {"choosing_left"}


class SaveError(Exception):
    """A save could not be written or read; the message says what to do."""


@dataclass
class SaveFile:
    """A loaded save: the game and the free-form ``meta`` table (seat kinds, bot levels...)."""

    game: Game
    meta: dict[str, Any] = field(default_factory=dict)
    saved_at: str = ""


def map_fingerprint(game: Game) -> str:
    """A short hash of everything on the map that affects the rules: a save only replays
    on the same map."""
    return game.map.fingerprint()


def _fingerprint_v1(game: Game) -> str:
    """The fingerprint format-1 saves carry (routes and tickets only)."""
    h = hashlib.sha256()
    for r in game.map.routes.values():
        h.update(f"{r.id}|{r.a}|{r.b}|{r.length}|{r.color}|{r.group}|{r.tunnel}|"
                 f"{r.ferry_locomotives};".encode())
    for t in game.map.tickets:
        h.update(f"{t.id}|{t.a}|{t.b}|{t.points}|{t.long};".encode())
    return h.hexdigest()[:16]


def game_to_dict(game: Game, meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """The whole save as plain TOML-ready data."""
    return {
        "format": SAVE_FORMAT,
        "app": "ttr-desktop",
        "app_version": __version__,
        "saved_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "variant": game.variant,
        "map": game.map.id,
        "map_fingerprint": map_fingerprint(game),
        "seed": game.seed,
        "players": list(game.players),
        "options": dict(game.options),
        "meta": dict(meta or {}),
        "state": game.state.to_dict(),
        "actions": [a.to_dict() for a in game.log],
    }


def save_game(game: Game, path: str | os.PathLike, meta: dict[str, Any] | None = None) -> Path:
    """Write ``game`` to ``path`` atomically; raises SaveError if it cannot be written."""
    return write_save_text(dumps_game(game, meta), path)


def dumps_game(game: Game, meta: dict[str, Any] | None = None) -> str:
    """The save file's text (cheap; the writing can happen on another thread)."""
    try:
        return tomli_w.dumps(game_to_dict(game, meta))
    except (TypeError, ValueError) as exc:
        raise SaveError(f"This game cannot be saved: {exc}") from exc


def write_save_text(text: str, path: str | os.PathLike) -> Path:
    """Write save text atomically; SaveError (the previous save unchanged) on failure."""
    try:
        return write_atomically(path, text)
    except OSError as exc:
        raise SaveError(f"Could not save to {path}: {exc.strerror or exc}. "
                        "The previous save (if any) is unchanged.") from exc


def load_game(path: str | os.PathLike) -> Game:
    """The saved game, ready to continue; raises SaveError for any problem."""
    return read_save(path).game


def read_save(path: str | os.PathLike) -> SaveFile:
    """The saved game and its meta table; raises SaveError for any problem."""
    p = Path(path)
    name = p.name
    data = read_toml(p, "save file", SaveError, max_bytes=MAX_SAVE_BYTES)
    try:
        return _from_dict(data, name)
    except RecursionError:
        raise SaveError(f"The save file {name} is damaged: it nests values too deeply.") from None


def _idle(cls) -> Any:
    """A module state type's fresh value as plain data, or None when it needs arguments."""
    try:
        return cls().to_dict()
    except TypeError:
        return None


def check_options(variant: str, options: dict[str, Any], name: str) -> dict[str, Any]:
    """The options of a save, checked as ``new_game`` checks them (the engine's one check:
    ``get_ruleset``): every option a game can be started with loads again, and anything
    else is refused, naming the option. Values the game's setup checks (a seat for
    ``first_player``, a company colour) are checked when the game is set up again."""
    from ttr_desktop.rules import VARIANTS, get_ruleset

    if variant not in VARIANTS:
        raise SaveError(f"The save file {name} is for an unknown game {variant!r}; it was "
                        "made by another version or edited.")
    try:
        get_ruleset(variant, dict(options))
    except (ValueError, TypeError) as exc:
        raise SaveError(f"The save file {name} has options a game of {variant} cannot have "
                        f"({exc}); it was edited or damaged.") from None
    return dict(options)


def _need(data: dict[str, Any], key: str, kind: type | tuple[type, ...], name: str) -> Any:
    if key not in data:
        raise SaveError(f"The save file {name} lacks '{key}'; it is incomplete or not a "
                        "ttr-desktop save.")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise SaveError(f"The save file {name} has a bad '{key}' value; it was edited or "
                        "damaged.")
    return value


def _from_dict(data: dict[str, Any], name: str) -> SaveFile:
    fmt = _need(data, "format", int, name)
    if fmt > SAVE_FORMAT:
        raise SaveError(f"The save file {name} was written by a newer ttr-desktop (format "
                        f"{fmt}); update the game to load it.")
    if fmt not in (1, SAVE_FORMAT):
        raise SaveError(f"The save file {name} has an unknown format number {fmt}.")
    variant = _need(data, "variant", str, name)
    seed = _need(data, "seed", int, name)
    players = _need(data, "players", list, name)
    if not all(isinstance(p, str) for p in players):
        raise SaveError(f"The save file {name} has a bad player list.")
    options = check_options(variant, _need(data, "options", dict, name), name)
    if not 1 <= len(players) <= 6 or any(len(p) > 100 for p in players):
        raise SaveError(f"The save file {name} has a bad player list.")
    if not 0 <= seed < 2 ** 64:
        raise SaveError(f"The save file {name} has a bad 'seed' value; it was edited or "
                        "damaged.")
    meta = data.get("meta", {})
    if not isinstance(meta, dict):
        raise SaveError(f"The save file {name} has a bad 'meta' table.")
    state = _need(data, "state", dict, name)
    actions = _need(data, "actions", list, name)

    try:
        game = new_game(variant, players, seed=seed, options=options)
    except ValueError as exc:
        raise SaveError(f"The save file {name} cannot be set up: {exc}.") from None
    except Exception as exc:  # a broken bundled map, for example
        raise SaveError(f"The save file {name} cannot be set up: {exc}") from None
    saved_map = data.get("map_fingerprint")
    expected = map_fingerprint(game) if fmt >= 2 else _fingerprint_v1(game)
    if saved_map is not None and saved_map != expected:
        raise SaveError(f"The save file {name} was made with a different version of the "
                        f"{game.map.name} map; it cannot be replayed on this one.")

    # Replay the log from the seed: the result must be the saved position.
    for i, entry in enumerate(actions, start=1):
        try:
            action = action_from_dict(entry)
        except (ValueError, TypeError) as exc:
            raise SaveError(f"The save file {name} has a malformed move #{i} ({exc}); it was "
                            "edited or damaged.") from None
        try:
            game.apply(action)
        except IllegalAction as exc:
            raise SaveError(f"Move #{i} in {name} ({action.describe()}) is not legal in the "
                            f"replayed game: {exc} The file was edited or is damaged.") from None
    snapshot = game.state.to_dict()
    if fmt == 1:  # compare what format 1 kept, as format 1 wrote it
        snapshot = {k: v for k, v in snapshot.items() if k in state}
        snapshot["ticket_decks"] = {**{"regular": [], "long": []}, **snapshot["ticket_decks"]}
        state = {k: v for k, v in state.items() if k not in _FORMAT1_ONLY}
        ext = dict(state.get("ext", {})) if isinstance(state.get("ext"), dict) else {}
        for key, value in ext.items():  # format 1 wrote an idle module state as {}
            if value == {} and key in snapshot.get("ext", {}):
                cls = game._shared.by_name[key].state_type
                if cls is not None and _idle(cls) == snapshot["ext"][key]:
                    ext[key] = snapshot["ext"][key]
        state["ext"] = ext
    for key, value in snapshot.items():
        if state.get(key) != value:
            raise SaveError(f"The save file {name} does not match its own move list "
                            f"(the '{key}' part differs); it was edited or damaged.")
    extra_keys = set(state) - set(snapshot)
    if extra_keys:
        raise SaveError(f"The save file {name} has unknown state entries "
                        f"({', '.join(sorted(extra_keys))}).")
    return SaveFile(game, meta, str(data.get("saved_at", "")))
