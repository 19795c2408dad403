"""Legacy: Legends of the West, the first game (rules.md §3) with our events (§3.7).

Money instead of points: every company starts with $5 (the ruleset's start
score), claiming scores nothing, tickets are dollars won or lost, the
trains-left table pays at the end and a bank slip never goes below $0 (the
core's floor part).

This module adds:

- each seat's **company colour** (option ``companies``: one colour per seat,
  blue, red, green, yellow or black, all different; by default the seats take
  them in that order);
- **newspapers**: every newspaper taken from the deck in play (blind draw,
  display replacement, refresh, the large-city card) turns the next event face
  up as the current event, is discarded and replaced (``on_deck_card``). Those
  dealt at setup or shown in the first display are redealt by the core
  (``CardKind.setup_redeal``) and bring no event. With the event deck empty a
  newspaper brings nothing (A-17; knob ``empty_event_deck = "reshuffle"``
  shuffles the event discard pile except the current event back instead);
- **events** as data (``EVENTS``): instant ones resolve at once, ongoing ones
  apply while they are the current event;
- the **draw lock-out**: with 8 or fewer cards in the deck and the discard pile
  together nobody may draw train cards, face up either (A-18);
- the **claim steps**, in order: the company bonus (a route of your company's
  colour; gray never matches, A-19), the current event's effect on claims, then
  the large-city card (one card per claim, even with two large cities);
- the **trains-left table** as the ``trains_left`` score part.

What a campaign (§3.8) uses
---------------------------
A campaign game is an ordinary ``legacy`` game with setup options (all kept in
saves):

- ``companies``: each seat's company colour, in seat order (``"blue,red"`` or a
  list; the colours of ``COMPANY_COLOURS``, all different). The window passes the
  seats' train colours (``companies_of_seats``);
- ``retired_events``: the event ids retired so far (``"dividends,reeves"`` or a
  list); they are left out of the event deck (``EVENT_BY_ID`` has every id,
  ``EVENTS`` their titles and texts);
- ``first_player``: the caboose holder's seat (a core option: the holder goes first,
  rules.md §3.2; "random" gives the caboose to a seat drawn from the game's seed).

``campaign_options(companies, retired, first_player)`` builds that dict. After
the game (``game.is_over``):

- ``bank_slips(game)``: each seat's bank slip in dollars (never below $0);
- ``slip_parts(game)``: each seat's slip line by line (coins, trains_left,
  tickets, floor);
- ``event_discard(game)``: the event discard pile, oldest first, the current
  event last — the events the caboose holder may retire;
- ``last_place(game)``: the seat that takes the caboose (the lowest in the
  ranking, with the rules' tie-breaks).

Events are instant or ongoing (``LegacyEvent.kind``); ``event(id)`` gives one.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ttr_desktop.rules.cards import CardKind, colour_cards, locomotive
from ttr_desktop.rules.context import DONE
from ttr_desktop.rules.modules.base import RuleModule
from ttr_desktop.rules.ruleset import Requirement, Ruleset, shortfall
from ttr_desktop.rules.state import ModuleState
from ttr_desktop.rules.words import plural

if TYPE_CHECKING:
    from ttr_desktop.maps.model import GameMap
    from ttr_desktop.rules.context import RuleContext, Stage
    from ttr_desktop.rules.view import PlayerView

NAME = "legacy"
NEWSPAPER = "newspaper"
#: The company colours, in the order seats take them by default (rules.md §3.1).
COMPANY_COLOURS: tuple[str, ...] = ("blue", "red", "green", "yellow", "black")
#: Train cards: 12 of each of six colours (white has routes but no company), 12 locomotives.
CARD_COLOURS: tuple[str, ...] = ("black", "blue", "white", "green", "yellow", "red")
#: Cards in the deck or the discard pile at or below which nobody may draw (rules.md §3.3).
LOCKOUT = 8
#: Trains left at the end -> dollars (rules.md §3.5); 11 or more pay nothing.
TRAINS_LEFT_TABLE: tuple[int, ...] = (16, 12, 9, 7, 6, 4, 4, 4, 2, 2, 2)


def trains_left_dollars(trains: int) -> int:
    """The bank's payment for ``trains`` trains left at the end."""
    return TRAINS_LEFT_TABLE[trains] if 0 <= trains < len(TRAINS_LEFT_TABLE) else 0


