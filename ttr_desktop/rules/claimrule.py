"""The one claim rule of a (map, ruleset): which payments may claim a route, whether a
hand can pay, and why not, in a player's words.

Every part of the engine that pays for a route asks the board's ``ClaimRule``
(``board.claim_rule``): move generation (its fast path is compiled from it),
the legality check, ``explain``, tunnels (the extra cards), ``payments_for``.

The usual rule (rules.md §1.5, §1.10, §2.3, §5.3) is ``payment.payments`` with
the route's length, colour and the wild units a ferry requires
(``board.r_min_locos``). Rule modules change it through one hook:
``RuleModule.claim_terms(board)`` returns a ``ClaimTerms`` (or None), which may

- restrict where a wild pays (``wild_allowed``: locomotives only on ferries and
  tunnels);
- add substitute payments (``more_payments``: any 3 cards for a ferry's
  locomotive, any 4 cards for each missing card of a colour);
- give the words for a hand that cannot pay (``shortfall``).

Pay sources (County Durham's coal: ``board.add_source``) and a wild's minimum
route length (Märklin's +4 locomotive: ``CardKind.wild_min_length``) are part
of the pay items (``payment.PaySpec``) and need no terms.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ttr_desktop.rules.payment import (
    ANY_COLOUR, WILDS_ONLY, PaySpec, Wild, affordable, colour_of, payments, wild_count, words,
)
from ttr_desktop.rules.words import card_count, plural

if TYPE_CHECKING:
    from ttr_desktop.rules.board import Board


class ClaimTerms:
    """A rule module's change to the claim rule; override only what changes.

    ``board`` is the compiled board (``board.r_len``, ``board.r_color``,
    ``board.r_tunnel``, ``board.r_min_locos``, ``board.pay``); ``route`` a route
    index; ``hand`` a pay vector (cards in index order, then pay sources)."""

    def wild_allowed(self, board: "Board", route: int, wild: Wild) -> bool:
        """Whether the wild pay item ``wild`` may pay for ``route`` at all (a tunnel's
        extra cards follow the same answer). Asked once per route when compiled."""
        return True

    def wild_refusal(self, board: "Board", route: int, wild: Wild) -> str | None:
        """Why ``wild`` may not pay for ``route`` (where ``wild_allowed`` says no), in a
        player's words completing "Locomotives do not count on X: ..." (None: the
        refusal is said without a reason)."""
        return None

    def more_payments(self, board: "Board", route: int,
                      hand: Sequence[int]) -> Iterable[Sequence[int]]:
        """Payments ``hand`` can make for ``route`` beyond the usual ones (substitutes):
        pay vectors, each within the hand. Listed after the usual payments."""
        return ()

    def shortfall(self, board: "Board", route: int, hand: Sequence[int]) -> str | None:
        """Words for a hand that cannot pay for ``route`` (None: the usual words)."""
        return None


class ClaimRule:
    """The payment and claim rule of one board, with its modules' terms."""

    def __init__(self, board: "Board", terms: Sequence[ClaimTerms] = ()) -> None:
        self.board = board
        self.pay = base = board.pay
        self.terms = tuple(terms)
        #: Some terms add payments: a hand may pay without the usual cards, so the
        #: usual bounds (colour + wild units >= length, the ferry's wilds) do not hold.
        self.substitutes = any(
            type(t).more_payments is not ClaimTerms.more_payments for t in self.terms)
        #: The usual rule unchanged by any terms (move generation's table fast path).
        self.plain = not self.terms
        specs: dict[tuple[Wild, ...], PaySpec] = {base.wilds: base}
        #: Per route: the pay items with only the wilds allowed there.
        self.route_pay: list[PaySpec] = []
        for r in range(board.n_routes):
            wilds = tuple(w for w in base.wilds
                          if all(t.wild_allowed(board, r, w) for t in self.terms))
            spec = specs.get(wilds)
            if spec is None:
                spec = specs[wilds] = PaySpec(base.names, base.colours, wilds)
            self.route_pay.append(spec)
        #: Per route: (index, items per unit) of each wild that may pay for it
        #: (``PaySpec.usable_wilds`` at its length; ``first`` reads them every claim).
        self._route_wilds: list[tuple[tuple[int, int], ...]] = [
            tuple((w.index, w.per_unit) for w in spec.usable_wilds(board.r_len[r]))
            for r, spec in enumerate(self.route_pay)]

    # Which payments -------------------------------------------------------------
    def payments(self, r: int, hand: Sequence[int]) -> list[tuple[int, ...]]:
        """Every payment ``hand`` can make for route ``r``, each once, in the legal-action
        order: the usual ones (``payment.payments``), then the terms' substitutes."""
        b = self.board
        out = payments(self.route_pay[r], b.r_len[r], b.r_color[r], hand, b.r_min_locos[r])
        if self.substitutes:
            seen = set(out)
            for vec in self._substitutes(r, hand):
                vec = tuple(vec)
                if vec not in seen:
                    seen.add(vec)
                    out.append(vec)
        return out

    def _substitutes(self, r: int, hand: Sequence[int]) -> Iterable[Sequence[int]]:
        """The terms' substitute payments for route ``r`` that ``hand`` makes (a vector of
        the hand's size, some card spent, none beyond the hand), repeats and all."""
        b = self.board
        size = len(hand)
        for t in self.terms:
            for vec in t.more_payments(b, r, hand):
                if (len(vec) == size and any(vec)
                        and all(0 <= n <= hand[i] for i, n in enumerate(vec))):
                    yield vec

    def order(self, vectors: Sequence[Sequence[int]], hand: Sequence[int],
              r: int | None = None) -> list[int]:
        """Indices of payments ordered as a player wants them offered: the usual ones
        before substitutes (fewest cards spent first), then fewest wild cards, then the
        colour the player holds most of, then plain locomotives before other wilds."""
        pay = self.pay
        wilds = pay.wilds
        length = self.board.r_len[r] if r is not None and self.substitutes else None

        def key(i: int):
            vec = vectors[i]
            c = colour_of(pay, vec)
            units = wild_count(pay, vec)
            # Cards spent beyond the route's length (substitutes only; the usual: 0).
            over = 0 if length is None else sum(vec) - length - sum(
                vec[w.index] - vec[w.index] // w.per_unit for w in wilds)
            return (over, units, -(hand[c] if c >= 0 else -1), c,
                    tuple(-vec[w.index] for w in wilds))

        return sorted(range(len(vectors)), key=key)

    def offered(self, r: int, hand: Sequence[int]) -> list[tuple[int, ...]]:
        """``payments`` in the order a player wants them offered (``order``)."""
        pays = self.payments(r, hand)
        if len(pays) > 1:
            pays = [pays[i] for i in self.order(pays, hand, r)]
        return pays

    def first(self, r: int, hand: Sequence[int]) -> tuple[int, ...] | None:
        """The payment a player is offered first (the canonical claim's), or None."""
        if not self.substitutes:
            return self._first_usual(r, hand)   # (None exactly where ``can_pay`` says no)
        if not self.can_pay(r, hand):
            return None
        # The usual payments come before every substitute (``order``: no card spent
        # beyond the route's length), so substitutes are listed only when none is
        # usual: a big hand has thousands of "any 3 cards" sets.
        usual = self._first_usual(r, hand)
        if usual is not None:
            return usual
        pays = self.offered(r, hand)
        return pays[0] if pays else None

    def _first_usual(self, r: int, hand: Sequence[int]) -> tuple[int, ...] | None:
        """The first usual payment in the offered order (``offered(r, hand)[0]`` where no
        term adds substitutes), or None when no usual payment pays; without listing
        them: ``order`` puts first the fewest wild units (the most cards of one colour),
        then the colour held most (then the lowest), then the most of the first wild kind
        — and ``payments`` lists that spread of the wild units first. A search's rollouts
        ask this for nearly every claim (``Game.first_claim``); listing and ordering every
        payment (dozens with two wild kinds or coal) took most of a claim's time there:
        County Durham's rounds 15-20% faster, Märklin's 5-8%."""
        b = self.board
        length = b.r_len[r]
        if length <= 0:
            pays = self.offered(r, hand)
            return pays[0] if pays else None
        spec = self.route_pay[r]
        colour = b.r_color[r]
        min_wilds = b.r_min_locos[r]
        wilds = self._route_wilds[r]
        avail = [hand[i] // per for i, per in wilds]
        total = sum(avail)
        if total < min_wilds:
            return None
        best_c, best_k, best_key = -1, 0, None
        if colour != WILDS_ONLY:
            lo = max(1, length - total)
            top = length - min_wilds
            for c in (spec.colours if colour == ANY_COLOUR else (colour,)):
                k = hand[c]
                if k > top:
                    k = top
                if k >= lo:
                    key = (length - k, -hand[c], c)
                    if best_key is None or key < best_key:
                        best_c, best_k, best_key = c, k, key
        if best_key is None and total < length:
            return None
        vec = [0] * spec.size
        if best_c >= 0:
            vec[best_c] = best_k
        n = length - best_k
        for (i, per), u in zip(wilds, avail):
            take = u if u < n else n
            vec[i] += take * per
            n -= take
        return tuple(vec)

    def extra_payments(self, r: int, n: int, colour: int,
                       hand: Sequence[int]) -> list[tuple[int, ...]]:
        """Ways to pay ``n`` more cards for route ``r`` (a tunnel's extra cards) in
        ``colour`` or the wilds allowed there (``colour`` < 0: wilds only)."""
        return payments(self.route_pay[r], n, colour if colour >= 0 else WILDS_ONLY, hand,
                        wild_length=self.board.r_len[r])

    # Can this hand pay ----------------------------------------------------------
    def can_pay(self, r: int, hand) -> bool:
        """Whether ``hand`` (a pay vector) offers at least one payment for route ``r``."""
        b = self.board
        if affordable(self.route_pay[r], b.r_len[r], b.r_color[r], hand, b.r_min_locos[r]):
            return True
        return self.substitutes and self._any_substitute(r, hand)

    def _any_substitute(self, r: int, hand: Sequence[int]) -> bool:
        """Whether the terms offer some substitute payment for route ``r`` (``payments``
        lists it), asked without listing them all: where a route's usual payments fall
        short, most hands have none, and a big hand has thousands (a rollout asks this
        for route after route; listing them took over a third of a Nordic search)."""
        return next(iter(self._substitutes(r, hand)), None) is not None

    def wild_units(self, r: int, hand: Sequence[int]) -> int:
        """The wild units ``hand`` offers toward route ``r``."""
        units = 0
        for i, per in self._route_wilds[r]:
            units += hand[i] // per
        return units

    # Why not --------------------------------------------------------------------
    def problem(self, r: int, hand: Sequence[int], paid: Sequence[int] | None = None,
                where: str = "") -> str | None:
        """Why ``hand`` cannot claim route ``r`` (with pay vector ``paid``, if given:
        None when that payment is one of ``payments``), in a player's words; None when
        it can. ``where`` names the route ("Denver–Omaha"). Only cards: ownership,
        trains and vetoes are the caller's."""
        b = self.board
        pay = self.route_pay[r]
        need = b.r_len[r]
        color = b.routes[r].color
        min_locos = b.r_min_locos[r]
        units = pay.wild_units(hand, need)
        wild_word = _wild_words(pay, need)
        ferry = (f"{where} is a ferry: it needs {_n(min_locos, 'locomotive')}; you have "
                 f"{units}.")
        if paid is not None:
            if self.substitutes and all(n <= hand[i] for i, n in enumerate(paid)) \
                    and tuple(paid) in set(self.payments(r, hand)):
                return None
            if units < min_locos:
                return self._terms_shortfall(r, hand) or ferry
            return self._paid_problem(r, hand, paid, where)
        if self.can_pay(r, hand):
            return None
        text = self._terms_shortfall(r, hand)
        if text:
            return text
        if units < min_locos:
            return ferry
        barred = self._barred_words(r, hand, where)
        return self._usual_shortfall(r, hand, where) + (f" {barred}" if barred else "")

    def _usual_shortfall(self, r: int, hand: Sequence[int], where: str) -> str:
        b = self.board
        pay = self.route_pay[r]
        need = b.r_len[r]
        color = b.routes[r].color
        units = pay.wild_units(hand, need)
        wild_word = _wild_words(pay, need)
        unit = "locomotive" if self.pay.is_simple() else "wild"
        if color == "gray":
            best = max(hand[c] for c in b.colors)
            if not pay.usable_wilds(need):
                return (f"{where} needs {plural(need, 'card')} of one colour; your best "
                        f"colour gives {best}.")
            return (f"{where} needs {plural(need, 'card')} of one colour ({wild_word} are "
                    f"wild); your "
                    f"best colour gives {best} and you have {_n(units, unit)}.")
        held = hand[b.card_index[color]]
        if not pay.usable_wilds(need):
            return f"{where} needs {card_count(need, color)}; you have {held} {color}."
        return (f"{where} needs {card_count(need, color)} ({wild_word} are wild); you have "
                f"{held} {color} and {_n(units, unit)}.")

    def _barred(self, r: int, hand: Sequence[int] | None = None) -> list[Wild]:
        """The wilds the terms keep from paying for route ``r`` although its length would
        let them (held in ``hand``, when given)."""
        allowed = {w.index for w in self.route_pay[r].wilds}
        need = self.board.r_len[r]
        return [w for w in self.pay.wilds
                if w.index not in allowed and need >= w.min_length
                and (hand is None or hand[w.index] > 0)]

    def _refusal(self, r: int, wild: Wild) -> str | None:
        for t in self.terms:
            if not t.wild_allowed(self.board, r, wild):
                text = t.wild_refusal(self.board, r, wild)
                if text:
                    return text
        return None

    def _barred_words(self, r: int, hand: Sequence[int], where: str) -> str:
        """"Locomotives do not count on X: <why>." for each wild held that the terms keep
        from paying for route ``r`` ("" when none): a refused player learns why the
        locomotives in their hand did not help."""
        out = []
        for w in self._barred(r, hand):
            names = _wild_words(PaySpec(self.pay.names, self.pay.colours, (w,)),
                                self.board.r_len[r])
            why = self._refusal(r, w)
            out.append(f"{names[:1].upper()}{names[1:]} do not count on {where or 'this route'}"
                       + (f": {why}." if why else "."))
        return " ".join(out)

    def _terms_shortfall(self, r: int, hand: Sequence[int]) -> str | None:
        for t in self.terms:
            text = t.shortfall(self.board, r, hand)
            if text:
                return text
        return None

    def _paid_problem(self, r: int, hand: Sequence[int], paid: Sequence[int],
                      where: str) -> str | None:
        b = self.board
        base = self.pay
        pay = self.route_pay[r]
        need = b.r_len[r]
        color = b.routes[r].color
        min_locos = b.r_min_locos[r]
        wild_index = {w.index for w in base.wilds}
        size = sum(paid[c] for c in range(b.n_cards) if c not in wild_index)
        size += sum(paid[w.index] // w.per_unit for w in base.wilds)
        if size != need:
            return f"{where} takes exactly {plural(need, 'card')}; that payment has {size}."
        for i, n in enumerate(paid):
            if n > hand[i]:
                name = base.names[i]
                return (f"To claim {where} with {card_count(n, name, cards=False)} you need "
                        f"{card_count(n - hand[i], name)} more: you hold {hand[i]}.")
        for i in range(b.n_cards):
            if paid[i] and i not in wild_index and i not in b.colors:
                return f"A {base.names[i].replace('_', ' ')} card does not pay for a route."
        colours = [c for c in b.colors if paid[c]]
        if len(colours) > 1:
            return "A route is paid in one colour (plus locomotives); colours cannot be mixed."
        if colours and color != "gray" and b.card_names[colours[0]] != color:
            if pay.usable_wilds(need):
                return f"{where} is {color}: pay {color} cards or {_wild_words(pay, need)}."
            return f"{where} is {color}: pay {color} cards."
        allowed = {w.index for w in pay.wilds}
        for w in base.wilds:
            if not paid[w.index]:
                continue
            name = card_count(1, base.names[w.index])[2:]
            if need < w.min_length:
                return f"A {name} pays only for routes of {w.min_length} or more spaces."
            if w.index not in allowed:
                why = self._refusal(r, w)
                return f"A {name} cannot pay for {where}" + (f": {why}." if why else ".")
            if paid[w.index] % w.per_unit:
                return (f"{base.names[w.index].capitalize()} counts only in groups of "
                        f"{w.per_unit}.")
        if sum(paid[w.index] // w.per_unit for w in base.wilds) < min_locos:
            return f"{where} needs at least {_n(min_locos, 'locomotive')}."
        return None

    # The reference enumeration (for tests) ---------------------------------------
    def reference(self, r: int, hand: Sequence[int]) -> set[tuple[int, ...]]:
        """Every payment for route ``r`` within ``hand``, found the slow way: each
        sub-multiset of the hand that ``problem`` accepts (cards spent no more than
        the route's length times the largest substitute). For tests: small hands."""
        b = self.board
        need = b.r_len[r]
        top = need * max([w.per_unit for w in self.pay.wilds] + [1])
        if self.substitutes:
            top = sum(hand)
        out = set()
        for vec in itertools.product(*(range(min(n, top) + 1) for n in hand)):
            if 0 < sum(vec) <= top and self.problem(r, hand, vec) is None:
                out.add(vec)
        return out


def _wild_words(pay: PaySpec, length: int) -> str:
    """'locomotives', or 'locomotives and +4 locomotives' where more wilds apply."""
    names = [pay.names[w.index] for w in pay.usable_wilds(length)]
    text = {"locomotive": "locomotives", "locomotive_plus4": "+4 locomotives",
            "coal": "pairs of coal"}
    return " and ".join(text.get(n, n + "s") for n in names) or "locomotives"


_n = plural   # the one plural rule (rules/words.py)
