"""A game in the window: the engine game plus seats, undo, score history and autosave.

No drawing here: the board scene turns clicks into actions and calls
``session.apply``; the menu builds sessions from the setup screen or a save.
"""

from __future__ import annotations

import threading
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ttr_desktop.persistence import SaveError, dumps_game, read_save, save_game, write_save_text
from ttr_desktop.persistence.autosaves import AUTOSAVE_LIMIT, prune
from ttr_desktop.rules import Action, Event, Game, Phase, new_game

#: What the setup screen offers, in order: key -> (engine variant, options, label). Filled
#: from the families' window descriptors (``ui.families``) in their list's order; code
#: outside the project adds a choice with ``register_choice``.
VARIANT_CHOICES: dict[str, tuple[str, dict[str, Any], str]] = {}
#: Entries of a save's meta table that say what the game belongs to (see GameSession.links).
LINK_KEYS = ("campaign",)
#: Bot levels the setup offers, easiest first: engine bot name -> label.
BOT_LEVELS: dict[str, str] = {"easy": "Easy", "greedy": "Normal", "hard": "Hard",
                              "random": "Random moves"}


#: Engine variant -> fn(seats) giving setup options from the seats (a family whose
#: players' colours mean something to the rules, such as companies); it may raise
#: ValueError with a player-readable reason. Families add theirs with ``register_seat_options``.
SEAT_OPTIONS: dict[str, Any] = {}


def register_choice(key: str, variant: str, options: dict[str, Any], label: str) -> None:
    """Offer a variant (with options) on the setup screen under ``label``."""
    VARIANT_CHOICES[key] = (variant, dict(options), label)


def register_seat_options(variant: str, fn) -> None:
    """Derive setup options of ``variant`` from the seats: ``fn(seats) -> dict``."""
    SEAT_OPTIONS[variant] = fn


def _link_ok(key: str, value: Any) -> bool:
    """True when a save's link entry can be followed (a campaign: its file and game)."""
    if not isinstance(value, dict):
        return False
    if key == "campaign":
        game = value.get("game")
        return isinstance(value.get("path"), str) and isinstance(game, int) \
            and not isinstance(game, bool)
    return True


def choice_key(game: Game) -> str:
    """The setup choice a game belongs to (its variant with the same options)."""
    optional = game.ruleset.optional_modules
    for key, (variant, options, _) in VARIANT_CHOICES.items():
        if variant == game.variant and options == {
                k: v for k, v in game.options.items()
                if k in options or (v and k in optional)}:   # not who goes first, say
            return key
    return game.variant


@dataclass
class SeatConfig:
    """One seat: who plays it and how it looks."""

    name: str
    kind: str = "human"          # "human" or "bot"
    level: str = "greedy"        # bot level when kind == "bot"
    color: str = "red"

    @property
    def is_bot(self) -> bool:
        """True for a computer player."""
        return self.kind == "bot"

    def label(self) -> str:
        """'Ann' or 'Bot 2 (Normal)'."""
        return f"{self.name} ({BOT_LEVELS.get(self.level, self.level)})" if self.is_bot else \
            self.name

    @staticmethod
    def from_meta(data: Any, fallback_name: str, index: int) -> "SeatConfig":
        """A seat from a save's meta table (tolerant: bad entries become a human seat)."""
        return SeatConfig.read_meta(data, fallback_name, index)[0]

    @staticmethod
    def read_meta(data: Any, fallback_name: str, index: int) -> tuple["SeatConfig", list[str]]:
        """A seat from a save's meta table and what of it was unusable (each such value,
        of any type, falls back: a person's seat in the seat's usual colour)."""
        color = SEAT_COLORS[index % len(SEAT_COLORS)]
        if data is None:
            return SeatConfig(fallback_name, color=color), []
        if not isinstance(data, dict):
            return SeatConfig(fallback_name, color=color), [f"seat {index + 1}"]
        seat = SeatConfig(fallback_name, color=color)
        bad: list[str] = []
        for key, allowed, what in (("kind", ("human", "bot"), "who plays seat {}"),
                                   ("level", tuple(BOT_LEVELS), "seat {}'s bot level"),
                                   ("color", SEAT_COLORS, "seat {}'s colour")):
            if key not in data:
                continue
            value = data[key]
            if isinstance(value, str) and value in allowed:
                setattr(seat, key, value)
            else:
                bad.append(what.format(index + 1))
        return seat, bad


#: The colours a save's seat may have.
SEAT_COLORS = ("red", "blue", "green", "yellow", "black", "purple")


