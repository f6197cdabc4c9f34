"""MONA's side writes and reads numbers as data (``mona.Numbers``): the same sets as the
compilers' constants, and the same numbers as the numerations' decoding."""

from __future__ import annotations

import pytest

from nimproof.expr import to_ws1s, zeckendorf
from nimproof.expr import to_ws1s_zeckendorf as zws1s
from nimproof.provers import automata

CASES = [
    ("binary", to_ws1s.const_set, lambda ps: sum(1 << p for p in ps)),
    ("zeckendorf", zws1s.const_set, zeckendorf.from_positions),
]


@pytest.mark.parametrize(("name", "const_set", "decode"), CASES)
def test_numbers_agree_with_the_numeration(name, const_set, decode) -> None:  # type: ignore[no-untyped-def]
    numbers = automata.NUMERATIONS[name].numbers
    for value in [*range(300), 2**50 + 1, 10**30, 3**60]:
        text = numbers.set_text(value)
        assert text == const_set(value)
        positions = tuple(int(x) for x in text.strip("{}").split(",") if x)
        assert numbers.value(positions) == value == decode(positions)
    # any set of positions (valid or not in Zeckendorf) decodes as the numeration decodes it
    for positions in [(0, 1), (1, 2, 3), (5,), (0, 7, 8, 40)]:
        assert numbers.value(positions) == decode(positions)


def test_a_number_beyond_the_places_is_an_error() -> None:
    numbers = automata.NUMERATIONS["binary"].numbers
    with pytest.raises(ValueError):
        numbers.set_text(1 << automata.PLACES)
