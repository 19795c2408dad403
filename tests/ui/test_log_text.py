"""Payments in words, as the log, the route card and the hint say them."""

from __future__ import annotations

from ttr_desktop.ui.log_text import pay_words


def test_a_payment_names_colours_first_and_counts_locomotives_in_the_plural():
    assert pay_words([("locomotive", 2), ("green", 1)]) == "1 green + 2 locomotives"
    assert pay_words([("red", 3), ("locomotive", 1)]) == "3 red + 1 locomotive"
    assert pay_words([("locomotive", 12)]) == "12 locomotives"


def test_marklins_plus_four_locomotives_are_counted_the_same_way():
    assert pay_words([("locomotive_plus4", 3), ("red", 1)]) == "1 red + 3 +4 locomotives"
    assert pay_words([("locomotive", 2), ("locomotive_plus4", 1)]) == \
        "2 locomotives + 1 +4 locomotive"


def test_a_payment_the_event_already_wrote_out_is_kept_as_written():
    assert pay_words("2 red + 1 locomotive") == "2 red + 1 locomotive"
