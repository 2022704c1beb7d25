"""The `hard` AI: legal commands in random states, a landscape closed when it can be, a task
taken just before the tile that fulfils it (and never one it would not), the same command for
the same view; and the chip rule every level shares (`leaving`): no AI leaves while a tile
would score more than the chip it would keep."""

from __future__ import annotations

import random

import pytest
from mondo_builders import T0, board, game, placed, run, with_boards
from msgspec.structs import replace

from domain.mondo import ai, hard
from domain.mondo.faces import ORIENTED
from domain.mondo.game import MONDO
from domain.mondo.leaving import MARGIN_MS
from domain.mondo.model import PlaceTile, State, TakeBonus, TakeTask, TakeTile
from domain.mondo.views import MondoView

LEVELS = ("easy", "normal", "hard")
FOREST_PLAIN = next(t for t in range(136) if ORIENTED[t][0][0].edges == (1, 1, 1, 1))


def random_state(seed: int) -> tuple[State, int]:
    """A game of 1 to 4 seats with random options, after random legal commands."""
    rng = random.Random(seed)
    options = rng.choice([{}, {"advanced": True}, {"expert": True}, {"backside": True}])
    state = game(rng.randint(1, 4), **options)
    now = T0
    for _ in range(rng.randrange(0, 120)):
        actors = sorted(MONDO.to_act(state))
        if not actors:
            break
        seat = rng.choice(actors)
        legal = [c for c in MONDO.legal(state, seat, now) if not isinstance(c, TakeBonus)]
        places = [c for c in legal if isinstance(c, PlaceTile | TakeTile)]
        state = run(state, seat, rng.choice(places or legal), now)
        now += rng.randrange(0, 1500)
    return state, now


@pytest.mark.parametrize("seed", range(40))
def test_hard_sends_only_legal_commands(seed: int) -> None:
    state, now = random_state(seed)
    for seat in sorted(MONDO.to_act(state)):
        command = hard.policy(MONDO.view(state, seat), seed, now)
        assert command in MONDO.legal(state, seat, now), (seed, seat, command)


def test_hard_gives_the_same_command_for_the_same_view_whatever_the_entropy() -> None:
    for seed in range(8):
        state, now = random_state(seed)
        view = MONDO.view(state, 0)
        assert len({str(hard.policy(view, e, now)) for e in (0, 1, 2**31)}) == 1


def holding(state: State, seat: int, tile: int) -> State:
    return run(state, seat, TakeTile(tile), T0)


def test_hard_closes_a_landscape_when_it_can() -> None:
    # A desert bay on the east side of space 7 (water elsewhere); in hand a tile with a desert
    # bay on one side: laid on space 8, bay to the west, it closes a desert of two tiles.
    state = placed(game(1), 0, 129, 7, T0, "variable", 180)
    assert ORIENTED[129][1][2].edges == (0, 2, 0, 0)
    state = holding(state, 0, 61)
    command = hard.policy(MONDO.view(state, 0), 0, T0 + 1)
    assert isinstance(command, PlaceTile) and command.space == 8
    after = run(state, 0, command, T0 + 1)
    assert MONDO.view(after, 0).seats[0].score_now.landscapes == 2


def nearly_full(state: State, seat: int) -> State:
    """The seat's board full of plain water but space 23, which a water tile closes."""
    laid = board({}, fill="w")
    return with_boards(state, {seat: tuple(None if s == 23 else p for s, p in enumerate(laid))})


def water_tile(view: MondoView) -> int:
    return next(
        d.shown.tile
        for d in view.display
        if d.shown.face == "plain" and d.shown.edges == ("water",) * 4
    )


