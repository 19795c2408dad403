"""The Legacy campaign in the window (headless): a new campaign from the title screen, a
game played into it, the retire-an-event choice and the standings."""

from __future__ import annotations

from pathlib import Path

import pygame

from tests.ui.conftest import click, find_button, step
from ttr_desktop.campaign import Company, new_campaign, next_game, record_game, start_game
from ttr_desktop.campaign_sim import play_campaign, play_out
from ttr_desktop.persistence.campaign import campaigns_dir, read_campaign, save_campaign
from ttr_desktop.ui.scenes.campaign import (
    CampaignListOverlay,
    CampaignScene,
    CampaignSetupScene,
    RetireOverlay,
    after_campaign_game,
    seats_of,
)
from ttr_desktop.ui.scenes.menu import MenuScene
from ttr_desktop.ui.session import GameSession, choice_key


def menu(app) -> MenuScene:
    scene = app.push(MenuScene(app))
    step(app, 2)
    return scene


def campaign_with_a_game(home: Path, human_last: bool = True):
    """A saved campaign whose first game is over and a person holds the caboose."""
    for seed in range(40):
        campaign = new_campaign([Company("blue", "Ann"), Company("red", "Bot 2", "bot")],
                                seed=seed, name="Test campaign")
        setup = next_game(campaign)
        start_game(campaign, setup)
        game = play_out(setup.new_game(), ["greedy", "greedy"], setup.seed)
        record_game(campaign, game)
        if (campaign.caboose == "blue") == human_last and campaign.pending_retire:
            path = campaigns_dir(home / "data") / "test.toml"
            save_campaign(campaign, path)
            return path, campaign, game
    raise AssertionError("no seed gave the wanted ending")


def test_the_title_screen_starts_a_new_campaign(app, home: Path):
    scene = menu(app)
    click(app, find_button(scene, "Legacy campaign"))
    overlay = app.top
    assert isinstance(overlay, CampaignListOverlay)
    click(app, find_button(overlay, "New campaign"))
    setup = app.top
    assert isinstance(setup, CampaignSetupScene)
    assert [c.colour for c in setup.chosen()] == ["blue", "red"]
    click(app, find_button(setup, "out"))            # green joins
    assert [c.colour for c in setup.chosen()] == ["blue", "red", "green"]
    click(app, find_button(setup, "Start campaign"))
    hub = app.top
    assert isinstance(hub, CampaignScene)
    files = list(campaigns_dir(home / "data").glob("*.toml"))
    assert len(files) == 1
    saved = read_campaign(files[0])
    assert saved.colours == ["blue", "red", "green"] and saved.caboose in saved.colours
    find_button(hub, "Play game 1 of 12")


def test_a_campaign_game_opens_on_the_board_with_the_caboose_holder_first(app, home: Path,
                                                                           board_cls):
    campaign = new_campaign([Company("blue", "Ann"), Company("red", "Bot 2", "bot")], seed=3,
                            name="C")
    path = campaigns_dir(home / "data") / "c.toml"
    save_campaign(campaign, path)
    hub = app.push(CampaignScene(app, path, campaign))
    step(app, 2)
    click(app, find_button(hub, "Play game 1 of 12"))
    board = next(s for s in app.scenes if isinstance(s, board_cls))
    session = board.session
    assert session.links["campaign"] == {"path": str(path), "game": 1}
    assert session.seats[0].color == campaign.caboose
    again = read_campaign(path)
    assert again.playing is not None and again.playing.save == str(session.autosave_path)
    # Quitting mid-game: the save points to the campaign and the campaign resumes it.
    session.autosave()
    session.wait_for_autosave()
    loaded = GameSession.load(session.autosave_path)
    assert loaded.links == session.links


def test_after_a_game_a_person_holding_the_caboose_retires_an_event(app, home: Path):
    path, campaign, game = campaign_with_a_game(home / "x")
    campaign = read_campaign(path)
    choices = campaign.games[-1].discard
    hub = app.push(CampaignScene(app, path, campaign, game=game))
    step(app, 3)
    overlay = app.top
    assert isinstance(overlay, RetireOverlay)          # asked at once, never a stuck screen
    assert overlay.choices == choices
    first = choices[0]
    click(app, overlay.choice_buttons[0].rect.center)
    assert app.top is hub
    assert read_campaign(path).retired == [first]
    find_button(hub, "Play game 2 of 12")


def test_a_bot_holding_the_caboose_retires_by_itself(app, home: Path):
    path, campaign, game = campaign_with_a_game(home / "x", human_last=False)
    hub = app.push(CampaignScene(app, path, campaign, game=game))
    step(app, 3)
    assert app.top is hub and not campaign.pending_retire
    assert read_campaign(path).retired == campaign.retired and len(campaign.retired) == 1
    assert "retired" in hub.note


