"""The price table, cell by cell, through real purchases; the rules' worked example; and the
purchase that empties a stall, still priced on the upper rows."""

from __future__ import annotations

from typing import Literal

import pytest
from bazaar_builders import position, ware_id
from msgspec.structs import replace

from domain.bazaar.game import BAZAAR
from domain.bazaar.model import Buy, Price, State, WareBought
from domain.bazaar.prices import PRICES, points

CHEAP, PRECIOUS = "RRBWY", "GGGGY"  # a 2-1-1-1 ware and a 4-1 ware of the catalogue
# (a stall already empty, precious, stones left) -> points, as the seed's table reads.
TABLE = {
    (False, False): {0: 5, 1: 3, 2: 2, 3: 1, 4: 1, 7: 1},
    (False, True): {0: 8, 1: 5, 2: 3, 3: 2, 4: 2, 7: 2},
    (True, False): {0: 8, 1: 5, 2: 3, 3: 2, 4: 2, 7: 2},
    (True, True): {0: 12, 1: 8, 2: 5, 3: 3, 4: 3, 7: 3},
}
CELLS = [
    (empty, precious, left, expected)
    for (empty, precious), row in TABLE.items()
    for left, expected in row.items()
]
EXTRA = "WWWWWWW"  # stones left over after paying


def buy(ware: str, left: int, empty: bool) -> WareBought:
    """Seat 0 buys `ware` from stall 0 with `left` stones to spare."""
    stalls = ((ware_id(ware), 30), (1,), () if empty else (2,), (3,))
    state = position(ware + EXTRA[:left], "", stalls=stalls)
    (bought,) = BAZAAR.decide(state, 0, Buy(0))
    assert isinstance(bought, WareBought)
    return bought


@pytest.mark.parametrize(("empty", "precious", "left", "expected"), CELLS)
def test_every_cell_of_the_price_table(
    empty: bool, precious: bool, left: int, expected: int
) -> None:
    assert points(precious, left, empty) == expected
    bought = buy(PRECIOUS if precious else CHEAP, left, empty)
    kind: Literal["cheap", "precious"] = "precious" if precious else "cheap"
    assert bought.price == Price(kind=kind, left=left, stall_empty=empty, points=expected)


def test_the_table_is_the_seeds() -> None:
    assert PRICES == {
        (False, False): (5, 3, 2, 1),
        (False, True): (8, 5, 3, 2),
        (True, False): (8, 5, 3, 2),
        (True, True): (12, 8, 5, 3),
    }
    every = [p for row in PRICES.values() for p in row]
    assert max(every) == 12 and min(every) == 1  # "au maximum douze points et au minimum un"


def test_the_rules_example_a_cheap_ware_two_stones_left_all_stalls_stocked_scores_2() -> None:
    """Nessi "n'a gagné ... que deux points pour son achat : c'était une combinaison peu chère
    et il lui reste deux pierres (toutes les zones d'achat sont encore remplies)"."""
    state = position("RRRBBGY", "", stalls=((ware_id("RRRBB"),), (1,), (2,), (3,)))
    (bought,) = BAZAAR.decide(state, 0, Buy(0))
    assert isinstance(bought, WareBought)
    assert bought.price == Price(kind="cheap", left=2, stall_empty=False, points=2)
    assert BAZAAR.evolve(state, bought).scores == (2, 0)


def _last_of_its_stall(state: State) -> tuple[State, WareBought]:
    (bought,) = BAZAAR.decide(state, 0, Buy(0))
    assert isinstance(bought, WareBought)
    return BAZAAR.evolve(state, bought), bought


def test_the_purchase_that_empties_a_stall_is_still_priced_on_the_upper_rows() -> None:
    stalls = ((ware_id("GGGGY"),), (ware_id("RRBWY"), 7), (2,), (3,))
    state = position("GGGGY", "RRBWY", stalls=stalls)
    state, emptying = _last_of_its_stall(state)
    assert emptying.left_in_stall == 0 and emptying.revealed is None
    assert emptying.price == Price("precious", 0, stall_empty=False, points=8)
    state = replace(state, phase="buy_or_end")  # seat 1 has drawn or traded
    (after,) = BAZAAR.decide(state, 1, Buy(1))
    assert isinstance(after, WareBought)
    assert after.price == Price("cheap", 0, stall_empty=True, points=8)


def test_a_stall_refilled_in_a_position_prices_on_the_upper_rows_only_when_one_is_empty() -> None:
    """The control of the tests above: the same purchase, every stall stocked, then not."""
    full = position("RRBWY", "", stalls=((ware_id("RRBWY"),), (1,), (2,), (3,)))
    empty = replace(full, stalls=((ware_id("RRBWY"),), (1,), (), (3,)))
    (a,) = BAZAAR.decide(full, 0, Buy(0))
    (b,) = BAZAAR.decide(empty, 0, Buy(0))
    assert isinstance(a, WareBought) and isinstance(b, WareBought)
    assert (a.price.points, b.price.points) == (5, 8)
