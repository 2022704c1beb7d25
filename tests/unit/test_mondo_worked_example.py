"""The seed's worked example, built from real tiles on a standard world board, every figure of it.

    "The player has 6 animals: 6 points. Her board holds 4 closed, error-free landscapes: 2 deserts
    (A), 1 forest (B) and 1 steppe (C): 8 points more. The two landscapes (D) are closed but not
    error-free (E). The landscapes (F) have faults too. The steppe (G) is not closed. The water
    (H) scores nothing. The bonus chip (I): 2 points. Volcanoes: she has 4 active ones (her 2
    inactive ones are ignored in the first round); her opponent has 5: the opponent loses 5
    points, she none. The empty space (J): -1, and -4 for the 4 closure errors (K)."

Her board: each space's tile and its edges N E S W as laid (w water, f forest, d desert,
s steppe), its animal and volcano (act: active, ina: inactive); "." is a plain water tile:

          col 0           col 1          col 2            col 3           col 4
    row 0 .               61 wdww snake  77 wwwd          60 ffww panda   .
    row 1 29 wfww dolphin 119 wdwf act   74 wswd act      78 wsws act     85 wwwf
                                                          turtle
    row 2 .               .              .                53 wwsw         36 wwsw act
                                                                          buffalo
    row 3 .               .              .                132 sssw ina    118 ssws ina
                                                          buffalo

Column 5 holds plain water tiles in rows 0 to 2; its last space (row 3) is J, empty.

A: the deserts 61|77 and 119|74; B: the forest 29|119; C: the steppe 74|78; D: the steppe 78
and the forest 85 meeting across one error; F: the forest of 60 (a panda), on the border and
against water (2 errors); G: the steppe 53, 36, 132, 118, open towards J, and on the border
(1 error). Animals: snake, panda, dolphin (in 29's water), turtle, two buffalos.
"""

from __future__ import annotations

from mondo_builders import board, emptied, seat, survey_of

from domain.mondo.faces import DESERT, FOREST, SPECIES, STEPPE, WATER
from domain.mondo.scoring import round_scores

HER = emptied(
    board(
        {
            1: (61, "variable", 0),
            2: (77, "variable", 90),
            3: (60, "variable", 90),
            6: (29, "variable", 180),
            7: (119, "variable", 0),
            8: (74, "variable", 180),
            9: (78, "variable", 0),
            10: (85, "variable", 0),
            15: (53, "variable", 90),
            16: (36, "variable", 90),
            21: (132, "variable", 180),
            22: (118, "variable", 0),
        },
        fill="w",
    ),
    23,  # J
)

#: The opponent's board (not shown in the seed): five active volcanoes in a row.
OPPONENT = board(
    {
        0: (11, "variable", 0),
        1: (20, "variable", 0),
        2: (23, "variable", 0),
        3: (56, "variable", 0),
        4: (98, "variable", 0),
    }
)


def test_her_board_shows_every_figure_of_the_seed() -> None:
    shown = survey_of(HER)
    complete = [x.kind for x in shown.landscapes if x.complete]
    assert sorted(k for k in complete if k != WATER) == [FOREST, DESERT, DESERT, STEPPE]  # A B C
    closed_faulty = [x.kind for x in shown.landscapes if x.closed and not x.flawless]
    assert sorted(closed_faulty) == [FOREST, FOREST, STEPPE]  # D (steppe, forest) and F
    (open_steppe,) = [x for x in shown.landscapes if x.kind == STEPPE and not x.closed]  # G
    assert open_steppe.tiles == 4 and open_steppe.openings == (23,)
    assert all(x.kind == WATER for x in shown.landscapes if not x.closed and x is not open_steppe)
    assert len(shown.species) == 6
    assert sorted(SPECIES[a] for a in shown.species) == sorted(
        ["snake", "panda", "dolphin", "turtle", "buffalo", "buffalo"]
    )
    assert (shown.active, shown.inactive) == (4, 2)
    assert shown.empty == 1  # J
    assert shown.errors == 4  # K


def test_her_score_and_her_opponents_volcanoes() -> None:
    her, opponent = round_scores([seat(HER, chip=2), seat(OPPONENT)])
    assert her.animals == 6
    assert her.landscapes == 8
    assert her.bonus == 2
    assert (her.volcano_count, her.volcanoes) == (4, 0)  # the 2 inactive ones are ignored
    assert (opponent.volcano_count, opponent.volcanoes) == (5, -5)
    assert her.empty_spaces == -1
    assert her.closure_errors == -4
    assert her.special == 0 and her.tasks == ()
    assert her.total == 6 + 8 + 2 - 1 - 4 == 11


def test_in_a_later_round_a_leader_counts_her_inactive_volcanoes() -> None:
    her, opponent = round_scores([seat(HER, chip=2, leader=True), seat(OPPONENT)])
    assert (her.volcano_count, opponent.volcano_count) == (6, 5)
    assert (her.volcanoes, opponent.volcanoes) == (-6, 0)
    assert her.total == 11 - 6
