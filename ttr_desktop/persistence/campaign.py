"""Legacy campaigns as TOML files in the user's data folder (``campaigns/``).

A campaign file holds the companies and their players, the next game's number, each
game's bank slips (the vaults), the caboose holder, the retired events, the games each
company missed and the game being played (its autosave file), and a check number (a hash
of all that). Writing is atomic like a save (``atomic.write_atomically``), and only of a
campaign that passes the reader's checks. Reading checks every field, what follows from
other fields (``campaign.check_campaign``, the one check the writer shares) and the check
number, and refuses a damaged or edited file with a message naming the problem
(``CampaignFileError``, a ``SaveError``); a file without a check number (written before
there was one) is read with every other check.
A file that cannot be read is never overwritten without a copy: saving over it first
keeps a copy in ``damaged/`` beside it (``autosaves.keep_damaged_copy``).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import tomli_w

from ttr_desktop import __version__
from ttr_desktop.campaign import (
    Campaign,
    CampaignError,
    Company,
    GameRecord,
    Playing,
    check_campaign,
)
from ttr_desktop.persistence.atomic import write_atomically
from ttr_desktop.persistence.autosaves import MAX_SAVE_BYTES, keep_damaged_copy
from ttr_desktop.persistence.saves import SaveError
from ttr_desktop.toml_reading import parse_toml, read_toml

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
    data["check"] = _check_number(data)
    return data


#: What a campaign file's check number leaves out: when and by which version it was saved.
_UNCHECKED = ("check", "saved_at", "app_version")


def _check_number(data: dict[str, Any]) -> str:
    """A short hash of everything in a campaign file that matters (a file changed after it
    was saved no longer matches it)."""
    kept = {k: v for k, v in data.items() if k not in _UNCHECKED}
    text = json.dumps(kept, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                      default=repr)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def dumps_campaign(campaign: Campaign) -> str:
    """The campaign file's text."""
    return tomli_w.dumps(campaign_to_dict(campaign))


def save_campaign(campaign: Campaign, path: str | os.PathLike) -> Path:
    """Write the campaign atomically, once it passes the reader's own checks (so a good
    file is never replaced by one that cannot be read back). A file already there that
    cannot be read as a campaign is copied into ``damaged/`` first. CampaignFileError when
    it cannot be written (the file on disk is then unchanged)."""
    p = Path(path)
    try:
        check_campaign(campaign)
        text = dumps_campaign(campaign)
        campaign_from_dict(parse_toml(text, p, "campaign file", CampaignFileError), p.name)
    except (CampaignError, CampaignFileError, TypeError, ValueError) as exc:
        raise CampaignFileError(f"The campaign was not saved: {exc}. The campaign file on "
                                "disk is unchanged.") from None
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


def campaign_from_dict(data: dict[str, Any], name: str = "campaign") -> Campaign:
    """A campaign from its file's data, every field checked (CampaignFileError): each
    value's type here, what the values must be by ``check_campaign`` (the one check the
    writer uses too), what the file repeats (the next game's number, the games each
    company missed) against what it follows from, and then the file's check number, so
    that an edit of anything else (a slip, the campaign's length, a game in progress
    dropped) is refused too."""
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
    created = data.get("created", "")
    if not isinstance(created, str):
        raise _bad(name, "has a bad 'created' value")
    seed = _get(data, "seed", int, name)
    length = _get(data, "length", int, name)

    # Companies.
    raw_companies = _get(data, "companies", list, name)
    companies: list[Company] = []
    for i, entry in enumerate(raw_companies, start=1):
        if not isinstance(entry, dict):
            raise _bad(name, f"has a bad company #{i}")
        where = f"company #{i}'s "
        colour = _get(entry, "colour", str, name, where)
        player = _get(entry, "player", str, name, where)
        kind = _get(entry, "kind", str, name, where)
        level = entry.get("level", "greedy")
        if not isinstance(level, str):
            raise _bad(name, f"has a bad {where}'level' value ({level!r}; it should be text)")
        companies.append(Company(colour, player, kind, level))
    caboose = _get(data, "caboose", str, name)
    retired = _get(data, "retired", list, name)

    # Games.
    games: list[GameRecord] = []
    for i, entry in enumerate(_get(data, "games", list, name), start=1):
        if not isinstance(entry, dict):
            raise _bad(name, f"has a bad game #{i}")
        where = f"game {i}'s "
        games.append(GameRecord(
            _get(entry, "number", int, name, where), _get(entry, "seed", int, name, where),
            _get(entry, "order", list, name, where), _get(entry, "slips", dict, name, where),
            _get(entry, "last", str, name, where), _get(entry, "retired", str, name, where),
            _get(entry, "discard", list, name, where)))
    playing = None
    if "playing" in data:
        raw = _get(data, "playing", dict, name)
        playing = Playing(_get(raw, "game", int, name, "playing "),
                          _get(raw, "seed", int, name, "playing "),
                          _get(raw, "order", list, name, "playing "),
                          _get(raw, "save", str, name, "playing "))
    campaign = Campaign(title, seed, companies, caboose, retired, games, playing, length,
                        created)
    try:
        check_campaign(campaign)
    except CampaignError as exc:
        raise _bad(name, f"does not hold together: {exc}") from None

    # What the file repeats for a reader's eyes must be what it follows from.
    number = _get(data, "game", int, name)
    if number != len(games) + 1:
        raise _bad(name, f"says the next game is game {number}, but it records "
                         f"{len(games)} games")
    for company in raw_companies:
        missed = company.get("missed", [])
        if missed != campaign.missed(company["colour"]):
            raise _bad(name, f"lists games missed by the {company['colour']} company that "
                             "differ from its games")
    check = data.get("check")
    if check is not None and check != _check_number(data):
        raise _bad(name, "was changed after it was saved (its contents do not match its "
                         "check number)")
    return campaign


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