# ----------------------------------------------------------------------
# Events (rules.md §3.7): data. ``effect`` names what the engine does; ``params`` its numbers.
@dataclass(frozen=True)
class LegacyEvent:
    """One event card: instant (resolves at once) or ongoing (while it is current)."""

    id: str
    title: str
    kind: str                     # "instant" or "ongoing"
    text: str
    effect: str
    params: tuple[tuple[str, Any], ...] = ()

    @property
    def instant(self) -> bool:
        """True for a lightning event: it resolves once, at once."""
        return self.kind == "instant"

    def param(self, name: str) -> Any:
        """One of the effect's numbers (or words)."""
        return dict(self.params)[name]


#: Effects an event can have (what ``effect`` may name).
EFFECTS = ("pay_per_route", "claim_length_pays", "company_bonus_times", "claim_colour_fee",
           "pay_city_owners", "pay_colour_owners", "everyone_draws")

EVENTS: tuple[LegacyEvent, ...] = (
    LegacyEvent("dividends", "Bank pays you dividends", "instant",
                "Every player takes $1 per route they own, at most $5.",
                "pay_per_route", (("amount", 1), ("most", 5))),
    LegacyEvent("improvements", "Railway improvements", "ongoing",
                "Claiming a route of 3 or more spaces pays the claimant $2.",
                "claim_length_pays", (("length", 3), ("amount", 2))),
    LegacyEvent("right_of_way", "Right of way", "ongoing",
                "The company-route bonus is doubled.",
                "company_bonus_times", (("factor", 2),)),
    LegacyEvent("mama_fee", "Mama O'Connell issues a fee for her rails", "ongoing",
                "Claiming a red route costs the claimant $2, paid to the bank.",
                "claim_colour_fee", (("colour", "red"), ("amount", 2))),
    LegacyEvent("lewisburg", "Lewisburg puts out contracts", "instant",
                "Every player who owns a route into Lewisburg takes $4.",
                "pay_city_owners", (("city", "lewisburg"), ("amount", 4))),
    LegacyEvent("reeves", "Reeves Rails needs assistance", "instant",
                "Every player who owns a white route takes $3.",
                "pay_colour_owners", (("colour", "white"), ("amount", 3))),
    LegacyEvent("new_horizon", "A new horizon", "instant",
                "Every player, in turn order from the current one, takes the top card of the "
                "train deck; a newspaper taken this way is discarded and replaced without a "
                "new event.",
                "everyone_draws", (("cards", 1),)),
)
EVENT_BY_ID: dict[str, LegacyEvent] = {e.id: e for e in EVENTS}


def event(event_id: str) -> LegacyEvent:
    """The event with this id (KeyError if unknown)."""
    return EVENT_BY_ID[event_id]


def parse_colours(value: Any) -> list[str]:
    """A list of colour words from a list or from text ('blue,red', 'blue/red', 'blue red')."""
    if isinstance(value, str):
        return [w for w in re.split(r"[\s,/+;]+", value.strip().lower()) if w]
    if isinstance(value, (list, tuple)):
        out = []
        for v in value:
            if not isinstance(v, str):
                raise ValueError("companies must be colour names")
            out.append(v.strip().lower())
        return out
    raise ValueError("companies must list one colour per player")


