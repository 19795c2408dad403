"""Train-card kinds as ruleset data (rules.md §1.1, §2.1, §3.1).

A ruleset lists its card kinds in index order; the engine never assumes how
many colours there are or where the locomotive sits. Each kind says how many
copies the deck holds (possibly by player count), whether it is a colour a
route can ask for, whether it is wild (and on which routes), whether a
face-up pick of it ends the draw, and which refresh group it belongs to.
"""

from __future__ import annotations

from dataclasses import dataclass

from ttr_desktop.maps.model import CARD_COLORS


@dataclass(frozen=True)
class CardKind:
    """One kind of train card.

    - ``count``: copies in the deck; or ``((players, copies), ...)`` by player
      count (the entry with the largest ``players`` not above the seat count).
    - ``color``: a colour a coloured route asks for (and a gray route takes).
    - ``wild``: pays for any colour; ``wild_min_length`` is the shortest route
      it may pay for (Märklin's +4 locomotive: 4).
    - ``first_pick_only``: a face-up card of this kind may be taken only as the
      first and only card of a draw (the plain locomotive).
    - ``refresh_group``: when ``Ruleset.refresh_count`` face-up cards of one
      group show, the display is replaced (locomotives; Märklin's passengers).
    - ``setup_redeal``: dealt at setup or shown in the first display, it is
      shuffled back and replaced (Legacy's newspapers). Such a card never stays
      in a hand (a module consumes it when it is drawn in play): the window
      leaves it out of hands and determinization deals none to a hidden hand.
    """

    name: str
    count: int | tuple[tuple[int, int], ...]
    color: bool = True
    wild: bool = False
    wild_min_length: int = 1
    first_pick_only: bool = False
    refresh_group: str = ""
    setup_redeal: bool = False

    def copies(self, players: int) -> int:
        """Copies of this card in a deck for ``players`` seats."""
        if isinstance(self.count, int):
            return self.count
        best = 0
        for at, n in sorted(self.count):
            if players >= at:
                best = n
        return best


#: The plain locomotive: wild on every route, first and only face-up pick, refresh group.
def locomotive(count: int = 14) -> CardKind:
    """The plain locomotive with ``count`` copies."""
    return CardKind("locomotive", count, color=False, wild=True, first_pick_only=True,
                    refresh_group="locomotive")


def colour_cards(per_colour: int = 12, colours: tuple[str, ...] = CARD_COLORS,
                 ) -> tuple[CardKind, ...]:
    """One colour card kind per colour, ``per_colour`` copies each."""
    return tuple(CardKind(c, per_colour) for c in colours)


#: USA and Europe (rules.md §1.1): 12 of each of eight colours and 14 locomotives.
STANDARD_DECK: tuple[CardKind, ...] = colour_cards(12) + (locomotive(14),)
