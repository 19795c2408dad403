"""A made-up rule family built only through the documented hooks plays to the end.

"Favourites" on the USA map: a new card kind (a "coupling" that is wild on routes
of 3 or more), a setup step (each seat picks a favourite city, last seat first),
a claim veto (nobody claims into another seat's favourite city), an after-claim
step a player may decline (polish the route for 1 card: +1 point), and a score
part (+5 when your routes reach your favourite city). Nothing in the core knows
about any of it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

import pytest

from ttr_desktop.rules import (
    Action, Bonus, CardKind, Decline, Ruleset, determinize, new_game, register_action,
    register_variant,
)
from ttr_desktop.rules.cards import STANDARD_DECK
from ttr_desktop.rules.context import DONE
from ttr_desktop.rules.modules import register_module
from ttr_desktop.rules.modules.base import RuleModule
from ttr_desktop.rules.state import ModuleState
from ttr_desktop.rules.tokens import CityToken

PICK = "pick_favourite"
POLISH = "polish_route"


@register_action
@dataclass(frozen=True, slots=True)
class PickFavourite(Action):
    kind: ClassVar[str] = "pick_favourite"
    city_id: str

    def target(self):
        return ("city", self.city_id)


@register_action
@dataclass(frozen=True, slots=True)
class Polish(Action):
    kind: ClassVar[str] = "polish"
    card: str = ""


@dataclass
class FavouriteState(ModuleState):
    favourite: list[int]
    polished: list[int]


@register_module
class Favourites(RuleModule):
    name = "favourites"
    action_kinds = ("pick_favourite", "polish")
    phases = {PICK: "Pick your favourite city.", POLISH: "Polish the route for 1 card?"}
    state_type = FavouriteState

    def setup(self, ctx):
        ctx.set_state(self.name, FavouriteState([-1] * ctx.n_players, [0] * ctx.n_players))

    def setup_steps(self, ctx):
        n = ctx.n_players
        last = (ctx.first_seat - 1) % n
        return [(self.name, "pick", {"seat": (last - k) % n}) for k in range(n)]

    def run_stage(self, ctx, step, data):
        if step == "pick":
            return ctx.open(PICK, data["seat"])
        if step == "polish":
            if not any(ctx.hand(data["seat"])):
                return DONE
            return ctx.open(POLISH)
        raise ValueError(step)

    def phase_actions(self, ctx, phase):
        st = ctx.state(self.name)
        if phase == PICK:
            taken = set(st.favourite)
            return [PickFavourite(cid) for i, cid in enumerate(ctx.board.city_ids)
                    if i not in taken]
        hand = ctx.hand(ctx.seat)
        return [Polish(ctx.board.card_names[c]) for c in range(len(hand)) if hand[c]] + [
            Decline("polish")]

    def apply(self, ctx, action):
        st = ctx.state(self.name)
        if action.kind == "pick_favourite":
            st.favourite[ctx.seat] = ctx.board.city_index[action.city_id]
            ctx.emit("favourite_picked", ctx.seat, {"city": action.city_id})
            return DONE
        if action.kind == "decline":
            return DONE
        vec = [0] * ctx.board.n_pay
        vec[ctx.board.card_index[action.card]] = 1
        ctx.pay(ctx.seat, vec)
        ctx.score(ctx.seat, 1, "polish")
        st.polished[ctx.seat] += 1
        return DONE

    def veto_claim(self, ctx, seat, route):
        st = ctx.state(self.name)
        b = ctx.board
        for other, city in enumerate(st.favourite):
            if other != seat and city in (b.r_a[route], b.r_b[route]):
                return f"{b.city_ids[city]} is {ctx.players[other]}'s favourite."
        return None

    def after_claim(self, ctx, seat, route):
        return [(self.name, "polish", {"seat": seat})]

    def score_parts(self, ctx, seat):
        st = ctx.state(self.name)
        comp = ctx.components(seat)
        fav = st.favourite[seat]
        own = [r for r, o in enumerate(ctx.owners()) if o == seat]
        b = ctx.board
        reached = any(comp.label[b.r_a[r]] == comp.label[fav] or b.r_a[r] == fav
                      or b.r_b[r] == fav for r in own)
        return {"favourite": 5 if reached else 0}

    def city_tokens(self, ctx):
        st = ctx.state(self.name)
        return {ctx.board.city_ids[c]: [CityToken("home", seat)]
                for seat, c in enumerate(st.favourite) if c >= 0}

    def determinize(self, ctx, view, rng):
        st = view.extra["favourites"]
        ctx.set_state(self.name, FavouriteState(list(st["favourite"]), list(st["polished"])))

    def view_fields(self, ctx, seat):
        st = ctx.state(self.name)
        return {"favourites": {"favourite": tuple(st.favourite), "polished": tuple(st.polished)}}


TOY = register_variant(Ruleset(
    name="toy-favourites", map_id="usa", max_players=4,
    cards=STANDARD_DECK + (CardKind("coupling", 10, color=False, wild=True,
                                    wild_min_length=3),),
    modules=("favourites",),
    score_parts=("routes", "polish", "tickets", "longest_path", "favourite"),
    bonuses=(Bonus("longest_path", "longest_path", 10),),
))


def test_setup_asks_each_seat_for_a_favourite_last_seat_first():
    game = new_game("toy-favourites", 3, seed=1)
    while game.phase == "choose_initial_tickets":
        game.apply(game.legal_actions()[0])
    order = []
    while game.phase == PICK:
        order.append(game.current_seat)
        game.apply(game.legal_actions()[0])
    assert order == [2, 1, 0]
    assert game.phase == "turn" and game.current_seat == 0


def test_the_new_card_kind_is_in_the_deck_and_wild_only_on_long_routes():
    game = new_game("toy-favourites", 2, seed=2)
    assert game.total_cards() == 120
    b = game.board
    assert "coupling" in b.card_names
    short = next(r for r in range(b.n_routes) if b.r_len[r] == 2 and b.r_color[r] >= 0)
    hand = [0] * b.n_pay
    hand[b.card_index["coupling"]] = 5
    assert b.claim_payments(short, hand) == []
    long_ = next(r for r in range(b.n_routes) if b.r_len[r] == 4)
    assert b.claim_payments(long_, hand)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_of_the_made_up_family_finish(players):
    rng = random.Random(players)
    for seed in range(4):
        game = new_game("toy-favourites", players, seed=seed)
        total = game.total_cards()
        steps = 0
        while not game.is_over and steps < 5000:
            seat = game.current_seat
            acts = game.legal_actions()
            assert acts, game.phase
            game.apply(rng.choice(acts))
            steps += 1
            assert game.total_cards() == total
            if steps % 50 == 0:
                clone = determinize(game.view(seat), random.Random(steps))
                assert clone.view(seat).hand == game.view(seat).hand
        assert game.is_over
        for sc in game.scores():
            assert sc.total == sum(sc.parts.values())
            assert list(sc.parts)[:5] == list(TOY.score_parts)


def test_the_veto_stops_claims_into_another_seats_favourite():
    game = new_game("toy-favourites", 2, seed=5)
    while game.phase == "choose_initial_tickets":
        game.apply(game.legal_actions()[0])
    game.apply(next(a for a in game.legal_actions() if a.city_id == "denver"))  # seat 1
    game.apply(next(a for a in game.legal_actions() if a.city_id == "omaha"))   # seat 0
    from tests.helpers import set_hand
    set_hand(game, 0, locomotive=6)
    claims = {a.route_id for a in game.legal_actions() if a.kind == "claim_route"}
    assert not any("denver" in rid for rid in claims)
    problem = game.claim_problem("denver-omaha")
    assert problem and "favourite" in problem


def test_an_after_claim_step_can_be_declined_and_the_core_ends_the_turn():
    game = new_game("toy-favourites", 2, seed=6)
    while game.phase in ("choose_initial_tickets", PICK):
        game.apply(game.legal_actions()[-1])
    from tests.helpers import set_hand
    set_hand(game, 0, locomotive=6, red=2)
    claim = next(a for a in game.legal_actions() if a.kind == "claim_route")
    game.apply(claim)
    assert game.phase == POLISH and game.current_seat == 0
    events = game.apply(Decline("polish"))
    assert [e.kind for e in events][-1] == "turn_started"
    assert game.current_seat == 1 and game.phase == "turn"