class GameSession:
    """The engine game with the window's bookkeeping."""

    def __init__(self, game: Game, seats: list[SeatConfig], variant_key: str) -> None:
        if len(seats) != game.num_players:
            raise ValueError("one seat configuration per player is needed")
        self.game = game
        self.seats = seats
        self.variant_key = variant_key
        #: (game before, seat, length of past_events before, the caller's note) per action
        #: that can be taken back.
        self.undo_stack: list[tuple[Game, int, int, Any]] = []
        #: The note of the earliest action the last ``undo()`` took back (None: none).
        self.undone_note: Any = None
        self.history: list[list[int]] = []      # score track after every turn
        self.last_events: list[Event] = []
        #: Every event since the start, with the acting seat (rebuilt from the move list on
        #: load, so the log survives saving and loading).
        self.past_events: list[Event] = []
        self._autosave_lock = threading.Lock()
        self._autosave_seq = 0
        self._autosave_threads: list[threading.Thread] = []
        self.autosave_error: str | None = None
        #: Where Save (Ctrl+S) writes; None until the player picks a name (Save as).
        self.save_path: Path | None = None
        #: This game's own autosave file (None: the game is not autosaved).
        self.autosave_path: Path | None = None
        #: How many autosaves (games) the folder keeps when this one first writes.
        self.autosave_keep = AUTOSAVE_LIMIT
        self._autosave_pruned = False
        self._finished = False
        #: What this game belongs to, kept in its saves (``campaign``: the campaign file
        #: and the game's number in it).
        self.links: dict[str, Any] = {}
        #: What was damaged in the save this session was loaded from (and fell back).
        self.load_notes: list[str] = []
        self._rebuild_history()

    # Construction --------------------------------------------------------
    @classmethod
    def new(cls, variant_key: str, seats: list[SeatConfig], seed: int | None = None,
            autosave_to: str | Path | None = None,
            first_player: int | str | None = None) -> "GameSession":
        """A new game from the setup screen's choices, autosaved to ``autosave_to``;
        ``first_player`` a seat, or "random" (drawn from the seed); None: the engine's
        default, the first seat."""
        variant, options, _ = VARIANT_CHOICES[variant_key]
        options = dict(options)
        if variant in SEAT_OPTIONS:
            options.update(SEAT_OPTIONS[variant](seats))
        if first_player is not None:
            options["first_player"] = first_player
        game = new_game(variant, [s.name for s in seats], seed=seed, options=options)
        session = cls(game, seats, variant_key)
        session.autosave_path = Path(autosave_to) if autosave_to else None
        return session

    @classmethod
    def load(cls, path: str | Path, autosave_to: str | Path | None = None) -> "GameSession":
        """A session from a save file, autosaved to ``autosave_to``; raises SaveError.

        The game itself must be intact; a damaged value in the save's meta table (who plays
        each seat, the setup choice, the campaign link) falls back to its default, and
        ``load_notes`` then says what, for the window to tell the player."""
        save = read_save(path)
        game = save.game
        meta = save.meta
        bad: list[str] = []
        raw = meta.get("seats", [])
        if not isinstance(raw, list):
            bad.append("the seat list")
            raw = []
        seats = []
        for i, name in enumerate(game.players):
            seat, problems = SeatConfig.read_meta(raw[i] if i < len(raw) else None, name, i)
            seats.append(seat)
            bad += problems
        key = meta.get("variant_key")
        if not isinstance(key, str) or key not in VARIANT_CHOICES:
            if "variant_key" in meta and not isinstance(key, str):
                bad.append("the game's setup choice")
            key = choice_key(game)
        session = cls(game, seats, key)
        for link in LINK_KEYS:
            if link in meta:
                if _link_ok(link, meta[link]):
                    session.links[link] = dict(meta[link])
                else:
                    bad.append(f"the {link} it belongs to")
        if bad:
            what = ", ".join(bad[:-1]) + " and " + bad[-1] if len(bad) > 1 else bad[0]
            session.load_notes.append(
                f"Part of {Path(path).name} is damaged ({what}); "
                f"{'defaults are' if len(bad) > 1 else 'a default is'} used instead. The "
                "game itself is loaded as it was saved.")
        session.save_path = Path(path)
        session.autosave_path = Path(autosave_to) if autosave_to else None
        return session

    def meta(self) -> dict[str, Any]:
        """What a save stores besides the game."""
        return {"seats": [asdict(s) for s in self.seats], "variant_key": self.variant_key,
                **self.links}

    def rematch(self, autosave_to: str | Path | None = None) -> "GameSession":
        """A new game with the same seats and variant (a new seed)."""
        return GameSession.new(self.variant_key, [SeatConfig(**asdict(s)) for s in self.seats],
                               autosave_to=autosave_to)

    # Play ----------------------------------------------------------------
    def is_human(self, seat: int) -> bool:
        """True when a person plays ``seat``."""
        return not self.seats[seat].is_bot

    @property
    def humans(self) -> list[int]:
        """Seats played by people."""
        return [i for i, s in enumerate(self.seats) if not s.is_bot]

    def apply(self, action: Action, note: Any = None) -> list[Event]:
        """Apply ``action`` for the current seat (IllegalAction propagates, nothing changes).

        A person's action that revealed nothing can be taken back until the next seat
        acts (the engine marks the events that reveal hidden cards or tickets). ``note`` is
        kept with it and handed back by ``undo`` (``undone_note``): the window keeps what
        it showed before the action there."""
        game = self.game
        seat = game.current_seat
        if self.undo_stack and self.undo_stack[-1][1] != seat:
            self.undo_stack.clear()      # another seat acts: earlier moves are final
        before = game.clone()
        turn_before = game.state.turn
        events = game.apply(action)
        self.last_events = events
        self.past_events.extend(events)
        if self.is_human(seat) and not any(e.reveals for e in events):
            self.undo_stack.append((before, seat, len(self.past_events) - len(events), note))
        else:
            self.undo_stack.clear()
        if game.state.turn != turn_before:
            self.history.append(list(game.state.points))
        return events

    def can_undo(self) -> bool:
        """True when a person's last action revealed nothing and no other seat has acted."""
        return bool(self.undo_stack)

    def undo_seat(self) -> int | None:
        """Whose action Ctrl+Z would take back (None: nothing)."""
        return self.undo_stack[-1][1] if self.undo_stack else None

    def undo(self, whole_move: bool = True) -> int | None:
        """Take back the last action; returns the seat whose action it was.

        With ``whole_move`` a move made of several steps is taken back whole, back to the
        turn where the player started it: a passenger's ride (one route at a time), a claim
        with the step that follows it (a passenger placed, a marker set). Taking back stops
        at a decision of another kind (the starting tickets kept before a home city)."""
        if not self.undo_stack:
            return None
        seat = self._undo_one()
        while (whole_move and self.undo_stack and self.undo_stack[-1][1] == seat
               and self.game.phase != Phase.TURN
               and self.undo_stack[-1][0].phase in (self.game.phase, Phase.TURN)):
            self._undo_one()
        return seat

    def _undo_one(self) -> int:
        before, seat, mark, note = self.undo_stack.pop()
        turn_now = self.game.state.turn
        self.game = before
        self.undone_note = note
        del self.past_events[mark:]
        if before.state.turn != turn_now and self.history:
            self.history.pop()
        return seat

    def _rebuild_history(self) -> None:
        """Score track after every turn and every event, by replaying the move list."""
        g = self.game
        replay = new_game(g.variant, list(g.players), seed=g.seed, options=dict(g.options))
        self.history = [list(replay.state.points)]
        self.past_events = []
        for action in g.log:
            turn = replay.state.turn
            self.past_events.extend(replay.apply(action))
            if replay.state.turn != turn:
                self.history.append(list(replay.state.points))

    # Files ---------------------------------------------------------------
    def save(self, path: str | Path) -> Path:
        """Save now (and remember ``path`` for the next Save); raises SaveError."""
        written = save_game(self.game, path, meta=self.meta())
        self.save_path = Path(path)
        return written

    def autosave(self, path: str | Path | None = None) -> threading.Thread | None:
        """Write this game's autosave (``autosave_path``) in the background: the text is
        built here, on the caller's thread, so the game may move on at once. A newer
        autosave always wins over an older one still waiting to write. A failure is kept
        in ``autosave_error``. The first write trims the folder to the newest few games.

        ``path`` is only used by a session without an autosave path of its own (older
        callers); nothing is written after ``finished()``. Returns the writer thread."""
        target = self.autosave_path or (Path(path) if path is not None else None)
        if target is None or self._finished:
            return None
        own = target == self.autosave_path
        text = dumps_game(self.game, self.meta())
        self._autosave_seq += 1
        seq = self._autosave_seq

        def write() -> None:
            with self._autosave_lock:
                if seq != self._autosave_seq:
                    return  # a newer autosave has been asked for (or the game ended)
                try:
                    write_save_text(text, target)
                    self.autosave_error = None
                except SaveError as exc:
                    self.autosave_error = str(exc)
                    return
                if own and not self._autosave_pruned:
                    self._autosave_pruned = True
                    prune(target.parent, self.autosave_keep, protect=[target])

        thread = threading.Thread(target=write, name="autosave", daemon=True)
        self._autosave_threads = [t for t in self._autosave_threads if t.is_alive()] + [thread]
        thread.start()
        return thread

    def wait_for_autosave(self, timeout: float = 5.0) -> None:
        """Block until pending autosaves are written (quitting, leaving, tests)."""
        for thread in list(self._autosave_threads):
            thread.join(timeout)
        self._autosave_threads = [t for t in self._autosave_threads if t.is_alive()]

    def finished(self) -> None:
        """The game has ended: its autosave is removed (Continue must not offer a finished
        game) and no later autosave writes it again."""
        self._finished = True
        self._autosave_seq += 1          # a write still waiting is dropped
        self.wait_for_autosave()
        if self.autosave_path is not None:
            with self._autosave_lock:
                try:
                    self.autosave_path.unlink(missing_ok=True)
                except OSError:
                    pass


# The rule families' window parts register their setup choices (ui/families/).
from ttr_desktop.ui.families import load_all as _load_families  # noqa: E402

_load_families()

__all__ = ["BOT_LEVELS", "GameSession", "SaveError", "SeatConfig", "VARIANT_CHOICES",
           "choice_key", "register_choice", "register_seat_options"]
