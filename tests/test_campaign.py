"""The Legacy campaign (rules.md §3.8): state carried from game to game, and its file."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ttr_desktop.campaign import (
    CampaignError,
    Company,
    bot_retire_choice,
    new_campaign,
    next_game,
    record_game,
    retire_choices,
    retire_event,
    start_game,
)
from ttr_desktop.campaign_sim import format_standings, play_campaign, play_out
from ttr_desktop.persistence.campaign import (
    CampaignFileError,
    campaign_to_dict,
    list_campaigns,
    read_campaign,
    save_campaign,
)
from ttr_desktop.persistence.saves import read_save, save_game
from ttr_desktop.rules.modules.legacy import EVENT_BY_ID


def three_companies() -> list[Company]:
    return [Company("blue", "Ann"), Company("red", "Bob", "bot", "greedy"),
            Company("green", "Cy", "bot", "random")]


def play_next(campaign, present=None):
    setup = next_game(campaign, present)
    start_game(campaign, setup)
    levels = ["greedy" if c == "blue" else campaign.company(c).level for c in setup.order]
    return setup, play_out(setup.new_game(), levels, setup.seed)


# ----------------------------------------------------------------------
# The whole campaign
def test_a_twelve_game_bot_campaign_carries_caboose_retired_events_and_vaults():
    seen: list[tuple] = []

    def check(campaign, game):
        record = campaign.games[-1]
        view = game.view(0).extra["legacy"]
        companies = list(view["companies"])
        # The game was set up from the campaign: the caboose holder first, retired events out.
        assert companies[0] == record.order[0]
        assert set(view["retired"]) == set(campaign.retired) - {record.retired}
        assert not set(view["events_seen"]) & (set(campaign.retired) - {record.retired})
        # Slips into the vaults; the last place takes the caboose.
        result = game.result()
        assert record.slips == {companies[sc.seat]: sc.total for sc in result.scores}
        assert min(record.slips.values()) >= 0
        assert campaign.caboose == record.last == companies[result.ranking[-1]]
        # The caboose holder retired an event from this game's event discard pile.
        if view["events_seen"]:
            assert record.retired in view["events_seen"]
        else:
            assert record.retired == ""
        seen.append((record.number, record.order[0], record.last))

    campaign = play_campaign(["greedy", "easy", "random"], 12, seed=5, after_game=check)
    assert campaign.over and len(campaign.games) == 12
    assert [n for n, _, _ in seen] == list(range(1, 13))
    for (_, _, last), (_, first, _) in zip(seen, seen[1:]):
        assert first == last            # last place of one game goes first in the next
    assert campaign.retired == [g.retired for g in campaign.games if g.retired]
    assert len(set(campaign.retired)) == len(campaign.retired) <= len(EVENT_BY_ID)
    vaults = campaign.vaults()
    for colour in campaign.colours:
        assert vaults[colour] == sum(g.slips[colour] for g in campaign.games)
    text = format_standings(campaign)
    assert "12 of 12 games" in text and "vault" in text


def test_the_campaign_survives_its_file_after_every_game(tmp_path: Path):
    path = tmp_path / "campaigns" / "c.toml"

    def keep(campaign, game):
        save_campaign(campaign, path)
        again = read_campaign(path)
        assert campaign_to_dict(again) | {"saved_at": ""} == \
            campaign_to_dict(campaign) | {"saved_at": ""}

    play_campaign(["greedy", "greedy"], 4, seed=2, after_game=keep)
    assert len(read_campaign(path).games) == 4


def test_the_caboose_is_given_at_random_before_the_first_game_and_the_holder_goes_first():
    holders = {new_campaign(three_companies(), seed=s).caboose for s in range(30)}
    assert holders == {"blue", "red", "green"}
    campaign = new_campaign(three_companies(), seed=1)
    campaign.caboose = "green"
    setup = next_game(campaign)
    assert setup.order == ["green", "blue", "red"]        # table order, turned
    assert setup.players == ["Cy", "Ann", "Bob"]
    assert setup.new_game().view(0).extra["legacy"]["companies"] == ("green", "blue", "red")


def test_retired_events_are_left_out_of_the_next_game():
    campaign = new_campaign(three_companies(), seed=1)
    campaign.retired = ["dividends", "mama_fee"]
    game = next_game(campaign).new_game()
    info = game.view(0).extra["legacy"]
    assert info["retired"] == ("dividends", "mama_fee") and info["events_left"] == 5


def test_the_caboose_holder_retires_one_event_from_the_event_discard_pile():
    campaign = new_campaign(three_companies(), seed=4)
    _, game = play_next(campaign)
    record = record_game(campaign, game)
    pile = list(game.view(0).extra["legacy"]["events_seen"])
    assert retire_choices(campaign) == pile and campaign.pending_retire == bool(pile)
    if not pile:
        pytest.skip("no newspaper came up in this game")
    with pytest.raises(CampaignError):
        next_game(campaign)                    # the retire decision comes first
    outside = next(e for e in EVENT_BY_ID if e not in pile) if len(pile) < 7 else None
    if outside:
        with pytest.raises(CampaignError, match="cannot be retired"):
            retire_event(campaign, outside)
    retire_event(campaign, pile[0])
    assert campaign.retired == [pile[0]] and record.retired == pile[0]
    assert not campaign.pending_retire and next_game(campaign).number == 2


def test_recording_the_same_game_twice_changes_nothing():
    campaign = new_campaign(three_companies(), seed=4)
    _, game = play_next(campaign)
    first = record_game(campaign, game, 1)
    assert record_game(campaign, game, 1) is first and len(campaign.games) == 1


def test_a_game_not_of_this_campaign_is_refused():
    campaign = new_campaign(three_companies(), seed=4)
    other = new_campaign(three_companies(), seed=9)
    _, game = play_next(other)
    with pytest.raises(CampaignError, match="not game 1"):
        record_game(campaign, game, 1)


def test_a_bot_retires_an_event_that_served_it_worst():
    campaign = new_campaign(three_companies(), seed=4)
    campaign.companies[1].colour = "red"
    from ttr_desktop.campaign import GameRecord
    campaign.games.append(GameRecord(1, 0, ["blue", "red", "green"], {"blue": 5, "red": 0,
                                     "green": 3}, "red", "", ["mama_fee", "right_of_way"]))
    campaign.caboose = "red"
    # The fee on red routes costs the red company: it goes.
    assert bot_retire_choice(campaign, "greedy") == "mama_fee"
    assert bot_retire_choice(campaign, "random", rng=random.Random(1)) in \
        ("mama_fee", "right_of_way")


def test_a_company_that_misses_a_game_gets_the_lowest_slip_at_the_end():
    campaign = new_campaign(three_companies(), seed=6, length=2)
    campaign.caboose = "green"
    setup, game = play_next(campaign, present=["blue", "red"])
    # The holder misses the game: the caboose goes to a company that plays.
    assert setup.caboose in ("blue", "red") and setup.order[0] == setup.caboose
    record_game(campaign, game)
    if campaign.pending_retire:
        retire_event(campaign, bot_retire_choice(campaign))
    assert campaign.missed("green") == [1]
    assert campaign.vaults()["green"] == 0              # revealed at the end only
    _, game = play_next(campaign)
    record_game(campaign, game)
    if campaign.pending_retire:
        retire_event(campaign, bot_retire_choice(campaign))
    assert campaign.over
    first = campaign.games[0]
    assert campaign.slip("green", first) == min(first.slips.values())
    assert campaign.vaults()["green"] == min(first.slips.values()) + \
        campaign.games[1].slips["green"]


def test_a_campaign_needs_two_to_five_different_companies():
    with pytest.raises(CampaignError, match="2 to 5"):
        new_campaign([Company("blue", "Ann")])
    with pytest.raises(CampaignError, match="two players run the blue company"):
        new_campaign([Company("blue", "Ann"), Company("blue", "Bob")])
    with pytest.raises(CampaignError, match="not a company colour"):
        new_campaign([Company("white", "Ann"), Company("blue", "Bob")])


# ----------------------------------------------------------------------
# The file
def saved(tmp_path: Path):
    campaign = play_campaign(["greedy", "random"], 2, seed=3)
    path = tmp_path / "c.toml"
    save_campaign(campaign, path)
    return campaign, path


def test_a_damaged_campaign_file_gives_a_clear_message_and_is_kept_before_overwriting(
        tmp_path: Path):
    campaign, path = saved(tmp_path)
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: len(text) // 2], encoding="utf-8")      # cut short
    with pytest.raises(CampaignFileError, match="damaged"):
        read_campaign(path)
    broken = path.read_bytes()
    save_campaign(campaign, path)                                  # never without a copy
    copies = list((tmp_path / "damaged").glob("c.damaged-*.toml"))
    assert len(copies) == 1 and copies[0].read_bytes() == broken
    assert read_campaign(path).games == campaign.games


@pytest.mark.parametrize("edit, words", [
    (lambda t: t.replace('caboose = "', 'caboose = "x'), "caboose"),
    (lambda t: t.replace("game = 3", "game = 5"), "next game is game 5"),
    (lambda t: t.replace('kind = "legacy-campaign"', 'kind = "save"'), "not a Legacy campaign"),
    (lambda t: t.replace("format = 1", "format = 9"), "newer"),
    (lambda t: t.replace('kind = "bot"', 'kind = "robot"', 1), "'human' or 'bot'"),
    (lambda t: t.replace('colour = "blue"', 'colour = "pink"'), "pink"),
    (lambda t: t.replace("length = 2", "length = 1"), "records 2 games"),
    (lambda t: t.replace("seed = ", 'seed = "x" #', 1), "'seed'"),
    (lambda t: t.replace("number = 2", "number = 7"), "game 7"),
])
def test_an_edited_campaign_file_is_refused_naming_the_problem(tmp_path: Path, edit, words):
    _, path = saved(tmp_path)
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(CampaignFileError) as err:
        read_campaign(path)
    assert words in str(err.value)


def test_a_bad_bank_slip_is_named(tmp_path: Path):
    _, path = saved(tmp_path)
    text = path.read_text(encoding="utf-8")
    import re
    text = re.sub(r"(\[games\.slips\]\n\w+ = )\d+", r"\g<1>-4", text, count=1)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CampaignFileError, match="bank slip"):
        read_campaign(path)


def test_empty_and_missing_campaign_files_are_explained(tmp_path: Path):
    (tmp_path / "e.toml").write_text("", encoding="utf-8")
    with pytest.raises(CampaignFileError, match="empty"):
        read_campaign(tmp_path / "e.toml")
    with pytest.raises(CampaignFileError, match="no campaign file"):
        read_campaign(tmp_path / "nothing.toml")
    listed = list_campaigns(tmp_path)
    assert len(listed) == 1 and listed[0][1] is None and "empty" in listed[0][2]


# ----------------------------------------------------------------------
# Quitting mid-game
def test_a_game_saved_mid_game_points_to_its_campaign_and_continues(tmp_path: Path):
    campaign = new_campaign(three_companies(), seed=8)
    cpath = tmp_path / "campaigns" / "c.toml"
    setup = next_game(campaign)
    gpath = tmp_path / "autosaves" / "g.toml"
    start_game(campaign, setup, str(gpath))
    save_campaign(campaign, cpath)
    game = setup.new_game()
    from ttr_desktop.bots import make_bot
    bot = make_bot("greedy", seed=1)
    for _ in range(25):
        game.apply(bot.choose(game.view(game.current_seat), game.legal_actions()))
    save_game(game, gpath, meta={"campaign": {"path": str(cpath), "game": 1}})

    # Quit; later the campaign's file says which game is under way and where it is saved.
    again = read_campaign(cpath)
    assert again.playing is not None and again.playing.save == str(gpath)
    loaded = read_save(gpath)
    assert loaded.meta["campaign"] == {"path": str(cpath), "game": 1}
    assert next_game(again).seed == loaded.game.seed       # the same game, not a new one
    play_out(loaded.game, ["greedy"] * 3, 1)
    record_game(again, loaded.game, loaded.meta["campaign"]["game"])
    assert again.playing is None and len(again.games) == 1
    assert again.caboose == again.games[0].last


def test_sim_plays_a_whole_bot_campaign_and_prints_the_standings(capsys):
    from ttr_desktop.sim import main
    assert main(["--variant", "legacy", "--campaign", "3", "--bots", "greedy,random",
                 "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "3 of 3 games" in out and "standings: 1." in out and "Green" not in out
    with pytest.raises(SystemExit):
        main(["--variant", "usa", "--campaign", "3", "--bots", "greedy,random"])


# ----------------------------------------------------------------------
# An edited file is refused, never read as another campaign
def under_way(tmp_path: Path):
    """A twelve-game campaign three games in, game 4 being played; its file's data."""
    from ttr_desktop.campaign_sim import bot_companies
    campaign = new_campaign(bot_companies(["random"] * 3), seed=1, name="Three in")
    for _ in range(3):
        setup, game = play_next(campaign)
        record_game(campaign, game)
        if campaign.pending_retire:
            retire_event(campaign, bot_retire_choice(campaign, "random",
                                                     rng=random.Random(setup.seed)))
    start_game(campaign, next_game(campaign), str(tmp_path / "game4.toml"))
    path = save_campaign(campaign, tmp_path / "c.toml")
    import tomllib
    return campaign, path, tomllib.loads(path.read_text(encoding="utf-8"))