def companies_for(value: Any, players: int) -> list[str]:
    """Each seat's company colour from the ``companies`` option (ValueError when unusable)."""
    if value in ("", None, (), []):
        if players > len(COMPANY_COLOURS):
            raise ValueError(f"at most {len(COMPANY_COLOURS)} companies can play")
        return list(COMPANY_COLOURS[:players])
    colours = parse_colours(value)
    if len(colours) != players:
        raise ValueError(f"companies lists {len(colours)} colours for {players} players; "
                         "give one per player")
    for c in colours:
        if c not in COMPANY_COLOURS:
            raise ValueError(f"{c!r} is not a company colour (the companies are "
                             f"{', '.join(COMPANY_COLOURS)})")
    if len(set(colours)) != len(colours):
        raise ValueError("two players cannot run the same company")
    return colours


def retired_for(value: Any) -> list[str]:
    """The retired event ids of the ``retired_events`` option (ValueError when unusable)."""
    if value in ("", None, (), []):
        return []
    ids = parse_colours(value) if isinstance(value, str) else list(value)
    for e in ids:
        if not isinstance(e, str) or e not in EVENT_BY_ID:
            raise ValueError(f"unknown event {e!r} in retired_events (known: "
                             f"{', '.join(EVENT_BY_ID)})")
    if len(set(ids)) != len(ids):
        raise ValueError("an event is retired twice")
    return ids


# ----------------------------------------------------------------------
@dataclass
class LegacyState(ModuleState):
    """Companies, the event deck and discard pile, and what the bank paid.

    ``deck`` is the face-down event deck (top = last); ``seen`` the event discard pile,
    the current event on top (last). ``aside`` holds newspapers set aside while the deck
    and the discard pile hold nothing else (so a draw never loops forever); they go back
    to the discard pile as soon as other cards are there. ``quiet`` is set while
    "A new horizon" deals cards: a newspaper then brings no event."""

    companies: list[str] = field(default_factory=list)
    deck: list[str] = field(default_factory=list)
    seen: list[str] = field(default_factory=list)
    retired: list[str] = field(default_factory=list)
    aside: int = 0
    quiet: bool = False
    newspapers: list[int] = field(default_factory=list)
    company_paid: list[int] = field(default_factory=list)
    city_cards: list[int] = field(default_factory=list)
    event_paid: dict[str, list[int]] = field(default_factory=dict)

    def copy(self) -> "LegacyState":
        return LegacyState(self.companies[:], self.deck[:], self.seen[:], self.retired[:],
                           self.aside, self.quiet, self.newspapers[:], self.company_paid[:],
                           self.city_cards[:], {k: v[:] for k, v in self.event_paid.items()})

    @property
    def current(self) -> str:
        """The current event's id ("" before the first newspaper)."""
        return self.seen[-1] if self.seen else ""


