"""Legacy campaigns as TOML files in the user's data folder (``campaigns/``).

A campaign file holds the companies and their players, the next game's number, each
game's bank slips (the vaults), the caboose holder, the retired events, the games each
company missed and the game being played (its autosave file). Writing is atomic like a
save (``atomic.write_atomically``). Reading checks every field and refuses a damaged or
edited file with a message naming the problem (``CampaignFileError``, a ``SaveError``).
A file that cannot be read is never overwritten without a copy: saving over it first
keeps a copy in ``damaged/`` beside it (``autosaves.keep_damaged_copy``).
"""

from __future__ import annotations

import os
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import tomli_w

from ttr_desktop import __version__
from ttr_desktop.campaign import (
    BOT_LEVELS,
    KINDS,
    Campaign,
    CampaignError,
    Company,
    GameRecord,
    Playing,
    check_companies,
)
from ttr_desktop.persistence.atomic import write_atomically
from ttr_desktop.persistence.autosaves import MAX_SAVE_BYTES, keep_damaged_copy
from ttr_desktop.persistence.saves import SaveError
from ttr_desktop.rules.modules.legacy import COMPANY_COLOURS, EVENT_BY_ID
from ttr_desktop.toml_reading import read_toml

CAMPAIGN_FORMAT = 1
KIND = "legacy-campaign"
FOLDER = "campaigns"


class CampaignFileError(SaveError):
    """A campaign file could not be read or written; the message says what to do."""


def campaigns_dir(data_dir: str | os.PathLike) -> Path:
    """The folder of campaign files in the user's data folder."""
    return Path(data_dir) / FOLDER


def new_campaign_path(folder: Path, name: str, now: datetime | None = None) -> Path:
    """A fresh file name for a campaign, e.g. ``campaign-2024-05-01-ann-and-bob.toml``."""
    now = now or datetime.now()
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40] or "campaign"
    base = f"campaign-{now:%Y-%m-%d}-{slug}"
    path = folder / f"{base}.toml"
    n = 2
    while path.exists():
        path = folder / f"{base}-{n}.toml"
        n += 1
    return path


# Writing -----------------------------------------------------------------------------
def campaign_to_dict(campaign: Campaign) -> dict[str, Any]:
    """The campaign as plain TOML-ready data."""
    data: dict[str, Any] = {
        "format": CAMPAIGN_FORMAT,
        "kind": KIND,
        "app": "ttr-desktop",
        "app_version": __version__,
        "saved_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "created": campaign.created,
        "name": campaign.name,
        "seed": campaign.seed,
        "length": campaign.length,
        "game": campaign.next_number,
        "caboose": campaign.caboose,
        "retired": list(campaign.retired),
        "companies": [{"colour": c.colour, "player": c.player, "kind": c.kind,
                       "level": c.level, "missed": campaign.missed(c.colour)}
                      for c in campaign.companies],
        "games": [{"number": g.number, "seed": g.seed, "order": list(g.order),
                   "slips": dict(g.slips), "last": g.last, "retired": g.retired,
                   "discard": list(g.discard)} for g in campaign.games],
    }
    if campaign.playing is not None:
        p = campaign.playing
        data["playing"] = {"game": p.number, "seed": p.seed, "order": list(p.order),
                           "save": p.save}
    return data


def dumps_campaign(campaign: Campaign) -> str:
    """The campaign file's text."""
    return tomli_w.dumps(campaign_to_dict(campaign))


def save_campaign(campaign: Campaign, path: str | os.PathLike) -> Path:
    """Write the campaign atomically. A file already there that cannot be read as a
    campaign is copied into ``damaged/`` first. CampaignFileError when it cannot be written
    (the file on disk is then unchanged)."""
    p = Path(path)
    text = dumps_campaign(campaign)
    if p.exists():
        try:
            read_campaign(p)
        except CampaignFileError:
            if keep_damaged_copy(p) is None:
                raise CampaignFileError(
                    f"The campaign file {p.name} is damaged and a copy of it could not be "
                    f"kept, so it was not overwritten; move it away from {p.parent} and "
                    "try again.") from None
    try:
        return write_atomically(p, text)
    except OSError as exc:
        raise CampaignFileError(f"Could not save the campaign to {p}: {exc.strerror or exc}. "
                                "The campaign file on disk is unchanged.") from exc


# Reading -----------------------------------------------------------------------------
def read_campaign(path: str | os.PathLike) -> Campaign:
    """The campaign in ``path``; CampaignFileError naming the problem for any fault."""
    p = Path(path)
    data = read_toml(p, "campaign file", CampaignFileError, max_bytes=MAX_SAVE_BYTES)
    return campaign_from_dict(data, p.name)


