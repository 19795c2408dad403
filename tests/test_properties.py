"""Properties that hold after every action of any game (hypothesis stateful testing).

Hypothesis picks the index of each action among ``legal_actions()``; a second
rule plays a burst of seeded random actions so games also reach their end.
After every single action the invariants below are checked. One test case per game of
a rule family and option set (``rules.family.games()``), with any player count it seats:
a family registered the documented way is checked here too.
"""

import random
from collections import Counter

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from ttr_desktop.rules import games, new_game
from ttr_desktop.rules.state import Phase

#: Games per family and option set (8 of them for the shipped families).
SETTINGS = settings(max_examples=10, stateful_step_count=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


class GamePlay(RuleBasedStateMachine):
    """Plays one game of ``VARIANT`` with ``OPTIONS`` for any of ``PLAYERS``."""

    VARIANT = "usa"
    OPTIONS: dict | None = None
    PLAYERS: tuple[int, ...] = (2, 3, 4, 5)

    def __init__(self):
        super().__init__()
        self.game = None

    @initialize(data=st.data(), seed=st.integers(0, 2**32))
    def start(self, data, seed):
        players = data.draw(st.sampled_from(self.PLAYERS), label="players")
        self.game = new_game(self.VARIANT, players, seed=seed, options=self.OPTIONS)
        self.display_may_jam = False
        self.last_display = list(self.game.state.face_up)
        self.after([])

    @rule(data=st.data())
    def take_a_chosen_action(self, data):
        game = self.game
        actions = game.legal_actions()
        if game.is_over:
            assert actions == []
            return
        index = data.draw(st.integers(0, len(actions) - 1), label="action")
        self.after(game.apply(actions[index]))

    @rule(seed=st.integers(0, 2**16), steps=st.integers(1, 25))
    def play_a_random_burst(self, seed, steps):
        rng = random.Random(seed)
        for _ in range(steps):
            if self.game.is_over:
                return
            self.after(self.game.apply(rng.choice(self.game.legal_actions())))

    # ------------------------------------------------------------------
    def after(self, events):
        """Track the display, then check every invariant."""
        s = self.game.state
        refreshes = sum(1 for e in events if e.kind == "face_up_refreshed")
        if s.face_up != self.last_display or refreshes:
            self.display_may_jam = self.display_needs_refresh() and (
                not (s.deck or s.discard)
                or refreshes >= self.game.ruleset.max_consecutive_refreshes)
            self.last_display = list(s.face_up)
        self.check_all()

    def display_needs_refresh(self):
        """Whether the display shows the ruleset's refresh count of one refresh group (three
        locomotives; Märklin's passengers)."""
        rules, face = self.game.ruleset, self.game.state.face_up
        groups = {k.refresh_group for k in rules.cards if k.refresh_group}
        return any(sum(1 for c in face if c >= 0 and rules.cards[c].refresh_group == group)
                   >= rules.refresh_count for group in groups)

    def check_all(self):
        for check in (self.every_train_card_is_accounted_for, self.no_count_is_negative,
                      self.trains_left_plus_trains_placed_is_the_familys_trains,
                      self.route_owners_respect_the_double_route_rules,
                      self.the_score_track_equals_the_route_points,
                      self.every_ticket_is_accounted_for_once,
                      self.the_display_needs_no_refresh_unless_jammed,
                      self.the_current_seat_always_has_an_action_until_the_end):
            check()

    @invariant()
    def invariants_hold(self):
        if self.game is not None:
            self.check_all()

    def every_train_card_is_accounted_for(self):
        game, s = self.game, self.game.state
        assert game.total_cards() == game.ruleset.deck_size(game.num_players)
        every = list(s.deck) + list(s.discard) + [c for c in s.face_up if c >= 0]
        every += [c for h in s.hands for c, n in enumerate(h) for _ in range(n)]
        for module in game.modules:
            every += list(module.held_cards(game.ctx))
        counts = Counter(game.board.card_names[c] for c in every)
        deck = game.ruleset.deck_composition(game.num_players)
        assert counts == Counter({name: n for name, n in deck.items() if n})

    def no_count_is_negative(self):
        game, s = self.game, self.game.state
        assert all(n >= 0 for h in s.hands for n in h)
        assert all(t >= 0 for t in s.trains)
        if game.ruleset.score_floor is None:   # (Legacy's dollars may dip below its floor)
            assert all(p >= 0 for p in s.points)
        assert all(c >= -1 for c in s.face_up)
        assert all(c >= 0 for c in s.deck + s.discard)
        if "stations" in s.ext:
            stations = game.ruleset.stations_per_player
            assert all(0 <= left <= stations for left in s.ext["stations"].left)

    def trains_left_plus_trains_placed_is_the_familys_trains(self):
        game, s = self.game, self.game.state
        for seat in range(game.num_players):
            placed = sum(game.board.r_len[r] for r, o in enumerate(s.owner) if o == seat)
            assert s.trains[seat] + placed == game.ruleset.trains_per_player

    def route_owners_respect_the_double_route_rules(self):
        game, s = self.game, self.game.state
        groups, sizes = {}, Counter(route.group for route in game.board.routes)
        for r, route in enumerate(game.board.routes):
            if s.owner[r] >= 0:
                groups.setdefault(route.group, []).append(s.owner[r])
        for group, owners in groups.items():
            assert len(owners) == len(set(owners)), "a seat owns two routes of one group"
            if not game.ruleset.group_open(sizes[group], game.num_players):
                assert len(owners) == 1, "two tracks of a group used with too few players"

    def the_score_track_equals_the_route_points(self):
        game, s = self.game, self.game.state
        modules_score_routes = any(m.overrides("route_scorers") for m in game.modules)
        for seat in range(game.num_players):
            assert s.points[seat] == sum(e[1] for e in s.ledger if e[0] == seat)
            if modules_score_routes:   # (Old West's markers redirect route points)
                continue
            recount = sum(game.ruleset.route_points.get(game.board.r_len[r], 0)
                          for r, o in enumerate(s.owner) if o == seat)
            assert recount == sum(e[1] for e in s.ledger if e[0] == seat and e[2] == "route")

    def every_ticket_is_accounted_for_once(self):
        game, s = self.game, self.game.state
        every = [t for deck in s.ticket_decks.values() for t in deck]
        every += [t for p in s.pending for t in p] + [t for k in s.tickets for t in k]
        every += s.boxed_tickets + s.held_returns
        assert len(every) == len(set(every)) == len(game.map.tickets)
        holding = [seat for seat, pending in enumerate(s.pending) if pending]
        if s.phase == Phase.KEEP_TICKETS:
            assert holding == [s.current]
        elif s.phase == Phase.CHOOSE_INITIAL_TICKETS and game.ruleset.initial_announced:
            assert holding in ([], [s.current])   # each seat announces its mix, then keeps
        elif s.phase == Phase.CHOOSE_INITIAL_TICKETS:
            still_to_choose = 1 + sum(1 for owner, step, _ in s.pipeline
                                      if (owner, step) == ("core", "initial_tickets"))
            assert s.current in holding and len(holding) == still_to_choose
        else:
            assert holding == []

    def the_display_needs_no_refresh_unless_jammed(self):
        assert not self.display_needs_refresh() or self.display_may_jam

    def the_current_seat_always_has_an_action_until_the_end(self):
        game = self.game
        if game.is_over:
            assert game.legal_actions() == []
        else:
            assert game.legal_actions()


def _case_name(variant: str, options: dict) -> str:
    words = [variant, *options]
    return "Test" + "".join(w.replace("-", " ").replace("_", " ").title().replace(" ", "")
                            for w in words) + "Game"


def game_cases() -> dict[str, type]:
    """A hypothesis test case per game of a registered family and option set."""
    cases = {}
    for family in games():
        for options in family.option_sets():
            machine = type(f"{family.id}{options}", (GamePlay,), {
                "VARIANT": family.id, "OPTIONS": options or None,
                "PLAYERS": family.player_counts})
            case = machine.TestCase
            case.settings = SETTINGS
            cases[_case_name(family.id, options)] = case
    return cases


globals().update(game_cases())
