"""USA 1910 (rules.md §11): one family of three games on the USA board, each with its own
tickets.

The family (``rules/family.py``) lists the three rulesets below as its games
(``Family.games``); each is a variant of its own (``new_game``, saves, the bots' table).
No rule module: everything is the USA game (§1, Stations optional) except the ticket set,
how many tickets are dealt and drawn, and the bonus cards:

=================== ==================================== ============ ============ =========================
game                tickets (``maps/*.tickets.toml``)     deal / keep  draw / keep  bonuses
=================== ==================================== ============ ============ =========================
``usa-1910``        ``usa-1910`` (35)                     3 / ≥ 2      3 / ≥ 1      Globetrotter +15
``usa-1910-mega``   ``usa-1910`` + ``usa-1910-mega`` (69) 5 / ≥ 3      4 / ≥ 1      Globetrotter +15,
                                                                                    longest path +10
``…-big-cities``    ``usa-bigcities`` (35)                4 / ≥ 2      4 / ≥ 1      none
=================== ==================================== ============ ============ =========================

Returned tickets go to the bottom of the deck (the USA default). The Globetrotter goes to
every seat with the most completed tickets (a tie scores for all, none when nobody
completed one: A-07), as Old West's.
"""

from __future__ import annotations

from dataclasses import replace

from ttr_desktop.rules.ruleset import USA, Bonus

GLOBETROTTER = Bonus("globetrotter", "completed_tickets", 15)
LONGEST_PATH = Bonus("longest_path", "longest_path", 10)

USA_1910 = replace(
    USA,
    name="usa-1910",
    ticket_sets=("usa-1910",),
    initial_tickets=(("regular", 3),),
    initial_keep_min=2,
    ticket_draw=3,
    ticket_keep_min=1,
    bonuses=(GLOBETROTTER,),
    score_parts=("routes", "tickets", "globetrotter"),
)

USA_1910_MEGA = replace(
    USA,
    name="usa-1910-mega",
    ticket_sets=("usa-1910", "usa-1910-mega"),
    initial_tickets=(("regular", 5),),
    initial_keep_min=3,
    ticket_draw=4,
    ticket_keep_min=1,
    bonuses=(GLOBETROTTER, LONGEST_PATH),
    score_parts=("routes", "tickets", "globetrotter", "longest_path"),
)

USA_1910_BIG_CITIES = replace(
    USA,
    name="usa-1910-big-cities",
    ticket_sets=("usa-bigcities",),
    initial_tickets=(("regular", 4),),
    initial_keep_min=2,
    ticket_draw=4,
    ticket_keep_min=1,
    bonuses=(),
    score_parts=("routes", "tickets"),
)