def rewrite(path: Path, data: dict) -> None:
    import tomli_w
    path.write_text(tomli_w.dumps(data), encoding="utf-8")


def _swap_companies(d):
    d["companies"][0], d["companies"][1] = d["companies"][1], d["companies"][0]


def _last_not_lowest(d):
    g = d["games"][0]
    g["last"] = next(c for c in g["order"] if g["slips"][c] != min(g["slips"].values()))


def _discard_twice(d):
    g = next(g for g in d["games"] if g["discard"])
    g["discard"].append(g["discard"][0])


def _slip_bit(d):
    g = d["games"][1]
    top = max(g["order"], key=lambda c: g["slips"][c])
    g["slips"][top] ^= 4                # one bit flipped, still not the lowest


#: Edits that contradict what follows from the rest of the file.
CONTRADICTIONS = {
    "a game's seed": (lambda d: d["games"][1].__setitem__("seed", d["games"][1]["seed"] + 1),
                      "seed"),
    "the game in progress's seed": (lambda d: d["playing"].__setitem__("seed", 7), "seed"),
    "a last place that is not the lowest slip": (_last_not_lowest, "not the lowest"),
    "an event twice in a discard pile": (_discard_twice, "twice"),
    "the companies reordered": (_swap_companies, "turn order"),
    "a game's turn order": (lambda d: d["games"][2]["order"].reverse(), "turn order"),
}
#: Edits of what follows from nothing else: only the file's check number tells.
UNDERIVABLE = {
    "the campaign's length": lambda d: d.__setitem__("length", 16),
    "a bank slip": _slip_bit,
    "the game in progress dropped": lambda d: d.pop("playing"),
    "the campaign's name": lambda d: d.__setitem__("name", "Another"),
}


