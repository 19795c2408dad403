"""Synthesise the game's sound effects into assets/sounds/ (stdlib only, deterministic).

The sounds are made here from sine waves and noise, so they are ours to ship.
Run: python tools/make_sounds.py
"""

from __future__ import annotations

import math
import random
import struct
import wave
from pathlib import Path

RATE = 22050
OUT = Path(__file__).resolve().parent.parent / "assets" / "sounds"


def envelope(i: int, n: int, attack: float = 0.01, release: float = 0.6) -> float:
    t = i / RATE
    a = min(1.0, t / attack) if attack else 1.0
    r = max(0.0, 1.0 - i / n) ** (1.0 / max(release, 0.05))
    return a * r


def tone(freqs: list[float], seconds: float, volume: float = 0.5, release: float = 0.6,
         noise: float = 0.0, seed: int = 1) -> list[float]:
    rng = random.Random(seed)
    n = int(RATE * seconds)
    out = []
    for i in range(n):
        t = i / RATE
        s = sum(math.sin(2 * math.pi * f * t) for f in freqs) / max(1, len(freqs))
        if noise:
            s = s * (1 - noise) + (rng.random() * 2 - 1) * noise
        out.append(s * volume * envelope(i, n, release=release))
    return out


def concat(*parts: list[float], gap: float = 0.0) -> list[float]:
    out: list[float] = []
    for p in parts:
        out.extend(p)
        out.extend([0.0] * int(RATE * gap))
    return out


def write(name: str, samples: list[float]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with wave.open(str(OUT / name), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(b"".join(struct.pack("<h", int(max(-1, min(1, s)) * 32000))
                               for s in samples))


def main() -> None:
    # A card sliding off the deck: a short soft noise swish.
    write("draw.wav", tone([2200], 0.12, 0.35, release=0.3, noise=0.85, seed=3))
    # Claiming: train cars clicking into place, then a low chord.
    clicks = concat(*[tone([900, 1400], 0.03, 0.45, release=0.2, noise=0.5, seed=k)
                      for k in range(4)], gap=0.035)
    write("claim.wav", concat(clicks, tone([196, 247, 294], 0.35, 0.4, release=0.5)))
    # A completed ticket: a bright rising arpeggio.
    write("ticket.wav", concat(*[tone([f], 0.12, 0.4, release=0.5) for f in
                                 (523.25, 659.25, 783.99)], tone([1046.5], 0.3, 0.4)))
    # The end: a train whistle (two detuned tones) and a final chord.
    whistle = tone([587, 740, 880], 0.6, 0.45, release=1.2)
    write("end.wav", concat(whistle, tone([392, 494, 587, 784], 0.9, 0.4, release=0.8),
                            gap=0.05))
    # A soft click for buttons and a low buzz for a refused move.
    write("click.wav", tone([1200], 0.04, 0.3, release=0.2))
    write("error.wav", tone([140, 147], 0.22, 0.4, release=0.5))
    print("sounds written to", OUT)


if __name__ == "__main__":
    main()
