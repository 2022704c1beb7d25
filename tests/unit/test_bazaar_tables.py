"""Bazaar's fixed data: the 10 exchange cards and the catalogue of 45 wares, and the script
that makes them."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

from domain.bazaar import stones, tables
from domain.bazaar.making import make_tables
from domain.bazaar.tables import COLOURS, EXCHANGE_CARDS, LETTERS, WARES

EQUATIONS = [equation for card in EXCHANGE_CARDS for equation in card]


def linked(equations: list[tuple[str, str]]) -> dict[str, set[str]]:
    """Which colours each colour reaches through these equations (an equation links every
    colour of one side with every colour of the other, both ways)."""
    links: dict[str, set[str]] = {x: set() for x in LETTERS}
    for left, right in equations:
        for a in left:
            for b in right:
                links[a].add(b)
                links[b].add(a)
    reached = {}
    for start in LETTERS:
        seen, frontier = {start}, [start]
        while frontier:
            for nxt in links[frontier.pop()] - seen:
                seen.add(nxt)
                frontier.append(nxt)
        reached[start] = seen
    return reached


def test_the_generator_reproduces_tables_py_byte_for_byte() -> None:
    path = Path(tables.__file__).with_name("tables.py")
    assert path.read_bytes() == make_tables.render().encode()


def test_five_colours_one_letter_each_as_the_rules_page_names_them() -> None:
    assert COLOURS == ("red", "green", "blue", "white", "yellow") == stones.COLOURS
    assert LETTERS == "RGBWY"


def test_ten_exchange_cards_of_five_equations() -> None:
    assert len(EXCHANGE_CARDS) == 10
    assert all(len(card) == 5 for card in EXCHANGE_CARDS)


@pytest.mark.parametrize(("left", "right"), EQUATIONS)
def test_each_side_holds_one_to_four_stones_and_no_colour_stands_on_both(
    left: str, right: str
) -> None:
    assert 1 <= len(left) <= 4 and 1 <= len(right) <= 4
    assert set(left + right) <= set(LETTERS)
    assert not set(left) & set(right)


def test_no_equation_appears_twice_either_way_round() -> None:
    written = [frozenset(((0, left), (1, right))) for left, right in EQUATIONS]
    as_sets = {frozenset((left, right)) for left, right in EQUATIONS}
    assert len(set(written)) == len(as_sets) == 50


@pytest.mark.parametrize("pair", list(combinations(range(10), 2)))
def test_every_colour_reaches_every_other_through_any_pair_of_cards(
    pair: tuple[int, int],
) -> None:
    reached = linked([e for card in pair for e in EXCHANGE_CARDS[card]])
    assert all(reached[colour] == set(LETTERS) for colour in LETTERS), pair


def test_the_reachability_check_can_fail() -> None:
    """Its control: the same cards without the equations that hold yellow cut yellow off."""
    equations = [e for card in (0, 1) for e in EXCHANGE_CARDS[card] if "Y" not in e[0] + e[1]]
    reached = linked(equations)
    assert reached["Y"] == {"Y"} and "Y" not in reached["R"]


def test_the_rules_example_is_on_card_0() -> None:
    """ "une pierre rouge contre une jaune, une bleue et une verte" """
    assert ("R", "GBY") in EXCHANGE_CARDS[0]


def test_the_one_stone_sides_spread_evenly_over_the_colours() -> None:
    singles = Counter(left for left, _ in EQUATIONS if len(left) == 1)
    assert singles == dict.fromkeys(LETTERS, 6)


def test_45_distinct_wares_of_five_stones() -> None:
    assert len(WARES) == 45 == len(set(WARES))
    assert all(len(ware) == 5 and set(ware) <= set(LETTERS) for ware in WARES)
    assert all(list(ware) == sorted(ware, key=LETTERS.index) for ware in WARES)


def test_precious_means_four_or_five_stones_of_one_colour() -> None:
    assert stones.is_precious(stones.counts("RRRRR"))
    assert stones.is_precious(stones.counts("RGGGG"))
    assert not stones.is_precious(stones.counts("RRRGG"))
    assert not stones.is_precious(stones.counts("RGBWY"))


def test_about_a_third_of_the_wares_are_precious() -> None:
    precious = [w for w in WARES if stones.is_precious(stones.counts(w))]
    assert len(precious) == 15  # a third, exactly
    assert {max(Counter(w).values()) for w in precious} == {4, 5}


def test_every_colour_is_as_common_as_any_other_in_the_catalogue() -> None:
    assert Counter("".join(WARES)) == dict.fromkeys(LETTERS, 45)


def test_the_rules_page_shows_the_cards_and_the_wares_as_generated() -> None:
    page = Path(__file__).resolve().parents[2] / "docs" / "rules" / "bazaar.md"
    assert make_tables.rules_page() in page.read_text()