@pytest.mark.parametrize("what", CONTRADICTIONS)
def test_an_edit_that_contradicts_the_rest_of_the_file_is_refused(tmp_path: Path, what):
    _, path, data = under_way(tmp_path)
    edit, words = CONTRADICTIONS[what]
    edit(data)
    del data["check"]                   # even without the check number (an older file)
    rewrite(path, data)
    with pytest.raises(CampaignFileError) as err:
        read_campaign(path)
    assert words in str(err.value) and "c.toml" in str(err.value)


@pytest.mark.parametrize("what", list(CONTRADICTIONS) + list(UNDERIVABLE))
def test_any_edit_of_a_campaign_file_is_refused(tmp_path: Path, what):
    _, path, data = under_way(tmp_path)
    edit = UNDERIVABLE[what] if what in UNDERIVABLE else CONTRADICTIONS[what][0]
    edit(data)
    rewrite(path, data)
    with pytest.raises(CampaignFileError, match="edited or is damaged"):
        read_campaign(path)


def test_an_edit_of_what_the_file_does_not_check_is_harmless(tmp_path: Path):
    campaign, path, data = under_way(tmp_path)
    data["saved_at"] = "2001-01-01T00:00:00+00:00"
    del data["check"]
    rewrite(path, data)
    again = read_campaign(path)
    assert again == campaign