def _bad(name: str, what: str) -> CampaignFileError:
    return CampaignFileError(f"The campaign file {name} {what}; it was edited or is damaged.")


def _get(table: dict[str, Any], key: str, kind: type | tuple[type, ...], name: str,
         where: str = "") -> Any:
    label = f"{where}'{key}'" if where else f"'{key}'"
    if key not in table:
        raise CampaignFileError(f"The campaign file {name} lacks {label}; it is incomplete "
                                "or not a ttr-desktop campaign.")
    value = table[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        kinds = kind if isinstance(kind, tuple) else (kind,)
        words = {int: "a whole number", str: "text", list: "a list", dict: "a table"}
        want = " or ".join(words.get(k, k.__name__) for k in kinds)
        raise _bad(name, f"has a bad {label} value ({value!r}; it should be {want})")
    return value


def _event(value: Any, name: str, label: str) -> str:
    if not isinstance(value, str) or value not in EVENT_BY_ID:
        raise _bad(name, f"names an unknown event {value!r} in {label} (known: "
                         f"{', '.join(EVENT_BY_ID)})")
    return value


def _colours(value: Any, known: list[str], name: str, label: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise _bad(name, f"has a bad {label} (it should list company colours)")
    for c in value:
        if c not in known:
            raise _bad(name, f"names a company {c!r} in {label} that is not in the campaign "
                             f"({', '.join(known)})")
    if len(set(value)) != len(value):
        raise _bad(name, f"names a company twice in {label}")
    return list(value)


def campaign_from_dict(data: dict[str, Any], name: str = "campaign") -> Campaign:
    """A campaign from its file's data, every field checked (CampaignFileError)."""
    fmt = _get(data, "format", int, name)
    if data.get("kind") != KIND:
        raise CampaignFileError(f"The file {name} is not a Legacy campaign (it may be a "
                                "saved game; open those with Load).")
    if fmt > CAMPAIGN_FORMAT:
        raise CampaignFileError(f"The campaign file {name} was written by a newer "
                                f"ttr-desktop (format {fmt}); update the game to open it.")
    if fmt != CAMPAIGN_FORMAT:
        raise CampaignFileError(f"The campaign file {name} has an unknown format number "
                                f"{fmt}.")
    title = _get(data, "name", str, name)
    if len(title) > 100:
        raise _bad(name, "has a name longer than 100 characters")
    created = data.get("created", "")
    if not isinstance(created, str):
        raise _bad(name, "has a bad 'created' value")
    seed = _get(data, "seed", int, name)
    if not 0 <= seed < 2 ** 63:
        raise _bad(name, f"has a bad 'seed' value ({seed})")
    length = _get(data, "length", int, name)
    if not 1 <= length <= 99:
        raise _bad(name, f"says the campaign is {length} games long (1 to 99)")

    # Companies.
    raw_companies = _get(data, "companies", list, name)
    companies: list[Company] = []
    for i, entry in enumerate(raw_companies, start=1):
        if not isinstance(entry, dict):
            raise _bad(name, f"has a bad company #{i}")
        where = f"company #{i}'s "
        colour = _get(entry, "colour", str, name, where)
        if colour not in COMPANY_COLOURS:
            raise _bad(name, f"has a company of colour {colour!r} (the companies are "
                             f"{', '.join(COMPANY_COLOURS)})")
        player = _get(entry, "player", str, name, where)
        if len(player) > 100:
            raise _bad(name, f"has a player's name longer than 100 characters ({colour})")
        kind = _get(entry, "kind", str, name, where)
        if kind not in KINDS:
            raise _bad(name, f"says the {colour} company is played by {kind!r} (it should be "
                             "'human' or 'bot')")
        level = entry.get("level", "greedy")
        if level not in BOT_LEVELS:
            raise _bad(name, f"gives the {colour} company an unknown bot level {level!r} "
                             f"(known: {', '.join(BOT_LEVELS)})")
        companies.append(Company(colour, player, kind, level))
    try:
        check_companies(companies)
    except CampaignError as exc:
        raise _bad(name, f"has companies that cannot play: {exc}") from None
    colours = [c.colour for c in companies]

    caboose = _get(data, "caboose", str, name)
    if caboose not in colours:
        raise _bad(name, f"gives the caboose to {caboose!r}, which is not one of its "
                         f"companies ({', '.join(colours)})")
    retired = [_event(e, name, "'retired'") for e in _get(data, "retired", list, name)]
    if len(set(retired)) != len(retired):
        raise _bad(name, "retires an event twice")

    # Games.
    games: list[GameRecord] = []
    for i, entry in enumerate(_get(data, "games", list, name), start=1):
        if not isinstance(entry, dict):
            raise _bad(name, f"has a bad game #{i}")
        where = f"game {i}'s "
        number = _get(entry, "number", int, name, where)
        if number != i:
            raise _bad(name, f"numbers its game #{i} as game {number}")
        gseed = _get(entry, "seed", int, name, where)
        order = _colours(_get(entry, "order", list, name, where), colours, name,
                         f"game {i}'s 'order'")
        if len(order) < 2:
            raise _bad(name, f"says game {i} was played by {len(order)} company")
        raw_slips = _get(entry, "slips", dict, name, where)
        slips: dict[str, int] = {}
        for colour, amount in raw_slips.items():
            if colour not in order:
                raise _bad(name, f"gives a game {i} bank slip to {colour!r}, which did not "
                                 "play that game")
            if not isinstance(amount, int) or isinstance(amount, bool) or \
                    not 0 <= amount < 100_000:
                raise _bad(name, f"has a bad game {i} bank slip for {colour} ({amount!r}; a "
                                 "slip is $0 or more)")
            slips[colour] = amount
        missing = [c for c in order if c not in slips]
        if missing:
            raise _bad(name, f"has no game {i} bank slip for {missing[0]}")
        last = _get(entry, "last", str, name, where)
        if last not in order:
            raise _bad(name, f"says {last!r} came last in game {i} without playing it")
        discard = [_event(e, name, f"game {i}'s 'discard'")
                   for e in _get(entry, "discard", list, name, where)]
        gone = _get(entry, "retired", str, name, where)
        if gone:
            _event(gone, name, f"game {i}'s 'retired'")
            if gone not in discard:
                raise _bad(name, f"retires {gone!r} after game {i}, though it was not in that "
                                 "game's event discard pile")
        games.append(GameRecord(number, gseed, order, slips, last, gone, discard))
    if len(games) > length:
        raise _bad(name, f"records {len(games)} games of a {length}-game campaign")
    if [g.retired for g in games if g.retired] != retired:
        raise _bad(name, "lists retired events that differ from those its games retired")
    for g in games[:-1]:
        if not g.retired and g.discard:
            raise _bad(name, f"has no event retired after game {g.number}, though one had "
                             "to be")
    if games and caboose != games[-1].last and data.get("playing") is None:
        raise _bad(name, f"gives the caboose to {caboose}, but {games[-1].last} came last "
                         f"in game {games[-1].number}")
    number = _get(data, "game", int, name)
    if number != len(games) + 1:
        raise _bad(name, f"says the next game is game {number}, but it records "
                         f"{len(games)} games")
    for company in raw_companies:
        missed = company.get("missed", [])
        expected = [g.number for g in games if company["colour"] not in g.order]
        if missed != expected:
            raise _bad(name, f"lists games missed by the {company['colour']} company that "
                             "differ from its games")

    playing = None
    if "playing" in data:
        raw = _get(data, "playing", dict, name)
        pnum = _get(raw, "game", int, name, "playing ")
        if pnum != number or number > length:
            raise _bad(name, f"says game {pnum} is being played, but the next game is "
                             f"game {number}")
        porder = _colours(_get(raw, "order", list, name, "playing "), colours, name,
                          "'playing.order'")
        if len(porder) < 2 or porder[0] != caboose:
            raise _bad(name, "has a game being played whose first player does not hold the "
                             "caboose")
        save = _get(raw, "save", str, name, "playing ")
        playing = Playing(pnum, _get(raw, "seed", int, name, "playing "), porder, save)

    return Campaign(title, seed, companies, caboose, retired, games, playing, length, created)


# Listing -----------------------------------------------------------------------------
def list_campaigns(folder: Path) -> list[tuple[Path, Campaign | None, str]]:
    """Every campaign file in ``folder``, newest first: (path, campaign or None, problem)."""
    try:
        files = [p for p in folder.glob("*.toml") if p.is_file() and not p.name.startswith(".")]
    except OSError:
        return []

    def mtime(p: Path) -> float:
        try:
            return p.stat().st_mtime
        except OSError:
            return 0.0

    out: list[tuple[Path, Campaign | None, str]] = []
    for p in sorted(files, key=lambda p: (mtime(p), p.name), reverse=True):
        try:
            out.append((p, read_campaign(p), ""))
        except CampaignFileError as exc:
            out.append((p, None, str(exc)))
    return out


__all__ = ["CAMPAIGN_FORMAT", "CampaignFileError", "campaign_from_dict", "campaign_to_dict",
           "campaigns_dir", "dumps_campaign", "list_campaigns", "new_campaign_path",
           "read_campaign", "save_campaign"]
