"""What overlays and family panels may do with the board: ``BoardPort``, and the game as
the table sees it: ``TableView``.

The board scene owns the game session, the animations, the hot-seat privacy and the
drawing. The panels over it (``board_overlays``, the families' overlays, painters and
route tips in ``ui/families``, the pause menu) reach the board only through a
``BoardPort`` (``scene.port``): never the scene's own members, never the engine ``Game``.

The port is made so that the board could later drive a game that runs elsewhere (another
process, another machine), not only a local ``Game``:

- what a panel reads of the game is a ``TableView``: the public facts of the table
  (``version``, ``phase``, ``current_seat``, ``players``, ``variant``, ``final_round``,
  ``is_over``), the static data both ends load themselves (``map``, ``board``,
  ``ruleset``), a seat's ``view(seat)`` (what that seat may see), the ``legal_actions()``
  of the pending decision with its ``prompt()``, which modules are on
  (``has_module``) and the public ``events`` so far. Each is a value that could be sent
  over a wire; none hands out the engine's state;
- what a panel does to the game is ``perform(action)`` (one of the legal actions),
  ``take_back()`` / ``undo()`` and asking for a ``hint``: requests. A panel never assumes
  the answer is immediate: it watches ``table.version`` and closes itself when the game
  moved on (a remote game answers later; the local one at once);
- the rest is the window's: the map's geometry for highlights (``map_view``, ``lay``,
  ``clock``), the pointer (``mouse``, ``hover_city``, ``hover_route``,
  ``update_hover(pos)``, ``click_target``, ``draw_tooltip``), the seat shown
  (``viewer``, ``is_human_turn()``, ``rgb``), messages (``refuse(text)``), the pause menu,
  hot-seat hand-over, whether a panel covers the board (``on_top()``), and a ``memo``
  dict where a family keeps what it draws between frames (Legacy's announcement and
  payout badges).

``LocalTable`` is the ``TableView`` of a game in this process; ``BoardPort.MEMBERS`` lists
every member of the port (tests check the panels use nothing else).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ttr_desktop.rules import Action, Event
    from ttr_desktop.ui.session import GameSession


class TableView(Protocol):
    """The game as the table sees it: public facts, a seat's view, the legal actions."""

    version: int
    phase: str
    current_seat: int
    players: list[str]
    variant: str
    final_round: bool
    is_over: bool
    map: Any
    board: Any
    ruleset: Any
    events: list

    def view(self, seat: int | None) -> Any: ...
    def legal_actions(self) -> list: ...
    def prompt(self) -> str: ...
    def has_module(self, name: str) -> bool: ...


class LocalTable:
    """The ``TableView`` of a game played in this process (it follows the session's game,
    which changes object on undo)."""

    def __init__(self, session: "GameSession") -> None:
        self._session = session

    @property
    def _game(self):
        return self._session.game

    version = property(lambda self: self._game.version)
    phase = property(lambda self: self._game.phase)
    current_seat = property(lambda self: self._game.current_seat)
    players = property(lambda self: self._game.players)
    variant = property(lambda self: self._game.variant)
    final_round = property(lambda self: self._game.final_round)
    is_over = property(lambda self: self._game.is_over)
    map = property(lambda self: self._game.map)
    board = property(lambda self: self._game.board)
    ruleset = property(lambda self: self._game.ruleset)

    @property
    def events(self) -> list["Event"]:
        """Every event of the game so far, in order (public and private ones: a line or a
        badge is shown to a seat through ``Event.visible_to``)."""
        return self._session.past_events

    def view(self, seat: int | None):
        return self._game.view(seat)

    def legal_actions(self) -> list["Action"]:
        return self._game.legal_actions()

    def prompt(self) -> str:
        return self._game.prompt()

    def has_module(self, name: str) -> bool:
        return self._game.has_module(name)


class BoardPort:
    """The board scene as the panels over it may use it (see the module's docstring)."""

    #: Every member of the port.
    MEMBERS = frozenset({
        "table", "app", "map_view", "lay", "clock", "viewer", "rgb", "mouse", "hover_city",
        "hover_route", "memo", "on_top", "is_human_turn", "perform", "take_back", "can_take_back",
        "undo", "undo_seat", "hand_over_to", "open_pause", "ask_hint", "refuse",
        "click_target", "update_hover", "draw_tooltip",
    })

    def __init__(self, scene, table: TableView | None = None) -> None:
        self._scene = scene
        self.table: TableView = table if table is not None else LocalTable(scene.session)
        #: A family's own drawing state between frames, by key.
        self.memo: dict[str, Any] = {}

    # The window ------------------------------------------------------------------
    app = property(lambda self: self._scene.app)
    map_view = property(lambda self: self._scene.map_view)
    lay = property(lambda self: self._scene.lay)
    clock = property(lambda self: self._scene.clock)
    hover_city = property(lambda self: self._scene.hover_city)
    hover_route = property(lambda self: self._scene.hover_route)

    @property
    def viewer(self) -> int | None:
        """The seat whose private view the window shows (None: nobody's, a hand-over)."""
        return self._scene.viewer

    @property
    def rgb(self) -> list[tuple[int, int, int]]:
        """Each seat's colour on the screen."""
        return self._scene.rgb

    @property
    def mouse(self) -> tuple[int, int]:
        return self._scene.mouse

    @mouse.setter
    def mouse(self, pos) -> None:
        self._scene.mouse = pos

    def on_top(self) -> bool:
        """True when no panel covers the board (it is the top scene)."""
        return self._scene.app.top is self._scene

    def is_human_turn(self) -> bool:
        """True when a person at this window must decide now and may see their panels."""
        return self._scene.is_human_turn()

    def update_hover(self, pos) -> None:
        """Point at ``pos``: the city or route under it becomes ``hover_city`` /
        ``hover_route``."""
        self._scene._update_hover(pos)

    def draw_tooltip(self, surface) -> None:
        """The tooltip of what the pointer is on."""
        self._scene._draw_tooltip(surface)

    def click_target(self, kind: str, ident: str) -> None:
        """A click on a city or route of the map, as the board takes it (a choice, or a
        toast saying why not)."""
        self._scene.click_target(kind, ident)

    def refuse(self, problem: str, seconds: float = 4) -> None:
        """Say why something cannot be done (a toast over the map)."""
        self._scene._refuse(problem, seconds)

    # Requests to the game --------------------------------------------------------
    def perform(self, action) -> None:
        """Ask the game to carry out ``action`` (one of ``table.legal_actions()``)."""
        self._scene.perform(action)

    def can_take_back(self) -> bool:
        return self._scene.can_take_back()

    def take_back(self) -> None:
        """Ask to take the last move of the seat shown back."""
        self._scene.take_back()

    def undo(self) -> None:
        self._scene.undo()

    def undo_seat(self) -> int | None:
        """The seat a take-back would return the game to (None: nothing to take back)."""
        return self._scene.session.undo_seat()

    def ask_hint(self) -> None:
        self._scene.ask_hint()

    def open_pause(self) -> None:
        self._scene.open_pause()

    def hand_over_to(self, seat: int) -> None:
        """Hot seat: the screen goes to ``seat``."""
        self._scene.hand_over_to(seat)


def port_of(board) -> Any:
    """The port of ``board`` (a board scene, or already a port or a stand-in for one)."""
    return getattr(board, "port", board)


__all__ = ["BoardPort", "LocalTable", "TableView", "port_of"]