# ----------------------------------------------------------------------
# Saving never writes what reading refuses
@pytest.mark.parametrize("change, words", [
    (lambda c: setattr(c, "name", "N" * 101), "name"),
    (lambda c: setattr(c, "seed", -1), "seed"),
    (lambda c: setattr(c, "seed", 2 ** 63), "seed"),
    (lambda c: setattr(c, "caboose", "purple"), "caboose"),
    (lambda c: setattr(c, "length", 2), "records 3 games"),
    (lambda c: setattr(c.companies[0], "player", "P" * 101), "name"),
    (lambda c: c.games[0].slips.update({c.games[0].order[0]: -3}), "bank slip"),
])
def test_a_campaign_the_reader_would_refuse_is_not_saved_over_a_good_file(
        tmp_path: Path, change, words):
    campaign, path, _ = under_way(tmp_path)
    before = path.read_bytes()
    change(campaign)
    with pytest.raises(CampaignFileError) as err:
        save_campaign(campaign, path)
    assert words in str(err.value) and "unchanged" in str(err.value)
    assert path.read_bytes() == before and read_campaign(path).name == "Three in"


@pytest.mark.parametrize("kwargs, words", [
    ({"name": "N" * 101}, "name"),
    ({"seed": -1}, "seed"),
    ({"seed": 2 ** 63}, "seed"),
    ({"length": 100}, "1 to 99"),
])
def test_a_new_campaign_refuses_what_its_file_could_not_hold(kwargs, words):
    with pytest.raises(CampaignError, match=words):
        new_campaign(three_companies(), **kwargs)
    with pytest.raises(CampaignError, match="name"):
        new_campaign([Company("blue", "A" * 101), Company("red", "Bob")])


