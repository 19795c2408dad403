"""Counts in words: the one plural rule every text uses (engine messages, the log, the
window, hints).

``plural(1, "card")`` is "1 card", ``plural(2, "card")`` "2 cards"; irregular words
are listed once in ``IRREGULAR`` so no caller spells its own plural.
"""

from __future__ import annotations

#: Singular -> plural where adding "s" is wrong.
IRREGULAR = {
    "city": "cities", "coal": "coal", "coal token": "coal tokens", "dollar": "dollars",
    "merchandise": "merchandise", "passenger": "passengers", "box": "boxes",
    "+4 locomotive": "+4 locomotives", "space": "spaces",
}


def plural_word(n: int, one: str, many: str | None = None) -> str:
    """The word alone, in the form ``n`` needs: "card" for 1, "cards" otherwise."""
    if n == 1 or n == -1:
        return one
    if many is not None:
        return many
    return IRREGULAR.get(one) or (one[:-1] + "ies" if one.endswith("y") and one[-2:-1]
                                  not in "aeiou" else one + "s")


def plural(n: int, one: str, many: str | None = None) -> str:
    """'1 ticket', '3 tickets', '1 city', '2 cities'."""
    return f"{n} {plural_word(n, one, many)}"


#: Card names that are not colours, as a count of them is said ("2 locomotives",
#: "4 coal", "1 passenger card"); a colour is said as "3 red" / "3 red cards".
CARD_WORDS = {
    "locomotive": "locomotive", "locomotive_plus4": "+4 locomotive", "coal": "coal",
    "passenger": "passenger card", "newspaper": "newspaper card",
}


def card_count(n: int, name: str, cards: bool = True) -> str:
    """A count of one kind of card: '2 locomotives', '1 +4 locomotive', '4 coal' (coal
    is tokens, never cards), '3 red cards' (``cards=False``: '3 red', as in a payment)."""
    word = CARD_WORDS.get(name)
    if word is not None:
        return plural(n, word)
    colour = name.replace("_", " ")
    return plural(n, f"{colour} card") if cards else f"{n} {colour}"


def card_name(name: str) -> str:
    """One card as players name it: '+4 locomotive', 'passenger card', 'red'."""
    word = CARD_WORDS.get(name)
    if word is not None:
        return word
    return {"gray": "grey"}.get(name, name.replace("_", " "))
