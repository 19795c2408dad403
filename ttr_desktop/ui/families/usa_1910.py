"""USA 1910 in the window: three games on the USA board with their own tickets.

Nothing new to draw: the board, the tickets and the scoring are the USA game's. The setup
screen offers the three games (1910, Mega Game, Big Cities), each with its description; the
Globetrotter and longest-path parts have their labels; the rules page is
``assets/rules/05-usa-1910.md``.
"""

from __future__ import annotations

from ttr_desktop.ui.families import SetupChoice, WindowFamily

#: Setup choice key (= engine variant) -> (label, description).
GAMES = {
    "usa-1910": (
        "USA 1910",
        "The USA map with the 35 tickets of USA 1910. You are dealt 3 tickets and keep at "
        "least 2; draws show 3. +15 Globetrotter for the most completed tickets, no "
        "longest-path bonus."),
    "usa-1910-mega": (
        "USA 1910: Mega Game",
        "The USA map with all 69 tickets of USA 1910: the 1910 cards, the 30 originals and 4 "
        "more. "
        "You are dealt 5 and keep at least 3; draws show 4. +15 Globetrotter and +10 for "
        "the longest path."),
    "usa-1910-big-cities": (
        "USA 1910: Big Cities",
        "The USA map with the 35 Big Cities tickets: every one starts or ends in Chicago, "
        "Dallas, Houston, Los Angeles, Miami, New York or Seattle. You are dealt 4 and keep "
        "at least 2; draws show 4. No bonuses."),
}

#: One window descriptor per game (each is its own engine family).
WINDOWS: tuple[WindowFamily, ...] = tuple(
    WindowFamily(key, choices=(SetupChoice(key, key, label, {}, note),),
                 part_labels={"globetrotter": "Globetrotter", "stations": "Unbuilt stations"},
                 rules_page="05-usa-1910.md", rules_section="USA 1910")
    for key, (label, note) in GAMES.items())
