"""USA 1910 in the window: one family, three games on the USA board with their own tickets.

Nothing new to draw: the board, the tickets and the scoring are the USA game's. The setup
screen lists the family once; under it, the choice of game (1910, Mega Game, Big Cities),
each with a line on what differs (deal and keep, bonuses), and Stations on or off, as in
the USA game. The Globetrotter and longest-path parts have their labels; the rules page is
``assets/rules/05-usa-1910.md``, which the rules screen opens at from any of the games.
"""

from __future__ import annotations

from ttr_desktop.ui.families import SetupGame, SetupSwitch, WindowFamily

GAMES = (
    SetupGame(
        "usa-1910", "1910", "Deal 3, keep 2 · Globetrotter +15", aside="35 tickets",
        note="The USA map with the 35 tickets of USA 1910. You are dealt 3 tickets and keep "
        "at least 2; draws show 3. +15 Globetrotter for the most completed tickets, no "
        "longest-path bonus.", title="USA 1910"),
    SetupGame(
        "usa-1910-mega", "Mega Game", "Deal 5, keep 3 · Globetrotter, longest path",
        aside="all 69 tickets",
        note="The USA map with all 69 tickets of USA 1910: the 1910 cards, the 30 originals "
        "and 4 more. You are dealt 5 and keep at least 3; draws show 4. +15 Globetrotter and "
        "+10 for the longest path."),
    SetupGame(
        "usa-1910-big-cities", "Big Cities", "Deal 4, keep 2 · no bonus",
        aside="35 big-city tickets",
        note="The USA map with the 35 Big Cities tickets: every one starts or ends in "
        "Chicago, Dallas, Houston, Los Angeles, Miami, New York or Seattle. You are dealt 4 "
        "and keep at least 2; draws show 4. No bonuses."),
)

STATIONS = SetupSwitch(
    "stations", "Stations", "Use a rival's route · 4 points each unbuilt", aside="3 each",
    note="Plus 3 stations each: a station lets you use one rival route into its city for "
    "your tickets; every station you never build is worth 4 points.")

WINDOW = WindowFamily(
    "usa-1910",
    label="USA 1910",
    games=GAMES,
    switches=(STATIONS,),
    part_labels={"globetrotter": "Globetrotter", "stations": "Unbuilt stations"},
    rules_page="05-usa-1910.md",
    rules_section="USA 1910",
)
