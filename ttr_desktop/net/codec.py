"""JSON-safe encodings of the engine's actions, events and player views.

Everything here turns engine values into plain JSON data (dicts with text keys, lists,
text, whole numbers, booleans, None) and back, checking every field on the way in:
a value from the network is never trusted, never evaluated, never unpickled.

- ``action_to_json`` / ``action_from_json``: an ``Action`` (``Action.to_dict`` plus the
  checks of ``rules.actions.action_from_dict``).
- ``event_to_json`` / ``event_from_json``: an ``Event`` — the server only ever encodes
  ``event.visible_to(seat)``, so a seat receives only what it may see.
- ``view_to_json`` / ``view_from_json``: a ``PlayerView``. The map is not sent: both ends
  load it from the variant (``map_for``) and the hello carries its fingerprint. Everything
  a view takes from the board and ruleset (pay items, card names, parallel-track flags,
  route points) is rebuilt locally from the variant and options.

Free-form data (event details, module view fields, game options, pipeline steps) goes
through ``value_to_json`` / ``value_from_json``: lists and text-keyed dicts stay as they
are; tuples, dicts with other keys and sets are tagged (``{"$t": [...]}``,
``{"$d": [[key, value], ...]}``, ``{"$f": [...]}``), so a value comes back exactly as it
left. Anything else (an object, a float that is not finite) is a ``CodecError``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from types import MappingProxyType
from typing import Any

from ttr_desktop.maps.model import GameMap
from ttr_desktop.rules.actions import Action, action_from_dict
from ttr_desktop.rules.events import Event
from ttr_desktop.rules.tokens import CityToken
from ttr_desktop.rules.view import PlayerView

#: How deep free-form data may nest (a hostile message cannot recurse us to death).
MAX_DEPTH = 24


class CodecError(ValueError):
    """A value that cannot be encoded or a message field that is not what it should be;
    the message says which, in plain words."""


# ---------------------------------------------------------------------------
# free-form values

def value_to_json(value: Any, _depth: int = 0) -> Any:
    """Plain JSON data for ``value`` (see the module's docstring for the tags)."""
    if _depth > MAX_DEPTH:
        raise CodecError("the data nests too deeply")
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise CodecError(f"cannot send the number {value!r}")
        return value
    d = _depth + 1
    if isinstance(value, list):
        return [value_to_json(v, d) for v in value]
    if isinstance(value, tuple):
        return {"$t": [value_to_json(v, d) for v in value]}
    if isinstance(value, (frozenset, set)):
        items = [value_to_json(v, d) for v in value]
        try:
            items.sort(key=repr)
        except TypeError:
            pass
        return {"$f" if isinstance(value, frozenset) else "$s": items}
    if isinstance(value, (dict, MappingProxyType)):
        if all(isinstance(k, str) and not k.startswith("$") for k in value):
            return {k: value_to_json(v, d) for k, v in value.items()}
        return {"$d": [[value_to_json(k, d), value_to_json(v, d)] for k, v in value.items()]}
    if isinstance(value, CityToken):
        return {"$token": token_to_json(value)}
    raise CodecError(f"cannot send a value of type {type(value).__name__}")


def _hashable(value: Any) -> Any:
    try:
        hash(value)
    except TypeError:
        raise CodecError("a set or dict key must be a plain value") from None
    return value


def value_from_json(data: Any, _depth: int = 0) -> Any:
    """The value ``value_to_json`` made; CodecError for anything else."""
    if _depth > MAX_DEPTH:
        raise CodecError("the data nests too deeply")
    if data is None or isinstance(data, (bool, str, int)):
        return data
    if isinstance(data, float):
        if not math.isfinite(data):
            raise CodecError("a number is not finite")
        return data
    d = _depth + 1
    if isinstance(data, list):
        return [value_from_json(v, d) for v in data]
    if isinstance(data, dict):
        if len(data) == 1:
            (tag, inner), = data.items()
            if tag in ("$t", "$f", "$s", "$d"):
                if not isinstance(inner, list):
                    raise CodecError(f"{tag!r} must hold a list")
                if tag == "$t":
                    return tuple(value_from_json(v, d) for v in inner)
                if tag == "$f":
                    return frozenset(_hashable(value_from_json(v, d)) for v in inner)
                if tag == "$s":
                    return {_hashable(value_from_json(v, d)) for v in inner}
                out = {}
                for pair in inner:
                    if not isinstance(pair, list) or len(pair) != 2:
                        raise CodecError("a '$d' entry must be [key, value]")
                    out[_hashable(value_from_json(pair[0], d))] = value_from_json(pair[1], d)
                return out
            if tag == "$token":
                return token_from_json(inner)
        out = {}
        for k, v in data.items():
            if not isinstance(k, str) or k.startswith("$"):
                raise CodecError(f"unexpected key {str(k)[:40]!r}")
            out[k] = value_from_json(v, d)
        return out
    raise CodecError(f"unexpected {type(data).__name__} in the data")


# ---------------------------------------------------------------------------
# small checked readers

def _need(d: Any, key: str, kind: type | tuple[type, ...], what: str = "") -> Any:
    if not isinstance(d, dict):
        raise CodecError(f"{what or 'the data'} must be an object")
    if key not in d:
        raise CodecError(f"{what or 'the data'} lacks {key!r}")
    value = d[key]
    if kind is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise CodecError(f"{key!r} must be a whole number")
    elif kind == (int, type(None)):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise CodecError(f"{key!r} must be a whole number or null")
    elif not isinstance(value, kind):
        raise CodecError(f"{key!r} has the wrong type")
    return value


def _ints(value: Any, key: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise CodecError(f"{key!r} must be a list of whole numbers")
    return tuple(value)


def _strs(value: Any, key: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise CodecError(f"{key!r} must be a list of text")
    return tuple(value)


def _int_dict(value: Any, key: str) -> dict[str, int]:
    if not isinstance(value, dict) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value.values()):
        raise CodecError(f"{key!r} must map names to whole numbers")
    return dict(value)


# ---------------------------------------------------------------------------
# actions

def action_to_json(action: Action) -> dict[str, Any]:
    """``{"kind": ..., field: value}`` (``Action.to_dict``)."""
    if not isinstance(action, Action):
        raise CodecError(f"not an action: {type(action).__name__}")
    return action.to_dict()


#: The JSON text of each action seen (``actions_json_text``); emptied when it grows past
#: ``ACTION_TEXT_LIMIT`` entries (a few thousand distinct actions per map in practice).
_ACTION_TEXT: dict[Action, str] = {}
ACTION_TEXT_LIMIT = 200_000


def actions_json_text(actions: Iterable[Action]) -> str:
    """The compact JSON text of ``[action_to_json(a) for a in actions]``.

    A state message carries every legal action (a hundred or so on a typical turn), and
    the same actions come back turn after turn and table after table: each one's text is
    made once and kept, so a state costs a join instead of a hundred encodings."""
    parts = []
    cache = _ACTION_TEXT
    for action in actions:
        text = cache.get(action)
        if text is None:
            if len(cache) >= ACTION_TEXT_LIMIT:
                cache.clear()
            text = cache[action] = json.dumps(action_to_json(action), separators=(",", ":"),
                                              allow_nan=False)
        parts.append(text)
    return "[" + ",".join(parts) + "]"


def action_from_json(d: Any) -> Action:
    """The action ``d`` describes; CodecError naming the problem when it is malformed."""
    if not isinstance(d, dict):
        raise CodecError("an action must be an object")
    if not isinstance(d.get("kind"), str):
        raise CodecError("an action needs a 'kind'")
    try:
        return action_from_dict(d)
    except (ValueError, TypeError) as exc:
        raise CodecError(str(exc)) from None


# ---------------------------------------------------------------------------
# events

def event_to_json(event: Event) -> dict[str, Any]:
    """An event as plain data (call it on ``event.visible_to(seat)`` only)."""
    return {"kind": event.kind, "seat": event.seat, "data": value_to_json(dict(event.data)),
            "private": list(event.private), "secret": bool(event.secret),
            "reveals": bool(event.reveals)}


def event_from_json(d: Any) -> Event:
    """The event ``event_to_json`` made."""
    kind = _need(d, "kind", str, "an event")
    seat = _need(d, "seat", (int, type(None)), "an event")
    data = value_from_json(_need(d, "data", dict, "an event"))
    if not isinstance(data, dict):
        raise CodecError("an event's 'data' must be an object")
    private = _strs(d.get("private", []), "private")
    secret = d.get("secret", False)
    reveals = d.get("reveals", False)
    if not isinstance(secret, bool) or not isinstance(reveals, bool):
        raise CodecError("an event's 'secret' and 'reveals' must be true or false")
    return Event(kind, seat, data, private, secret, reveals)


# ---------------------------------------------------------------------------
# views

def token_to_json(token: CityToken) -> list[Any]:
    """[kind, seat, value, count]."""
    return [token.kind, token.seat, token.value, token.count]


def token_from_json(d: Any) -> CityToken:
    """The token ``token_to_json`` made."""
    if (not isinstance(d, list) or len(d) != 4 or not isinstance(d[0], str)
            or not (d[1] is None or (isinstance(d[1], int) and not isinstance(d[1], bool)))
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in d[2:])):
        raise CodecError("a city token must be [kind, seat, value, count]")
    return CityToken(d[0], d[1], d[2], d[3])


def map_for(variant: str, options: dict[str, Any] | None = None) -> GameMap:
    """The map a game of ``variant`` with ``options`` plays on (loaded once, shared): the
    one both ends of a connection load instead of sending it."""
    from ttr_desktop.maps.loader import get_map
    from ttr_desktop.rules.ruleset import get_ruleset

    ruleset = get_ruleset(variant, dict(options or {}))
    return get_map(ruleset.map_id, ruleset.ticket_sets)


_PLAIN_INTS = ("seat", "current_seat", "deck_size", "discard_size", "ticket_deck_size", "turn",
               "first_seat", "passes")
_INT_TUPLES = ("trains_left", "hand_sizes", "ticket_counts", "pending_counts", "points")


def view_to_json(view: PlayerView) -> dict[str, Any]:
    """What ``view`` holds, as plain data, without the map and the board's constants."""
    out: dict[str, Any] = {name: int(getattr(view, name)) for name in _PLAIN_INTS}
    for name in _INT_TUPLES:
        out[name] = [int(x) for x in getattr(view, name)]
    out.update(
        phase=view.phase, variant=view.variant, prompt=view.prompt,
        hand={k: int(v) for k, v in view.hand.items()},
        tickets=[t.id for t in view.tickets],
        pending_tickets=[t.id for t in view.pending_tickets],
        face_up=list(view.face_up),
        ticket_deck_sizes={k: int(v) for k, v in view.ticket_deck_sizes.items()},
        players=list(view.players),
        options=value_to_json(dict(view.options)),
        final_round=bool(view.final_round),
        final_turns_left=view.final_turns_left,
        extra=value_to_json(dict(view.extra)),
        city_tokens={c: [token_to_json(t) for t in ts] for c, ts in view.city_tokens.items()},
        pipeline=[[o, n, value_to_json(d)] for o, n, d in view.pipeline],
        owner=list(view._owner),
        borrow=[[list(ch) for ch in seat] for seat in (view._borrow or ())],
        discard=list(view._discard),
        known=[list(k) for k in view._known],
        paid=[[[n, c] for n, c in p] for p in view._paid],
        ticket_log=[list(e) for e in view._ticket_log],
        ledger=[list(e) for e in view._ledger],
    )
    return out


def _tickets(ids: tuple[str, ...], by_id: dict[str, Any], key: str) -> tuple:
    try:
        return tuple(by_id[t] for t in ids)
    except KeyError as exc:
        raise CodecError(f"{key!r} names a ticket this map does not have: {exc.args[0]!r}") \
            from None


def view_from_json(d: Any, game_map: GameMap) -> PlayerView:
    """The ``PlayerView`` ``view_to_json`` made, on ``game_map`` (the map of its variant,
    ``map_for``). CodecError when a field is missing or of the wrong type or does not fit
    the map; the board's constants come from the variant and options it names."""
    from ttr_desktop.rules.game import compiled
    from ttr_desktop.rules.ruleset import get_ruleset

    if not isinstance(d, dict):
        raise CodecError("a view must be an object")
    variant = _need(d, "variant", str, "a view")
    options = value_from_json(_need(d, "options", dict, "a view"))
    if not isinstance(options, dict):
        raise CodecError("a view's 'options' must be an object")
    try:
        ruleset = get_ruleset(variant, options)
        board = compiled(game_map, ruleset).board
    except (ValueError, KeyError, TypeError) as exc:
        raise CodecError(f"cannot rebuild the board of this view: {exc}") from None
    players = _strs(_need(d, "players", list, "a view"), "players")
    n = len(players)
    if not 1 <= n <= 16:
        raise CodecError("a view's 'players' must name 1 to 16 seats")
    v = PlayerView.__new__(PlayerView)
    for name in _PLAIN_INTS:
        setattr(v, name, _need(d, name, int, "a view"))
    for name in _INT_TUPLES:
        value = _ints(_need(d, name, list, "a view"), name)
        if len(value) != n:
            raise CodecError(f"{name!r} must have one entry per seat")
        setattr(v, name, value)
    if not 0 <= v.seat < n or not 0 <= v.current_seat < n:
        raise CodecError("a view's seat is not at the table")
    v.phase = _need(d, "phase", str, "a view")
    v.prompt = _need(d, "prompt", str, "a view")
    v.variant = variant
    v.hand = _int_dict(_need(d, "hand", dict, "a view"), "hand")
    by_id = {t.id: t for t in board.tickets}
    v.tickets = _tickets(_strs(_need(d, "tickets", list, "a view"), "tickets"), by_id, "tickets")
    v.pending_tickets = _tickets(_strs(_need(d, "pending_tickets", list, "a view"),
                                       "pending_tickets"), by_id, "pending_tickets")
    face_up = _need(d, "face_up", list, "a view")
    if not all(c is None or isinstance(c, str) for c in face_up):
        raise CodecError("'face_up' must list card names or null")
    v.face_up = tuple(face_up)
    v.ticket_deck_sizes = _int_dict(_need(d, "ticket_deck_sizes", dict, "a view"),
                                    "ticket_deck_sizes")
    v.players = players
    v.options = MappingProxyType(dict(options))
    v.final_round = _need(d, "final_round", bool, "a view")
    v.final_turns_left = _need(d, "final_turns_left", (int, type(None)), "a view")
    extra = value_from_json(_need(d, "extra", dict, "a view"))
    if not isinstance(extra, dict):
        raise CodecError("a view's 'extra' must be an object")
    v.extra = extra
    tokens = _need(d, "city_tokens", dict, "a view")
    v.city_tokens = {}
    for city, ts in tokens.items():
        if not isinstance(ts, list):
            raise CodecError("'city_tokens' must map cities to lists of tokens")
        v.city_tokens[city] = tuple(token_from_json(t) for t in ts)
    pipeline = _need(d, "pipeline", list, "a view")
    steps = []
    for step in pipeline:
        if (not isinstance(step, list) or len(step) != 3 or not isinstance(step[0], str)
                or not isinstance(step[1], str)):
            raise CodecError("a pipeline step must be [owner, name, data]")
        steps.append((step[0], step[1], value_from_json(step[2])))
    v.pipeline = tuple(steps)
    owner = _ints(_need(d, "owner", list, "a view"), "owner")
    if len(owner) != len(board.graph.route_ids):
        raise CodecError("'owner' must have one entry per route of the map")
    v._owner = owner
    borrow = _need(d, "borrow", list, "a view")
    try:
        v._borrow = tuple(tuple(_ints(ch, "borrow") for ch in seat) for seat in borrow)
    except TypeError:
        raise CodecError("'borrow' must be a list per seat of lists of routes") from None
    v._discard = _ints(_need(d, "discard", list, "a view"), "discard")
    known = _need(d, "known", list, "a view")
    v._known = tuple(_ints(k, "known") for k in known)
    paid = _need(d, "paid", list, "a view")
    out_paid = []
    for p in paid:
        if not isinstance(p, list) or not all(
                isinstance(x, list) and len(x) == 2 and isinstance(x[0], str)
                and isinstance(x[1], int) and not isinstance(x[1], bool) for x in p):
            raise CodecError("'paid' must list [[card, count], ...] per route")
        out_paid.append(tuple((x[0], x[1]) for x in p))
    v._paid = tuple(out_paid)
    log = _need(d, "ticket_log", list, "a view")
    v._ticket_log = tuple(_ints(e, "ticket_log") for e in log)
    if not all(len(e) == 3 for e in v._ticket_log):
        raise CodecError("a 'ticket_log' entry must be [seat, drawn, kept]")
    ledger = _need(d, "ledger", list, "a view")
    entries = []
    for e in ledger:
        if (not isinstance(e, list) or len(e) != 4 or not isinstance(e[0], int)
                or not isinstance(e[1], int) or not isinstance(e[2], str)
                or not isinstance(e[3], str)):
            raise CodecError("a 'ledger' entry must be [seat, amount, reason, reference]")
        entries.append((e[0], e[1], e[2], e[3]))
    v._ledger = tuple(entries)
    # What the board and ruleset say: loaded here, never sent.
    v.map = game_map
    v.doubles_open = ruleset.group_open(2, n)
    v.route_points = MappingProxyType(ruleset.route_points)
    v.currency = ruleset.currency
    v.card_names = board.card_names
    v.pay = board.pay
    v._graph = board.graph
    v._group_open = compiled(game_map, ruleset).group_open(ruleset, n)
    v._route_owners = None
    v._completed = None
    v._status = None
    return v


__all__ = ["CodecError", "action_from_json", "action_to_json", "event_from_json",
           "event_to_json", "map_for", "value_from_json", "value_to_json", "view_from_json",
           "view_to_json"]