def test_hard_takes_a_task_just_before_the_tile_that_fulfils_it() -> None:
    state = nearly_full(game(2, expert=True), 0)
    # the round's tasks as this test needs them (which the deal gives depends on the seed)
    state = replace(state, tasks=("error_free_board", "first_to_finish", *state.tasks[2:]))
    assert "error_free_board" not in state.tasks[2:] and "first_to_finish" not in state.tasks[2:]
    state = holding(state, 0, water_tile(MONDO.view(state, 0)))
    taken = []
    for _ in range(4):
        command = hard.policy(MONDO.view(state, 0), 0, T0 + 1)
        state = run(state, 0, command, T0 + 1)
        if not isinstance(command, TakeTask):
            break
        taken.append(command.task)
    assert sorted(taken) == ["error_free_board", "first_to_finish"]
    assert isinstance(command, PlaceTile) and state.seats[0].chip == 4
    score = MONDO.view(state, 0).seats[0].score_now
    assert [t.points for t in score.tasks] == [5, 3]


def test_hard_takes_no_task_its_board_is_not_about_to_fulfil() -> None:
    state = game(2, expert=True)
    now = T0
    while state.seats[0].placed < 8:
        command = hard.policy(MONDO.view(state, 0), 0, now)
        assert not isinstance(command, TakeTask)
        state = run(state, 0, command, now)
        now += 2_000


# -- the chip rule, every level --------------------------------------------------------------


def deadline_in(view: MondoView, ms: int) -> int:
    """The time at which `ms` are left before the view's round ends."""
    return view.deadline - ms


@pytest.mark.parametrize("level", LEVELS)
def test_an_empty_board_is_never_worth_a_chip_of_3(level: str) -> None:
    state = run(game(2), 1, TakeBonus(), T0)
    view = MONDO.view(state, 0)
    assert view.chips[0] == 3
    assert isinstance(ai.POLICIES[level](view, 0, T0 + 1), TakeTile)


@pytest.mark.parametrize("level", LEVELS)
def test_the_last_space_is_filled_when_the_clock_leaves_time_for_the_tile_alone(
    level: str,
) -> None:
    """Take it, lay it a pace later: the full board takes the top chip by itself."""
    view = MONDO.view(nearly_full(game(2), 0), 0)
    pace = round(ai.PACE[level] * 1000)
    now = deadline_in(view, pace + MARGIN_MS)
    assert isinstance(ai.POLICIES[level](view, 0, now), TakeTile)
    assert isinstance(ai.POLICIES[level](view, 0, now + 1), TakeBonus)


@pytest.mark.parametrize("level", LEVELS)
def test_a_last_chip_of_1_is_worth_less_than_a_tile_with_an_animal(level: str) -> None:
    state = game(4)
    for seat in (1, 2, 3):
        state = run(state, seat, TakeBonus(), T0)
    view = MONDO.view(state, 0)
    assert view.chips == (1,)
    animal = next(
        d
        for d in view.display
        if any(r.animal for r in d.shown.regions) and d.shown.volcano is None
    )
    view = replace(view, display=(animal,))
    pace = round(ai.PACE[level] * 1000)
    now = deadline_in(view, pace + MARGIN_MS)  # time for this tile, not for the chip after
    assert isinstance(ai.POLICIES[level](view, 0, now), TakeTile)


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_tile_that_gains_nothing_now_is_laid_while_time_is_plenty(level: str) -> None:
    """A forest in the corner; the only free tile is plain water: laid next to it, it fills a
    space and makes one error (0 points now), and the chip stays on offer."""
    state = with_boards(game(2), {0: board({0: (FOREST_PLAIN, "plain", 0)})})
    view = MONDO.view(state, 0)
    water = water_tile(view)
    display = tuple(d if d.shown.tile == water else replace(d, holder=1) for d in view.display)
    assert ai.POLICIES[level](replace(view, display=display), 0, T0 + 1) == TakeTile(water)


@pytest.mark.parametrize("level", LEVELS)
def test_with_no_time_for_a_tile_every_level_takes_the_chip(level: str) -> None:
    view = MONDO.view(game(2), 0)
    pace = round(ai.PACE[level] * 1000)
    assert isinstance(ai.POLICIES[level](view, 0, deadline_in(view, pace + MARGIN_MS)), TakeBonus)
