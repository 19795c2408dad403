"""Sound effects with volume and mute; silent (never failing) where no audio device exists."""

from __future__ import annotations

import logging

import pygame

from ttr_desktop.persistence.settings import Settings
from ttr_desktop.resources import resource_path

NAMES = ("draw", "claim", "ticket", "end", "click", "error")
log = logging.getLogger("ttr_desktop.sound")


class Sound:
    """Plays the effects in assets/sounds/ at the settings' volume."""

    def __init__(self, settings: Settings) -> None:
        self.sounds: dict[str, pygame.mixer.Sound] = {}
        self.volume = settings.volume
        self.muted = settings.mute
        self.played: list[str] = []  # what was asked for (tests read it)
        try:
            if not pygame.mixer.get_init():
                pygame.mixer.init(frequency=22050, size=-16, channels=1, buffer=512)
            for name in NAMES:
                self.sounds[name] = pygame.mixer.Sound(str(resource_path("assets", "sounds",
                                                                         f"{name}.wav")))
        except (pygame.error, FileNotFoundError, OSError) as exc:
            log.info("sound off: %s", exc)
            self.sounds = {}

    def configure(self, settings: Settings) -> None:
        """Follow new volume/mute settings."""
        self.volume = settings.volume
        self.muted = settings.mute

    def play(self, name: str) -> None:
        """Play effect ``name`` unless muted."""
        self.played.append(name)
        del self.played[:-50]
        if self.muted or self.volume <= 0:
            return
        snd = self.sounds.get(name)
        if snd is not None:
            snd.set_volume(self.volume)
            snd.play()