def test_every_games_first_player_follows_from_the_campaign_seed():
    from ttr_desktop.campaign_sim import play_campaign as play
    once, again = play(["random"] * 3, 3, seed=5), play(["random"] * 3, 3, seed=5)
    assert [g.order for g in once.games] == [g.order for g in again.games]
    shares = set()
    for seed in range(20):
        campaign = new_campaign(three_companies(), seed=seed)
        present = [c for c in campaign.colours if c != campaign.caboose]   # holder misses
        setup = next_game(campaign, present)
        assert setup.caboose in present and next_game(campaign, present).caboose == \
            setup.caboose
        shares.add(present.index(setup.caboose))
    assert shares == {0, 1}             # drawn at random, from the game's seed


def test_a_campaign_game_played_with_other_rules_is_not_recorded():
    from ttr_desktop.rules import new_game
    campaign = new_campaign(three_companies(), seed=4)
    setup = next_game(campaign)
    start_game(campaign, setup)
    options = {**setup.options, "company_bonus_dollars": 40}
    game = new_game("legacy", setup.players, seed=setup.seed, options=options)
    play_out(game, ["random"] * 3, 1)
    with pytest.raises(CampaignError, match="not game 1"):
        record_game(campaign, game)
    assert campaign.games == []


def _damaged(text: str, rng: random.Random):
    """Damaged copies of a file's text: each line lost, doubled or swapped with the next,
    and single bits flipped."""
    lines = text.split("\n")
    for i in range(len(lines)):
        yield "\n".join(lines[:i] + lines[i + 1:]).encode()
        yield "\n".join(lines[:i + 1] + lines[i:]).encode()
        yield "\n".join(lines[:i] + lines[i + 1:i + 2] + lines[i:i + 1] + lines[i + 2:]).encode()
    raw = text.encode()
    for _ in range(300):
        flipped = bytearray(raw)
        flipped[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
        yield bytes(flipped)


def test_no_damage_to_a_campaign_file_reads_as_another_campaign(tmp_path: Path):
    campaign, path, _ = under_way(tmp_path)
    changed = []
    for k, damaged in enumerate(_damaged(path.read_text(encoding="utf-8"), random.Random(1))):
        path.write_bytes(damaged)
        try:
            read = read_campaign(path)
        except CampaignFileError:
            continue                                # refused, with a message
        if read != campaign:                        # or read unchanged (a blank line lost)
            changed.append(k)
    assert changed == []