class Legacy(RuleModule):
    """Companies, newspapers and events, the draw lock-out, the claim steps, the table."""

    name = NAME
    state_type = LegacyState
    knobs = {
        # rules.md §3.6 / §9: the company bonus card's value (unverified placeholder).
        "company_bonus_dollars": 1,
        # "none" — a newspaper with the event deck empty brings nothing;
        # "reshuffle" — the event discard pile except the current event is shuffled back.
        "empty_event_deck": "none",
        # Setup options: each seat's company colour; events retired in a campaign.
        "companies": "",
        "retired_events": "",
    }
    setup_options = ("companies", "retired_events")

    # Setup ------------------------------------------------------------------
    @classmethod
    def requirements(cls, ruleset: Ruleset, game_map: "GameMap",
                     players: int) -> list[Requirement]:
        """A company of its own colour for every seat (rules.md §3.1)."""
        have = len(COMPANY_COLOURS)
        return [Requirement("", players, have,
                            f"each of the {players} players runs a company of its own colour: "
                            + shortfall(players, have, "companies", "the game"))]

    def setup(self, ctx: "RuleContext") -> None:
        n = ctx.n_players
        companies = companies_for(ctx.knob("companies", ""), n)
        retired = retired_for(ctx.knob("retired_events", ""))
        mode = ctx.knob("empty_event_deck", "none")
        if mode not in ("none", "reshuffle"):
            raise ValueError("empty_event_deck must be 'none' or 'reshuffle'")
        deck = [e.id for e in EVENTS if e.id not in retired]
        ctx.rng.shuffle(deck)
        ctx.set_state(NAME, LegacyState(
            companies, deck, [], retired, 0, False, [0] * n, [0] * n, [0] * n,
            {e.id: [0] * n for e in EVENTS}))

    # Newspapers and events ---------------------------------------------------
    @staticmethod
    def _newspaper(ctx: "RuleContext") -> int:
        return ctx.board.card_index[NEWSPAPER]

    @staticmethod
    def total_newspapers(ctx: "RuleContext") -> int:
        """Newspapers in this game (by player count)."""
        return ctx.ruleset.deck_composition(ctx.n_players).get(NEWSPAPER, 0)

    def newspapers_left(self, ctx: "RuleContext") -> int:
        """Newspapers still in the face-down deck (the rest are in the discard or aside)."""
        st: LegacyState = ctx.state(NAME)
        np = self._newspaper(ctx)
        in_discard = sum(1 for c in ctx.discard_pile() if c == np)
        return self.total_newspapers(ctx) - in_discard - st.aside

    def on_deck_card(self, ctx: "RuleContext", card: int, reason: str) -> bool:
        st: LegacyState = ctx.state(NAME)
        np = self._newspaper(ctx)
        if card != np:
            if st.aside:  # a real card turned up: the newspapers set aside go back
                ctx.discard([np] * st.aside)
                st.aside = 0
            return False
        seat = ctx.seat
        if not self._others_in_piles(ctx, st, drawn=1):
            st.aside += 1      # only newspapers left: keep it aside, the draw finds nothing
        else:
            ctx.discard([np])
        st.newspapers[seat] += 1
        if st.quiet:
            ctx.emit("newspaper", seat, {"reason": reason, "event": "", "quiet": True},
                     reveals=True)
            return True
        if not st.deck and ctx.knob("empty_event_deck", "none") == "reshuffle" and \
                len(st.seen) > 1:
            st.deck = st.seen[:-1]
            st.seen = st.seen[-1:]
            ctx.rng.shuffle(st.deck)
        if not st.deck:
            ctx.emit("newspaper", seat, {"reason": reason, "event": ""}, reveals=True)
            return True
        ev = event(st.deck.pop())
        st.seen.append(ev.id)
        ctx.emit("newspaper", seat, {"reason": reason, "event": ev.id, "title": ev.title,
                                     "kind": ev.kind, "text": ev.text}, reveals=True)
        if ev.instant:
            self._resolve_instant(ctx, st, ev)
        return True

    def _others_in_piles(self, ctx: "RuleContext", st: LegacyState, drawn: int = 0) -> bool:
        """Whether the deck and the discard pile hold a card that is not a newspaper
        (``drawn``: newspapers just taken out and not yet put anywhere)."""
        papers = self.total_newspapers(ctx) - st.aside - drawn
        return ctx.deck_size() + ctx.discard_size() > papers

    def _resolve_instant(self, ctx: "RuleContext", st: LegacyState, ev: LegacyEvent) -> None:
        n = ctx.n_players
        b = ctx.board
        owners = ctx.owners()
        pay = [0] * n
        if ev.effect == "pay_per_route":
            for seat in range(n):
                routes = sum(1 for o in owners if o == seat)
                pay[seat] = min(ev.param("most"), ev.param("amount") * routes)
        elif ev.effect == "pay_city_owners":
            city = b.city_index.get(ev.param("city"))
            for r in (b.city_routes[city] if city is not None else ()):
                if owners[r] >= 0:
                    pay[owners[r]] = ev.param("amount")
        elif ev.effect == "pay_colour_owners":
            colour = b.card_index.get(ev.param("colour"), -2)
            for r, o in enumerate(owners):
                if o >= 0 and b.r_color[r] == colour:
                    pay[o] = ev.param("amount")
        elif ev.effect == "everyone_draws":
            self._everyone_draws(ctx, st, ev)
            return
        else:
            raise ValueError(f"event {ev.id}: {ev.effect} is not an instant effect")
        for seat, amount in enumerate(pay):
            if amount:
                ctx.score(seat, amount, "event", ev.id)
                st.event_paid[ev.id][seat] += amount
        ctx.emit("event_paid", None, {"event": ev.id, "payments": [[s, a] for s, a in
                                                                    enumerate(pay) if a]})

    def _everyone_draws(self, ctx: "RuleContext", st: LegacyState, ev: LegacyEvent) -> None:
        n = ctx.n_players
        first = ctx.seat
        names = ctx.board.card_names
        was = st.quiet
        st.quiet = True
        try:
            for k in range(n):
                seat = (first + k) % n
                for _ in range(ev.param("cards")):
                    card = ctx.draw_card("event")
                    if card < 0:
                        ctx.emit("event_card", seat, {"event": ev.id})
                        continue
                    ctx.give_card(seat, card)
                    ctx.emit("event_card", seat, {"event": ev.id, "card": names[card]},
                             ("card",), reveals=True)
        finally:
            st.quiet = was

    def current_event(self, ctx: "RuleContext") -> LegacyEvent | None:
        """The ongoing effect in force (None before the first newspaper or for an instant)."""
        cur = ctx.state(NAME).current
        return EVENT_BY_ID[cur] if cur else None

    # The draw lock-out ---------------------------------------------------------
    def veto_draw(self, ctx: "RuleContext", seat: int) -> str | None:
        st: LegacyState = ctx.state(NAME)
        left = ctx.deck_size() + ctx.discard_size() + st.aside
        if left <= LOCKOUT:
            return (f"The deck and the discard pile hold only {plural(left, 'card')} "
                    f"({LOCKOUT} or fewer): nobody may draw "
                    "train cards. Claim a route or draw tickets.")
        return None

    # Claims --------------------------------------------------------------------
    def route_scorers(self, ctx: "RuleContext", seat: int,
                      route: int) -> list[tuple[int, int]] | None:
        return []  # claiming scores nothing (rules.md §3.3)

    def after_claim(self, ctx: "RuleContext", seat: int, route: int) -> list["Stage"]:
        data = {"seat": seat, "route": route}
        return [(NAME, "company", data), (NAME, "claim_event", data),
                (NAME, "large_city", data)]

    def company_bonus(self, ctx: "RuleContext", seat: int, route: int) -> int:
        """What claiming ``route`` pays ``seat`` as a company route now (0 when not one)."""
        st: LegacyState = ctx.state(NAME)
        b = ctx.board
        colour = b.card_index.get(st.companies[seat], -2)
        if b.r_color[route] != colour:  # gray (-1) never matches
            return 0
        amount = ctx.knob("company_bonus_dollars", 1)
        cur = self.current_event(ctx)
        if cur is not None and cur.effect == "company_bonus_times":
            amount *= cur.param("factor")
        return amount

    def claim_event_amount(self, ctx: "RuleContext", seat: int, route: int) -> int:
        """What the current event does to the claimant of ``route`` (+ pays, - costs)."""
        cur = self.current_event(ctx)
        if cur is None:
            return 0
        b = ctx.board
        if cur.effect == "claim_length_pays" and b.r_len[route] >= cur.param("length"):
            return cur.param("amount")
        if cur.effect == "claim_colour_fee" and \
                b.r_color[route] == b.card_index.get(cur.param("colour"), -2):
            return -min(cur.param("amount"), max(0, ctx.points(seat)))
        return 0

    def large_cities(self, ctx: "RuleContext", route: int) -> list[str]:
        """The large cities at the ends of ``route``."""
        b = ctx.board
        cities = ctx.map.cities
        ends = (b.city_ids[b.r_a[route]], b.city_ids[b.r_b[route]])
        return [c for c in ends if c in cities and cities[c].large]

    def claim_effects(self, ctx: "RuleContext", seat: int, route: int) -> list[str]:
        """The company bonus, the current event's effect and the large-city card, in the
        order the claim pays them (claiming itself scores nothing in Legacy)."""
        st: LegacyState = ctx.state(NAME)
        out = []
        bonus = self.company_bonus(ctx, seat, route)
        if bonus:
            cur = self.current_event(ctx)
            why = (f", doubled by \u201c{cur.title}\u201d" if cur is not None
                   and cur.effect == "company_bonus_times" else "")
            out.append(f"Company route ({st.companies[seat]}): +${bonus}{why}.")
        amount = self.claim_event_amount(ctx, seat, route)
        if amount:
            title = EVENT_BY_ID[st.current].title
            sign = f"+${amount}" if amount > 0 else f"\u2212${-amount}"
            out.append(f"Event \u201c{title}\u201d: {sign}.")
        cities = self.large_cities(ctx, route)
        if cities:
            names = " and ".join(ctx.map.cities[c].name for c in cities)
            verb = "is a large city" if len(cities) == 1 else "are large cities"
            out.append(f"{names} {verb}: you draw a train card from the deck.")
        return out

    def run_stage(self, ctx: "RuleContext", step: str, data: dict[str, Any]) -> str:
        st: LegacyState = ctx.state(NAME)
        seat, route = data["seat"], data["route"]
        rid = ctx.board.route_ids[route]
        if step == "company":
            amount = self.company_bonus(ctx, seat, route)
            if amount:
                ctx.score(seat, amount, "company", rid)
                st.company_paid[seat] += amount
                ctx.emit("company_bonus", seat, {"route": rid, "amount": amount,
                                                 "company": st.companies[seat]})
            return DONE
        if step == "claim_event":
            amount = self.claim_event_amount(ctx, seat, route)
            if amount:
                cur = st.current
                ctx.score(seat, amount, "event", cur)
                st.event_paid[cur][seat] += amount
                ctx.emit("event_claim", seat, {"route": rid, "amount": amount, "event": cur})
            return DONE
        if step == "large_city":
            cities = self.large_cities(ctx, route)
            if not cities:
                return DONE
            card = ctx.draw_card("large_city")
            data_out: dict[str, Any] = {"route": rid, "cities": cities}
            if card < 0:
                ctx.emit("large_city_card", seat, data_out)
                return DONE
            ctx.give_card(seat, card)
            st.city_cards[seat] += 1
            data_out["card"] = ctx.board.card_names[card]
            ctx.emit("large_city_card", seat, data_out, ("card",), reveals=True)
            return DONE
        raise ValueError(f"unknown legacy step {step!r}")

    # Scoring ---------------------------------------------------------------------
    def score_parts(self, ctx: "RuleContext", seat: int) -> dict[str, int]:
        return {"trains_left": trains_left_dollars(ctx.trains(seat))}

    def held_cards(self, ctx: "RuleContext") -> list[int]:
        return [self._newspaper(ctx)] * ctx.state(NAME).aside

    def statistics(self, ctx: "RuleContext", seat: int) -> dict[str, float]:
        st: LegacyState = ctx.state(NAME)
        return {
            "company_dollars": float(st.company_paid[seat]),
            "large_city_cards": float(st.city_cards[seat]),
            "event_dollars": float(sum(paid[seat] for paid in st.event_paid.values())),
            "newspapers": float(st.newspapers[seat]),
            "trains_left_dollars": float(trains_left_dollars(ctx.trains(seat))),
        }

    # Views and search -----------------------------------------------------------
    def view_fields(self, ctx: "RuleContext", seat: int) -> dict[str, Any]:
        st: LegacyState = ctx.state(NAME)
        n = ctx.n_players
        return {
            NAME: {
                "companies": tuple(st.companies),
                "coins": tuple(ctx.points(s) for s in range(n)),
                "current_event": st.current,
                "events_seen": tuple(st.seen),
                "events_left": len(st.deck),
                "retired": tuple(st.retired),
                "newspapers_left": self.newspapers_left(ctx),
                "newspapers_aside": st.aside,
                "newspapers_drawn": tuple(st.newspapers),
                "company_paid": tuple(st.company_paid),
                "city_cards": tuple(st.city_cards),
                "event_paid": {k: tuple(v) for k, v in st.event_paid.items()},
                "company_bonus": ctx.knob("company_bonus_dollars", 1),
            },
            "seat_stats": tuple(f"{c} company" for c in st.companies),
        }

    def determinize(self, ctx: "RuleContext", view: "PlayerView", rng: random.Random) -> None:
        info = view.extra[NAME]
        seen = list(info["events_seen"])
        retired = list(info["retired"])
        deck = [e.id for e in EVENTS if e.id not in seen and e.id not in retired]
        rng.shuffle(deck)
        ctx.set_state(NAME, LegacyState(
            list(info["companies"]), deck, seen, retired, info["newspapers_aside"], False,
            list(info["newspapers_drawn"]), list(info["company_paid"]),
            list(info["city_cards"]), {k: list(v) for k, v in info["event_paid"].items()}))