def test_the_scoring_screen_continues_the_campaign(app, home: Path, board_cls):
    for seed in range(40):
        campaign = new_campaign([Company("blue", "Ann", "bot"), Company("red", "Bob", "bot")],
                                seed=seed, name="C")
        path = campaigns_dir(home / "data") / "c.toml"
        setup = next_game(campaign)
        start_game(campaign, setup)
        save_campaign(campaign, path)
        game = play_out(setup.new_game(), ["greedy", "greedy"], setup.seed)
        session = GameSession(game, seats_of(campaign, setup.order), choice_key(game))
        session.links = {"campaign": {"path": str(path), "game": 1}}
        go_on = after_campaign_game(app, session)
        assert go_on is not None
        saved = read_campaign(path)
        assert len(saved.games) == 1 and saved.playing is None   # recorded at once
        assert after_campaign_game(app, session) is not None     # twice changes nothing
        assert len(read_campaign(path).games) == 1
        from ttr_desktop.ui.scenes.scoring import ScoringScene
        scoring = app.push(ScoringScene(app, session))
        step(app, 2)
        assert scoring.play_again_button.label == "Continue campaign"
        scoring.play_again()
        step(app, 3)
        assert isinstance(app.top, CampaignScene)
        return
    raise AssertionError("unreachable")


def test_the_standings_show_the_vaults_as_a_table_and_a_chart(app, home: Path):
    campaign = play_campaign(["greedy", "easy", "random"], 12, seed=4)
    path = campaigns_dir(home / "data") / "done.toml"
    save_campaign(campaign, path)
    hub = app.push(CampaignScene(app, path, campaign))
    step(app, 3)
    title, sub = hub.headline()
    leader = campaign.company(campaign.ranking()[0]).player
    assert leader in title and "All 12 games" in sub
    surface = pygame.Surface(app.size)
    hub.draw(surface)
    # The chart's lines are drawn in the companies' colours.
    from ttr_desktop.ui.scenes.campaign_chart import company_rgb, table_rows
    rows = table_rows(campaign)
    assert [r[3] for r in rows] == [f"${campaign.vaults()[c]}" for c in campaign.colours]
    chart = hub.chart_rect
    pixels = {tuple(surface.get_at((x, y)))[:3] for x in range(chart.x, chart.right, 2)
              for y in range(chart.y, chart.bottom, 2)}
    for colour in campaign.colours:
        assert company_rgb(colour) in pixels
    # Nothing is offered to play once the campaign is over.
    from pygame_gui.elements import UIButton
    labels = [e.text for e in hub.ui.get_sprite_group().sprites() if isinstance(e, UIButton)]
    assert not any(label.startswith("Play game") for label in labels)


def test_a_damaged_campaign_is_explained_and_left_alone(app, home: Path):
    folder = campaigns_dir(home / "data")
    folder.mkdir(parents=True)
    bad = folder / "broken.toml"
    bad.write_text('format = 1\nkind = "legacy-campaign"\nname = "x', encoding="utf-8")
    before = bad.read_bytes()
    scene = menu(app)
    click(app, find_button(scene, "Legacy campaign"))
    overlay = app.top
    click(app, find_button(overlay, "Why?"))
    message = app.top
    assert "damaged" in message.message and str(bad) in message.message
    assert bad.read_bytes() == before


def test_a_campaign_game_left_mid_game_is_resumed_from_the_campaign(app, home: Path,
                                                                    board_cls):
    campaign = new_campaign([Company("blue", "Ann"), Company("red", "Bot 2", "bot")], seed=3,
                            name="C")
    path = campaigns_dir(home / "data") / "c.toml"
    save_campaign(campaign, path)
    hub = app.push(CampaignScene(app, path, campaign))
    step(app, 2)
    click(app, find_button(hub, "Play game 1 of 12"))
    session = next(s for s in app.scenes if isinstance(s, board_cls)).session
    session.autosave()
    session.wait_for_autosave()
    seed = session.game.seed
    # Quit to the title screen, then continue the campaign: the same game comes back.
    app.replace(MenuScene(app))
    step(app, 2)
    hub = app.replace(CampaignScene(app, path, read_campaign(path)))
    step(app, 2)
    click(app, find_button(hub, "Continue game 1"))
    again = next(s for s in app.scenes if isinstance(s, board_cls)).session
    assert again.game.seed == seed and again.links == session.links
    assert again.autosave_path == session.autosave_path
