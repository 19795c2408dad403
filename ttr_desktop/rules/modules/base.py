"""The rule-module hooks: everything the next rule family's author needs.

A variant is a map plus a ruleset (``rules/ruleset.py``); the ruleset lists
rule modules by name. The core (draws, claims, tickets, the end of the game,
scoring) knows nothing about any module: it calls these hooks at fixed
points, in module order, and only for modules that override them.

Writing a module
----------------
1. Subclass ``RuleModule``; set ``name`` (also the key of its state),
   ``action_kinds`` (the actions it carries out), ``phases`` (phase name ->
   a short prompt), ``knobs`` (its rules.md §7 knobs with their defaults),
   ``setup_options`` (the knobs a game's setup may set, kept in saves).
2. List the module class in its family's descriptor (``rules/family.py``:
   ``Family(ruleset, label, modules=(...))`` in ``SHIPPED``, or
   ``register_family`` from outside the project; ``register_module`` alone
   still works); new action types with ``register_action``
   (``rules/actions.py``) so saves can read them.
3. Keep its state in a ``ModuleState`` dataclass (``rules/state.py``):
   plain values, ``copy()``, ``to_dict()``/``from_dict()``.
4. Act only through the ``RuleContext`` (``rules/context.py``): ``ctx.pay``,
   ``ctx.draw_card(reason)``, ``ctx.give_card``, ``ctx.discard``,
   ``ctx.score(seat, amount, reason)``, ``ctx.emit(...)``, ``ctx.open(phase)``,
   ``ctx.schedule(stages)``, ``ctx.add_to_claim``; read through its
   properties (``ctx.seat``, ``ctx.hand(seat)``, ``ctx.owners()``,
   ``ctx.graph``...). Never end a turn: return an outcome.

Outcomes (``rules/context.py``)
-------------------------------
A hook that acts returns ``DONE`` (the core carries on: the next step, or the
end of the turn), ``ctx.open(phase)`` (a decision is pending: the core offers
``phase_actions`` for that phase and waits) or ``ctx.abort()`` (the claim in
progress is called off and the turn ends; only from a claim step).

Steps (stages)
--------------
A step is a tuple ``(module name, step name, data)``; ``data`` is a dict of
plain values. The core keeps pending steps in the state (so saves and clones
carry them) and runs each with ``run_stage``; a step either finishes (DONE)
or opens a phase. An action taken in that phase is carried out by ``apply``,
which again returns DONE (the step is finished) or opens the next phase.

Hooks, in the order a game meets them (and who uses them)
--------------------------------------------------------
- ``requirements(ruleset, game_map, players)`` — a class method, asked before a game
  is dealt: what the module needs from the map for that many seats, as
  ``Requirement(field, need, have, reason)`` (``rules/ruleset.py``), ``field`` naming
  the map field that provides it. ``new_game`` refuses a game with an unmet one, so a
  map the loader accepts never deals a game that gets stuck (Old West: a home city
  for every seat, none forbidden while Alvin plays; Alvin: a city to start in; County
  Durham: more coal cities than setup removes; Legacy: a company per seat). The core
  declares the ticket and train-card deals (``Ruleset.requirements``).
- ``compile(board)`` — once per (map, ruleset): adjust static data.
  Ferries set ``board.r_min_locos``; County Durham adds coal as a pay source
  (``board.add_source("coal", 2)``: 2 coal = 1 wild).
- ``claim_terms(board)`` — once per (map, ruleset), after ``compile``: a
  ``ClaimTerms`` (``rules/claimrule.py``) changing the one claim rule, or None.
  Its ``wild_allowed(board, route, wild)`` says where a wild pays (Nordic
  Countries: locomotives only on ferries and tunnels) and ``wild_refusal`` why
  not, in a refused player's words, ``more_payments(board,
  route, hand)`` adds substitute payments (any 3 cards for a ferry's
  locomotive) and ``shortfall(board, route, hand)`` words a hand that cannot
  pay. Move generation, the legality check, ``explain``, tunnels' extra cards
  and ``payments_for`` all follow it; no core file changes.
- ``setup(ctx)`` — once per new game, after cards and tickets are dealt:
  install the module state (``ctx.set_state``). County Durham puts coal on
  the cities; Märklin puts merchandise out; Legacy shuffles the events.
- ``setup_steps(ctx)`` — steps run after the initial tickets, before the
  first turn. Old West: each seat chooses a home city, from the last seat
  backwards (one step per seat).
- ``turn_actions(ctx, seat)`` — extra actions at the start of a turn
  (Stations: build a station; Märklin: move a passenger).
- ``phase_actions(ctx, phase)`` — the actions of a phase the module opened.
- ``apply(ctx, action)`` — carry out an action of ``action_kinds``, or the
  generic ``Decline`` (kind "decline") when the module's phase offered it.
- ``run_stage(ctx, step, data)`` — run one of the module's steps.
- ``veto_claim(ctx, seat, route)`` — a player-readable reason why ``seat``
  may not claim route index ``route`` (Old West's network rule), or None.
  Move generation asks ``may_claim(ctx, seat, route)`` instead — the same rule
  as a yes or no, without building the message (by default: no veto); a module
  that vetoes claims may override it with a quicker check.
- ``veto_draw(ctx, seat)`` — why ``seat`` may not draw train cards now
  (Legacy: deck + discard hold 8 or fewer), or None.
- ``pay_sources(ctx, seat)`` — counts of the module's pay sources that seat
  holds ({"coal": 3}); ``spend_source(ctx, seat, name, count)`` takes them.
- ``before_claim(ctx, seat, route, paid)`` — when a claim is chosen, before
  anything is paid: None to carry on, or an outcome (a tunnel reveals cards
  and opens ``pay_tunnel``; its payment joins the claim with
  ``ctx.add_to_claim``; giving up answers ``ctx.abort()``).
- ``route_scorers(ctx, seat, route)`` — who scores a claimed route:
  [(seat, points), ...], or None for the claimant with the table's points
  (Old West redirects to city markers; Legacy scores nothing).
- ``after_claim(ctx, seat, route)`` — ordered steps after a claim, each
  declinable by the player where the rules allow: Old West's city marker
  (then Alvin), Märklin's passenger placement, Legacy's company bonus then
  large-city card, County Durham's coal pick-up.
- ``on_deck_card(ctx, card, reason)`` — every card taken from the deck in
  play (blind draw "blind", display replacement "replace", refresh
  "refresh", tunnel reveal "tunnel", a module's own reasons), never the
  initial deal. Return True when the module consumed the card (Legacy: a
  newspaper turns up the next event and is discarded); the core then takes
  the next card.
- ``ticket_borrow_choices(ctx, seat)`` — for each piece of the seat's that
  may borrow one route for its tickets (a station, rules.md §1.9), the route
  indices it may borrow. The core (``graph.ticket_status``) picks the choice
  that scores the tickets best — at the end and, as "if the game ended now",
  for every ticket status shown or used during play.
- ``score_parts(ctx, seat)`` — extra named parts of the final score
  (Stations' unbuilt stations, Alvin's holder, Legacy's trains-left table).
- ``measure(ctx, seat, name)`` — a value the ruleset's declared end bonuses
  compare (County Durham's "coal"), or None.
- ``tie_break_value(ctx, seat, name)`` — a named tie-break (higher wins):
  "fewest_stations", "merchandise".
- ``statistics(ctx, seat)`` — figures about how a seat played the module's rules
  (markers placed, coal kept and spent, merchandise points...), for ``sim``.
- ``view_fields(ctx, seat)`` — PlayerView fields (public, or ``seat``'s own).
  A ``seat_stats`` entry (a tuple of short texts, one per seat: "3 coal") is
  shown in each player's row.
- ``city_tokens(ctx)`` — pieces on cities for the map (rules/tokens.py).
- ``prompt(ctx, phase)`` — words for the decision pending in a module phase
  ("Place a city marker on Boise or Salt Lake City for a pair?").
- ``determinize(ctx, view, rng)`` — rebuild the module state from what a
  view shows and resample the module's hidden parts (Legacy: event order).
- ``held_cards(ctx)`` — train cards the module holds aside (tunnel reveals),
  so the card count stays checkable.
- ``explain(ctx, action)`` — why one of the module's actions is illegal now.
- ``claim_effects(ctx, seat, route)`` — what claiming route index ``route`` would do
  for ``seat`` beyond its trains and points, in player-readable lines, before it happens
  (Alvin captured, the coal taken, a passenger placed, Legacy's bonus and event...). The
  window's route tooltip shows them; bots and hints may read them too. Read only.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ttr_desktop.rules.actions import Action
    from ttr_desktop.rules.board import Board
    from ttr_desktop.rules.claimrule import ClaimTerms
    from ttr_desktop.maps.model import GameMap
    from ttr_desktop.rules.context import RuleContext, Stage
    from ttr_desktop.rules.ruleset import Requirement, Ruleset
    from ttr_desktop.rules.state import ModuleState
    from ttr_desktop.rules.tokens import CityToken
    from ttr_desktop.rules.view import PlayerView

#: Hooks the core calls only for modules that override them (kept in per-game lists).
OPTIONAL_HOOKS = ("statistics", "setup_steps", "turn_actions", "veto_claim", "veto_draw", "pay_sources",
                  "before_claim", "route_scorers", "after_claim", "on_deck_card",
                  "ticket_borrow_choices", "score_parts", "measure", "tie_break_value",
                  "view_fields", "city_tokens", "held_cards", "determinize",
                  "claim_effects")


class RuleModule:
    """Base class: every hook does nothing."""

    name: str = ""
    action_kinds: tuple[str, ...] = ()
    #: Phases this module opens: phase name -> a short prompt for players.
    phases: dict[str, str] = {}
    #: The module's knobs (rules.md §7) with their defaults.
    knobs: dict[str, Any] = {}
    #: Knobs (names in ``knobs``) the window's setup may set for one game, such as
    #: Legacy's company colour per seat; saves keep them and ``setup`` validates them.
    setup_options: tuple[str, ...] = ()
    #: The module's state type (for saves).
    state_type: type["ModuleState"] | None = None

    def overrides(self, hook: str) -> bool:
        """Whether this module implements ``hook``."""
        return getattr(type(self), hook) is not getattr(RuleModule, hook)

    # Compile and setup -----------------------------------------------------
    @classmethod
    def requirements(cls, ruleset: "Ruleset", game_map: "GameMap",
                     players: int) -> list["Requirement"]:
        """What a game with this module needs from ``game_map`` for ``players`` seats."""
        return []

    def compile(self, board: "Board") -> None:
        """Adjust the static board."""

    def claim_terms(self, board: "Board") -> "ClaimTerms | None":
        """The module's change to the claim rule (``rules/claimrule.py``), or None."""
        return None

    def setup(self, ctx: "RuleContext") -> None:
        """Install the module's state in a new game."""

    def setup_steps(self, ctx: "RuleContext") -> list["Stage"]:
        """Steps after the initial tickets, before the first turn."""
        return []

    # Turns -----------------------------------------------------------------
    def turn_actions(self, ctx: "RuleContext", seat: int) -> list["Action"]:
        """Extra actions at the start of a turn."""
        return []

    def phase_actions(self, ctx: "RuleContext", phase: str) -> list["Action"]:
        """The actions of a phase this module opened."""
        return []

    def apply(self, ctx: "RuleContext", action: "Action") -> str:
        """Carry out one of this module's actions; an outcome."""
        raise NotImplementedError(action.kind)

    def run_stage(self, ctx: "RuleContext", step: str, data: dict[str, Any]) -> str:
        """Run one of this module's steps; an outcome."""
        raise NotImplementedError(step)

    def veto_claim(self, ctx: "RuleContext", seat: int, route: int) -> str | None:
        """Why ``seat`` may not claim ``route``, or None."""
        return None

    def may_claim(self, ctx: "RuleContext", seat: int, route: int) -> bool:
        """Whether ``seat`` may claim ``route`` as far as this module is concerned:
        ``veto_claim`` without its message (searches ask this thousands of times)."""
        return self.veto_claim(ctx, seat, route) is None

    def veto_draw(self, ctx: "RuleContext", seat: int) -> str | None:
        """Why ``seat`` may not draw train cards now, or None."""
        return None

    def pay_sources(self, ctx: "RuleContext", seat: int) -> dict[str, int]:
        """The module's pay sources ``seat`` holds."""
        return {}

    def spend_source(self, ctx: "RuleContext", seat: int, name: str, count: int) -> None:
        """Take ``count`` of a pay source from ``seat`` (it leaves the game)."""
        raise NotImplementedError(name)

    def before_claim(self, ctx: "RuleContext", seat: int, route: int,
                     paid: tuple[int, ...]) -> str | None:
        """None to let the claim go on, or an outcome."""
        return None

    def route_scorers(self, ctx: "RuleContext", seat: int,
                      route: int) -> list[tuple[int, int]] | None:
        """Who scores a claimed route, or None for the claimant."""
        return None

    def after_claim(self, ctx: "RuleContext", seat: int, route: int) -> list["Stage"]:
        """Ordered steps after a claim."""
        return []

    def on_deck_card(self, ctx: "RuleContext", card: int, reason: str) -> bool:
        """True when the module consumed a card taken from the deck."""
        return False

    # Scoring ---------------------------------------------------------------
    def ticket_borrow_choices(self, ctx: "RuleContext", seat: int) -> list[tuple[int, ...]]:
        """Per borrowing piece of ``seat``: the routes it may borrow for tickets."""
        return []

    def score_parts(self, ctx: "RuleContext", seat: int) -> dict[str, int]:
        """Extra named parts of the final score."""
        return {}

    def measure(self, ctx: "RuleContext", seat: int, name: str) -> int | None:
        """A value for a declared end bonus, or None."""
        return None

    def tie_break_value(self, ctx: "RuleContext", seat: int, name: str) -> int | None:
        """Value of a tie-break this module knows (higher wins), or None."""
        return None

    def statistics(self, ctx: "RuleContext", seat: int) -> dict[str, float]:
        """Figures about how ``seat`` played this module's rules (for tournaments)."""
        return {}

    # Views and search --------------------------------------------------------
    def view_fields(self, ctx: "RuleContext", seat: int) -> dict[str, Any]:
        """Extra PlayerView fields."""
        return {}

    def city_tokens(self, ctx: "RuleContext") -> dict[str, list["CityToken"]]:
        """Pieces on cities: city id -> tokens."""
        return {}

    def prompt(self, ctx: "RuleContext", phase: str) -> str | None:
        """Words for the pending decision in one of this module's phases."""
        return self.phases.get(phase)

    def determinize(self, ctx: "RuleContext", view: "PlayerView", rng: random.Random) -> None:
        """Rebuild this module's state from a view; resample its hidden parts."""
        raise NotImplementedError(f"{self.name} cannot rebuild its state from a view")

    def held_cards(self, ctx: "RuleContext") -> list[int]:
        """Train cards the module holds outside deck, discard, display and hands."""
        return []

    def explain(self, ctx: "RuleContext", action: "Action") -> str | None:
        """Why one of this module's actions is illegal now, for a player."""
        return None

    def claim_effects(self, ctx: "RuleContext", seat: int, route: int) -> list[str]:
        """What claiming ``route`` would do for ``seat`` under this module's rules, before
        it happens: short sentences for a player ("Captures Alvin: +10 ..."). Read only."""
        return []
