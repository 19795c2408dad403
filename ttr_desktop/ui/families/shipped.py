"""The shipped families' window parts, in one explicit list, in the engine's order
(``rules.family.SHIPPED``): the setup screen offers them in this order."""

from __future__ import annotations

from ttr_desktop.ui.families import (
    classic, county_durham, legacy, marklin, nordic, old_west, usa_1910,
)
from ttr_desktop.ui.families import WindowFamily

#: Every shipped family's window descriptor, in the order the game offers them.
SHIPPED: tuple[WindowFamily, ...] = (
    classic.USA,
    usa_1910.WINDOW,
    classic.EUROPE,
    nordic.WINDOW,
    marklin.WINDOW,
    legacy.WINDOW,
    old_west.WINDOW,
    county_durham.WINDOW,
)

#: The files of this folder the list covers (any other family file registers itself).
MODULES = ("classic", "county_durham", "legacy", "legacy_campaign", "legacy_campaign_chart",
           "marklin", "nordic", "old_west", "usa_1910")