LEGACY = Ruleset(
    name="legacy",
    map_id="legacy",
    min_players=2,
    max_players=5,
    trains_per_player=20,
    cards=colour_cards(12, CARD_COLOURS) + (
        locomotive(12),
        CardKind(NEWSPAPER, ((2, 6), (3, 4), (4, 3)), color=False, setup_redeal=True)),
    initial_hand=4,
    initial_tickets=(("regular", 4),),
    initial_keep_min=2,
    ticket_draw=3,
    ticket_keep_min=1,
    route_points={},
    parallel_open_from=((2, 4), (3, 0)),   # doubles one-only at 2-3 players; triples open
    bonuses=(),
    score_parts=("coins", "trains_left", "tickets", "floor"),
    ledger_parts=(("*", "coins"),),
    tie_breaks=("tickets", "later_in_turn_order"),
    currency="dollars",
    score_floor=0,
    start_score=5,
    modules=(NAME,),
    knobs=(("company_bonus_dollars", 1), ("empty_event_deck", "none")),
)


# ----------------------------------------------------------------------
# What a campaign needs (see the module docstring).
def campaign_options(companies: list[str] | tuple[str, ...], retired: list[str] | tuple[str, ...] = (),
                     first_player: int = 0) -> dict[str, Any]:
    """Setup options of one campaign game: company colours per seat, events retired so far,
    the caboose holder first (checked when the game is set up)."""
    return {"companies": ",".join(companies), "retired_events": ",".join(retired),
            "first_player": first_player}


def companies_of_seats(colours: list[str] | tuple[str, ...]) -> list[str]:
    """Company colours from the seats' train colours (ValueError naming a colour that
    is no company: the five companies are blue, red, green, yellow and black)."""
    return companies_for(list(colours), len(colours))


def event_discard(game: Any) -> list[str]:
    """The event discard pile of a game, oldest first (the current event last)."""
    return list(game.state.ext[NAME].seen)


def bank_slips(game: Any) -> list[int]:
    """Each seat's bank slip in dollars (the final total, never below $0)."""
    return [sc.total for sc in game.scores()]


def slip_parts(game: Any) -> list[dict[str, int]]:
    """Each seat's bank slip line by line (coins, trains_left, tickets, floor)."""
    return [dict(sc.parts) for sc in game.scores()]


def last_place(game: Any) -> int:
    """The seat ranked last (it takes the caboose after the game)."""
    return game.result().ranking[-1]
