"""Damaged files never stop the program: every reader of a player's file (a save, the
autosave summaries of the title and Load screens, a campaign, the settings, the last setup,
a map) turns any damage into its own error with a message, or reads the file as it is.

The files are real ones written by the game; each is damaged a few hundred ways, always
the same (a fixed seed): cut short, bits flipped, bytes that are not UTF-8, values nested
thousands deep, integers of thousands of digits, NaN, and a wrong type at every key.
"""

from __future__ import annotations

import math
import os
import random
import re
import tomllib
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path

import pytest
import tomli_w

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from ttr_desktop.campaign import Company, new_campaign, next_game, start_game  # noqa: E402
from ttr_desktop.maps import MapError, load_map  # noqa: E402
from ttr_desktop.persistence import SaveError, read_save, save_game  # noqa: E402
from ttr_desktop.persistence.campaign import (  # noqa: E402
    CampaignFileError,
    list_campaigns,
    read_campaign,
    save_campaign,
)
from ttr_desktop.persistence.last_setup import (  # noqa: E402
    LastSetupError,
    load_last_setup,
    save_last_setup,
)
from ttr_desktop.persistence.settings import Settings, load_settings, save_settings  # noqa: E402
from ttr_desktop.rules import new_game  # noqa: E402
from ttr_desktop.toml_reading import TomlFileError, read_toml  # noqa: E402
from ttr_desktop.ui.scenes.save_info import (  # noqa: E402
    explain_problem,
    list_autosaves,
    read_summary,
    when_words,
)
from ttr_desktop.ui.scenes.setup_choices import seats_from_memory  # noqa: E402
from ttr_desktop.ui.session import VARIANT_CHOICES, GameSession, SeatConfig  # noqa: E402

MINI_MAP = Path(__file__).parent / "data" / "mini_map.toml"
#: How many mutations of each kind per file (about 300 files per reader in all).
PER_KIND = 24

#: Values of the wrong type (or absurd) for any key.
WRONG_VALUES: list = [5, -1, 0, 1.5, math.nan, math.inf, True, "text", "", [], [1, "a"], {},
                      {"a": 1}, 10 ** 400, -(10 ** 30), [[[[1]]]],
                      datetime(2024, 5, 1, 12, 0)]
#: Values as TOML text that parse into trouble or do not parse at all.
NASTY_TEXT = ["[" * 3000 + "]" * 3000, "{ a = " * 3000 + "1" + " }" * 3000,
              "[" * 40 + "1" + "]" * 40, "9" * 5000, "1" + "0" * 400, "-" + "9" * 4400,
              "1e400", "nan", "-inf", "0x" + "f" * 2000, "1979-05-27T07:32:60Z"]

_LINE = re.compile(r"^(\s*[A-Za-z0-9_\"'.-]+\s*=\s*)(.+)$")


# Mutations --------------------------------------------------------------------------
def _paths(value, path=()) -> Iterator[tuple]:
    """Every key path in the data (tables' keys and lists' indexes)."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield path + (k,)
            yield from _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value[:4]):
            yield path + (i,)
            yield from _paths(v, path + (i,))


def _set(data, path, value):
    """A copy of ``data`` with the value at ``path`` replaced."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(data, dict):
        out = dict(data)
    else:
        out = list(data)
    out[head] = _set(data[head], rest, value)
    return out


def _complete_value_lines(text: str) -> list[int]:
    """Lines ``key = value`` whose value is all on the line."""
    lines = text.splitlines()
    found = []
    for n, line in enumerate(lines):
        match = _LINE.match(line)
        if match is None:
            continue
        try:
            tomllib.loads("x = " + match.group(2))
        except Exception:
            continue
        found.append(n)
    return found


def mutations(text: str, seed: int, focus: tuple = (),
              per_kind: int = PER_KIND) -> Iterator[tuple[str, bytes]]:
    """(what was done, the damaged file's bytes): the same few hundred for the same text.

    ``focus`` lists key paths that get every wrong value (e.g. a save's meta keys)."""
    rng = random.Random(seed)
    raw = text.encode("utf-8")
    data = tomllib.loads(text)
    for cut in sorted(rng.sample(range(1, len(raw)), min(per_kind, len(raw) - 1))):
        yield f"cut to {cut} bytes", raw[:cut]
    for _ in range(per_kind):
        flipped = bytearray(raw)
        for _ in range(rng.choice((1, 1, 3))):
            pos = rng.randrange(len(flipped))
            flipped[pos] ^= 1 << rng.randrange(8)
        yield "bits flipped", bytes(flipped)
    for junk in (b"\xff", b"\xc3(", b"\x00\x9f\x92", b"\xed\xa0\x80"):
        pos = rng.randrange(len(raw))
        yield f"{junk!r} at {pos}", raw[:pos] + junk + raw[pos:]
    yield "UTF-16", text.encode("utf-16")
    lines = text.splitlines()
    value_lines = _complete_value_lines(text)
    for nasty in NASTY_TEXT:
        for n in rng.sample(value_lines, min(3, len(value_lines))):
            match = _LINE.match(lines[n])
            changed = lines[:n] + [match.group(1) + nasty] + lines[n + 1:]
            yield f"line {n + 1} = {nasty[:12]}…", ("\n".join(changed) + "\n").encode()
    yield "deep nesting at the top", (f"deep = {NASTY_TEXT[0]}\n" + text).encode()
    paths = list(_paths(data))
    chosen = [p for p in focus if _has(data, p)]
    chosen += rng.sample(paths, min(2 * per_kind, len(paths)))
    for path in chosen:
        values = WRONG_VALUES if path in focus else rng.sample(WRONG_VALUES, 3)
        for value in values:
            yield (f"{'.'.join(map(str, path))} = {str(value)[:12]}",
                   tomli_w.dumps(_set(data, path, value)).encode())
    for path in rng.sample(paths, min(per_kind // 2, len(paths))):
        parent, key = path[:-1], path[-1]
        holder = _get(data, parent)
        if isinstance(holder, dict):
            shorter = {k: v for k, v in holder.items() if k != key}
            yield f"{'.'.join(map(str, path))} removed", \
                tomli_w.dumps(_set(data, parent, shorter)).encode()


def _get(data, path):
    for key in path:
        data = data[key]
    return data


def _has(data, path) -> bool:
    try:
        _get(data, path)
    except (KeyError, IndexError, TypeError):
        return False
    return True


def run_all(path: Path, text: str, seed: int, read: Callable[[Path], None],
            focus: tuple = (), per_kind: int = PER_KIND) -> list[str]:
    """Write each damaged copy to ``path`` and read it; the readers' failures."""
    failures = []
    count = 0
    for what, damaged in mutations(text, seed, focus, per_kind):
        count += 1
        path.write_bytes(damaged)
        try:
            read(path)
        except Exception as exc:   # anything else than the reader's own error is a failure
            failures.append(f"{what}: {type(exc).__name__}: {str(exc)[:160]}")
    assert count >= 150
    return failures


# The files ---------------------------------------------------------------------------
SEATS = [{"name": "Ann", "kind": "human", "level": "greedy", "color": "red"},
         {"name": "Bot 2", "kind": "bot", "level": "easy", "color": "blue"}]


@pytest.fixture(scope="module")
def save_text(tmp_path_factory) -> str:
    game = new_game("usa", ["Ann", "Bot 2"], seed=5)
    rng = random.Random(5)
    for _ in range(12):
        game.apply(rng.choice(game.legal_actions()))
    path = tmp_path_factory.mktemp("save") / "game.toml"
    save_game(game, path, meta={"seats": SEATS, "variant_key": "usa",
                                "campaign": {"path": "/nowhere/c.toml", "game": 1}})
    return path.read_text(encoding="utf-8")


META_KEYS = (("meta",), ("meta", "seats"), ("meta", "variant_key"), ("meta", "campaign"),
             ("meta", "campaign", "path"), ("meta", "campaign", "game"),
             ("meta", "seats", 0), ("meta", "seats", 1, "kind"), ("meta", "seats", 1, "level"),
             ("meta", "seats", 0, "color"), ("meta", "seats", 0, "name"))


def read_save_everywhere(path: Path) -> None:
    """What the window does with a save: the title and Load screens' summary, then
    loading it (GameSession.load reads it with read_save; only SaveError may come out)."""
    summary = read_summary(path, autosave=True)
    assert isinstance(summary.detail, str) and isinstance(summary.describe(), str)
    assert isinstance(summary.game_words, str) and isinstance(when_words(summary.when), str)
    try:
        session = GameSession.load(path)
    except SaveError as exc:
        assert str(exc) and explain_problem(path, exc).words
        return
    assert session.variant_key in VARIANT_CHOICES
    for seat in session.seats:
        assert isinstance(seat, SeatConfig) and seat.kind in ("human", "bot")
        assert all(isinstance(v, str) for v in (seat.name, seat.level, seat.color))
    assert all(isinstance(note, str) and path.name in note for note in session.load_notes)


def test_a_real_save_reads_as_it_was_written(tmp_path, save_text):
    path = tmp_path / "game.toml"
    path.write_text(save_text, encoding="utf-8")
    session = GameSession.load(path)
    assert [(s.name, s.kind, s.level, s.color) for s in session.seats] == [
        ("Ann", "human", "greedy", "red"), ("Bot 2", "bot", "easy", "blue")]
    assert session.variant_key == "usa" and not session.load_notes
    assert session.links == {"campaign": {"path": "/nowhere/c.toml", "game": 1}}
    assert not read_summary(path).damaged and read_save(path).meta["variant_key"] == "usa"


def test_every_damaged_save_gives_a_save_error_or_loads(tmp_path, save_text):
    folder = tmp_path / "autosaves"
    folder.mkdir()
    failures = run_all(folder / "game.toml", save_text, 11, read_save_everywhere, META_KEYS,
                       per_kind=14)
    assert not failures, f"{len(failures)} damaged saves broke a reader:\n" + \
        "\n".join(failures[:15])


@pytest.mark.parametrize("meta_key,value", [
    ("seats", 5), ("variant_key", ["usa"]), ("variant_key", {"a": 1}), ("seats", "Ann")])
def test_a_save_with_a_damaged_meta_loads_with_defaults_and_says_what(tmp_path, save_text,
                                                                       meta_key, value):
    data = tomllib.loads(save_text)
    data["meta"][meta_key] = value
    path = tmp_path / "game.toml"
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    session = GameSession.load(path)
    assert session.variant_key == "usa"
    assert [s.name for s in session.seats] == ["Ann", "Bot 2"]
    assert len(session.load_notes) == 1 and "game.toml is damaged" in session.load_notes[0]
    assert "loaded as it was saved" in session.load_notes[0]


def test_a_seat_with_a_list_for_its_bot_level_plays_as_a_normal_bot(tmp_path, save_text):
    data = tomllib.loads(save_text)
    data["meta"]["seats"][1]["level"] = ["hard"]
    path = tmp_path / "game.toml"
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    session = GameSession.load(path)
    assert (session.seats[1].kind, session.seats[1].level) == ("bot", "greedy")
    assert "seat 2's bot level" in session.load_notes[0]


@pytest.mark.parametrize("damage", [
    "variant_key = " + "[" * 3000 + "]" * 3000, "seed = " + "9" * 5000])
def test_the_title_screens_summary_of_a_damaged_autosave_says_damaged(tmp_path, save_text,
                                                                      damage):
    key = damage.split(" = ")[0]
    text = re.sub(rf"(?m)^{key} = .*$", damage, save_text, count=1)
    path = tmp_path / "autosave.toml"
    path.write_text(text, encoding="utf-8")
    [summary] = list_autosaves(tmp_path)
    assert summary.damaged == "part of it is garbled"
    with pytest.raises(SaveError, match="autosave.toml"):
        read_save(path)


# Campaigns ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def campaign_text(tmp_path_factory) -> str:
    campaign = new_campaign([Company("blue", "Ann"), Company("red", "Bob", "bot", "greedy"),
                             Company("green", "Cy", "bot", "random")], seed=8)
    setup = next_game(campaign)
    start_game(campaign, setup, "/nowhere/g.toml")
    path = tmp_path_factory.mktemp("campaign") / "c.toml"
    save_campaign(campaign, path)
    return path.read_text(encoding="utf-8")


def read_campaign_everywhere(path: Path) -> None:
    try:
        read_campaign(path)
    except CampaignFileError as exc:
        assert str(exc)
    [(found, _, _)] = list_campaigns(path.parent)
    assert found == path


def test_every_damaged_campaign_gives_a_campaign_file_error_or_reads(tmp_path, campaign_text):
    failures = run_all(tmp_path / "c.toml", campaign_text, 12, read_campaign_everywhere,
                       (("playing",), ("companies", 0, "level"), ("companies",), ("seed",)))
    assert not failures, f"{len(failures)} damaged campaigns broke the reader:\n" + \
        "\n".join(failures[:15])


# Settings -----------------------------------------------------------------------------
SETTINGS = Settings(volume=0.3, mute=True, animation_speed="fast", hard_budget=2.0,
                    window_width=1920, window_height=1080)


def read_settings(path: Path) -> None:
    settings, message = load_settings(path)
    assert settings.validated() == settings
    if message is None:
        return
    assert "settings.toml" in message
    kept = list(path.parent.glob("settings.toml.damaged-*"))
    assert len(kept) == 1, "the damaged file is kept beside the settings"
    kept[0].unlink()
    # Whatever was written back is quiet at the next start.
    if path.exists():
        assert load_settings(path) == (settings, None)
        path.unlink()


def test_every_damaged_settings_file_gives_usable_settings_and_a_message(tmp_path):
    path = tmp_path / "settings.toml"
    save_settings(SETTINGS, path)
    assert load_settings(path) == (SETTINGS, None)
    fields = tuple((k,) for k in tomllib.loads(path.read_text()))
    failures = run_all(path, path.read_text(), 13, read_settings, fields)
    assert not failures, f"{len(failures)} damaged settings broke the reader:\n" + \
        "\n".join(failures[:15])


@pytest.mark.parametrize("line,field", [
    ("volume = 1" + "0" * 400, "volume"), ("volume = nan", "volume"),
    ("hard_budget = inf", "hard_budget"), ("window_width = 1600.0", "window_width"),
    ("mute = 1", "mute"), ("animation_speed = [1]", "animation_speed")])
def test_an_absurd_setting_falls_back_alone_and_the_rest_is_kept(tmp_path, line, field):
    path = tmp_path / "settings.toml"
    save_settings(SETTINGS, path)
    key = line.split(" = ")[0]
    text = re.sub(rf"(?m)^{key} = .*$", line, path.read_text())
    path.write_text(text)
    settings, message = load_settings(path)
    assert getattr(settings, field) == getattr(Settings(), field)
    assert settings == SETTINGS.__class__(**{**SETTINGS.__dict__,
                                             field: getattr(Settings(), field)})
    assert field in message and "damaged-" in message


def test_a_deeply_nested_settings_file_gives_the_defaults_and_is_kept(tmp_path):
    path = tmp_path / "settings.toml"
    path.write_text("volume = " + "[" * 3000 + "]" * 3000 + "\n")
    settings, message = load_settings(path)
    assert settings == Settings() and "nests" in message
    assert [p.name.startswith("settings.toml.damaged-") for p in tmp_path.iterdir()] == [True]


# The last setup -------------------------------------------------------------------------
def read_last_setup(path: Path) -> None:
    try:
        memory = load_last_setup(path)
    except LastSetupError as exc:
        assert "last_setup.toml" in str(exc)
        return
    if memory is not None:
        seats_from_memory(memory)


def test_every_damaged_last_setup_gives_its_error_or_reads(tmp_path):
    path = tmp_path / "last_setup.toml"
    save_last_setup(path, "usa", {}, SEATS)
    assert seats_from_memory(load_last_setup(path))[0] == "usa"
    failures = run_all(path, path.read_text(), 14, read_last_setup,
                       (("variant_key",), ("seats",), ("seats", 0, "level"),
                        ("seats", 1, "kind"), ("seats", 0, "color"), ("seats", 0, "name")))
    assert not failures, f"{len(failures)} damaged setups broke the reader:\n" + \
        "\n".join(failures[:15])


# Maps -------------------------------------------------------------------------------------
def read_map(path: Path) -> None:
    try:
        load_map(path)
    except MapError as exc:
        assert "map.toml" in str(exc)


def test_every_damaged_map_gives_a_map_error_or_loads(tmp_path):
    text = MINI_MAP.read_text(encoding="utf-8")
    failures = run_all(tmp_path / "map.toml", text, 15, read_map)
    assert not failures, f"{len(failures)} damaged maps broke the loader:\n" + \
        "\n".join(failures[:15])


# The shared reader ------------------------------------------------------------------------
class OwnError(Exception):
    pass


@pytest.mark.parametrize("content,code", [
    (b"", "empty"), (b"a = [1,\n", "cut"), (b"a = 1\n= x\n", "garbled"),
    (b"a = \xff\n", "binary"), (b"a = " + b"[" * 3000 + b"]" * 3000 + b"\n", "too_deep"),
    (b"a = " + b"[" * 40 + b"]" * 40 + b"\n", "too_deep"),
    (b"a = " + b"9" * 5000 + b"\n", "bad_value")])
def test_the_shared_reader_names_the_file_and_raises_the_readers_own_error(tmp_path, content,
                                                                           code):
    path = tmp_path / "thing.toml"
    path.write_bytes(content)
    with pytest.raises(TomlFileError) as problem:
        read_toml(path, "thing file")
    assert problem.value.code == code
    with pytest.raises(OwnError, match=r"thing file thing\.toml"):
        read_toml(path, "thing file", OwnError)


def test_the_shared_reader_says_when_there_is_no_file_or_a_folder(tmp_path):
    with pytest.raises(OwnError, match="There is no thing file at"):
        read_toml(tmp_path / "gone.toml", "thing file", OwnError)
    with pytest.raises(OwnError, match="is a folder, not a thing file"):
        read_toml(tmp_path, "thing file", OwnError)
    big = tmp_path / "big.toml"
    big.write_text("a = 1\n" * 10)
    with pytest.raises(OwnError, match="far too large"):
        read_toml(big, "thing file", OwnError, max_bytes=20)


# Harmless changes -------------------------------------------------------------------------
HARMLESS = {
    "Windows line endings": lambda raw: raw.replace(b"\n", b"\r\n"),
    "a byte order mark": lambda raw: b"\xef\xbb\xbf" + raw,
    "comments and blank lines": lambda raw: b"# kept by hand\n\n" + raw.replace(
        b"\n", b"\n\n", 3) + b"\n# the end\n",
}


def _save_data(path: Path):
    save = read_save(path)
    return save.game.state.to_dict(), save.game.log, save.meta


def _settings_data(path: Path):
    return load_settings(path)


@pytest.mark.parametrize("change", HARMLESS.values(), ids=HARMLESS.keys())
def test_a_harmlessly_edited_file_reads_as_the_original(tmp_path, save_text, campaign_text,
                                                        change):
    save_settings(SETTINGS, tmp_path / "settings.toml")
    save_last_setup(tmp_path / "last_setup.toml", "usa", {}, SEATS)
    (tmp_path / "game.toml").write_text(save_text, encoding="utf-8")
    (tmp_path / "c.toml").write_text(campaign_text, encoding="utf-8")
    (tmp_path / "map.toml").write_bytes(MINI_MAP.read_bytes())
    readers = {"game.toml": _save_data, "c.toml": read_campaign,
               "settings.toml": _settings_data, "last_setup.toml": load_last_setup,
               "map.toml": lambda p: load_map(p).fingerprint()}
    for name, read in readers.items():
        path = tmp_path / name
        original = read(path)
        path.write_bytes(change(path.read_bytes()))
        assert read(path) == original, name
