"""Rounds against the clock: deadlines judged from the command's time, the timers, the break,
the bonus chips, the full board, the game's end, the tasks, and logs checked with their times."""

from __future__ import annotations

import pytest
from mondo_builders import T0, board, emptied, game, placed, refusal, run, with_boards
from msgspec.structs import replace

from domain.errors import TurnError
from domain.game import Record, Setup
from domain.mondo.game import MONDO
from domain.mondo.model import (
    BonusTaken,
    Command,
    EndRound,
    Event,
    LiftPlaced,
    PlaceTile,
    RoundEnded,
    RoundStarted,
    StartRound,
    State,
    TakeBonus,
    TakeTask,
    TakeTile,
    TaskTaken,
    TurnPlaced,
)
from domain.mondo.table import display, scores_now
from domain.mondo.tasks import TASKS
from domain.verify import LogError, verify

ROUND = 30_000  # ms: the quick rounds of these tests
BREAK = 5_000


def quick(seats: int = 2, **options: object) -> State:
    return game(seats, round_seconds=30, break_seconds=5, **options)


# -- the clock -------------------------------------------------------------------------------


def test_the_round_clock_is_a_timer_that_ends_the_round() -> None:
    state = quick()
    (timer,) = MONDO.timers(state)
    assert (timer.key, timer.due, timer.command) == ("round-1", T0 + ROUND, EndRound(1))


def test_a_command_stamped_after_the_deadline_is_refused_before_the_timer_fires() -> None:
    state = quick()
    assert MONDO.decide(state, 0, TakeTile(1), T0 + ROUND)
    assert refusal(state, 0, TakeTile(1), T0 + ROUND + 1) == "round_over"
    assert refusal(state, 0, TakeBonus(), T0 + ROUND + 1) == "round_over"
    assert MONDO.legal(state, 0, T0 + ROUND + 1) == []
    assert MONDO.legal(state, 0, T0 + ROUND)


def test_only_the_system_ends_a_round_once_its_time_is_up() -> None:
    state = quick()
    with pytest.raises(TurnError):
        MONDO.decide(state, 0, EndRound(1), T0 + ROUND)
    assert refusal(state, None, EndRound(1), T0 + ROUND - 1) == "round_running"
    assert MONDO.decide(state, None, EndRound(2), T0 + ROUND) == []


def test_the_round_ends_held_tiles_go_back_and_the_break_begins() -> None:
    state = run(placed(quick(), 0, 5, 14, T0), 1, TakeTile(9), T0 + 10)
    events = MONDO.decide(state, None, EndRound(1), T0 + ROUND + 700)
    (ended,) = events
    assert isinstance(ended, RoundEnded) and ended.timed_out and ended.at == T0 + ROUND + 700
    assert len(ended.scores) == 2 and ended.scores[0].empty_spaces == -23
    after = MONDO.fold(state, events)
    assert after.seats[1].held is None and 9 in display(after)
    assert after.seats[0].board[14] is not None  # boards stay on show during the break
    assert MONDO.to_act(after) == frozenset()
    assert MONDO.decide(after, None, EndRound(1), T0 + ROUND + 800) == []  # fired twice
    (timer,) = MONDO.timers(after)
    assert (timer.key, timer.due, timer.command) == (
        "break-1",
        T0 + ROUND + 700 + BREAK,
        StartRound(2),
    )
    assert refusal(after, 0, TakeTile(1), T0 + ROUND + 800) == "round_over"


def test_the_next_round_starts_after_the_break_with_new_faces() -> None:
    state = MONDO.fold(quick(), MONDO.decide(quick(), None, EndRound(1), T0 + ROUND))
    assert refusal(state, None, StartRound(2), T0 + ROUND + BREAK - 1) == "round_running"
    (started,) = MONDO.decide(state, None, StartRound(2), T0 + ROUND + BREAK + 3)
    assert isinstance(started, RoundStarted) and started.round == 2
    assert started.deadline == T0 + ROUND + BREAK + 3 + ROUND
    after = MONDO.evolve(state, started)
    assert frozenset(started.variable) != quick().variable
    assert all(p.placed == 0 and p.chip is None for p in after.seats)
    assert after.chips == (4, 3) and MONDO.to_act(after) == {0, 1}
    assert MONDO.decide(after, None, StartRound(2), T0 + ROUND + BREAK + 4) == []


def test_without_a_break_the_next_round_starts_at_once() -> None:
    state = game(1, round_seconds=30, break_seconds=0)
    ended, started = MONDO.decide(state, None, EndRound(1), T0 + ROUND)
    assert isinstance(ended, RoundEnded) and isinstance(started, RoundStarted)
    assert started.deadline == T0 + 2 * ROUND


def test_three_rounds_then_the_game_ends_with_the_totals() -> None:
    state = game(1, round_seconds=30, break_seconds=0)
    now = T0
    for _ in range(2):
        now += ROUND
        state = MONDO.fold(state, MONDO.decide(state, None, EndRound(state.round), now))
    assert state.round == 3
    state = run(state, 0, TakeBonus(), now + 1)  # the last player leaves: the round ends
    assert state.over and MONDO.timers(state) == []
    assert MONDO.scores(state) == (-24 - 24 + 4 - 24,)
    assert refusal(state, 0, TakeTile(1), now + 2) == "game_over"
    assert MONDO.decide(state, None, EndRound(3), now + ROUND) == []


# -- bonus chips -----------------------------------------------------------------------------


def test_chips_go_top_first_and_the_last_to_leave_ends_the_round() -> None:
    state = quick(3)
    for seat, chip in ((2, 4), (0, 3)):
        (taken,) = MONDO.decide(state, seat, TakeBonus(), T0 + 100)
        assert taken == BonusTaken(seat, chip, full_board=False)
        state = MONDO.evolve(state, taken)
    taken, ended = MONDO.decide(state, 1, TakeBonus(), T0 + 200)
    assert taken == BonusTaken(1, 2, full_board=False)
    assert isinstance(ended, RoundEnded) and not ended.timed_out
    assert [s.bonus for s in ended.scores] == [3, 2, 4]


def test_a_full_board_takes_the_top_chip_at_once() -> None:
    state = with_boards(game(2), {1: emptied(board({}, fill="w"), 23)})
    last = display(state)[0]
    state = run(state, 1, TakeTile(last), T0 + 5)
    placed_event, chip = MONDO.decide(state, 1, PlaceTile(last, 23, "plain", 0), T0 + 6)
    assert chip == BonusTaken(1, 4, full_board=True)
    after = MONDO.fold(state, [placed_event, chip])
    assert after.seats[1].grace is None and after.seats[1].chip == 4  # no grace for it
    assert refusal(after, 1, LiftPlaced(), T0 + 7) == "left_round"


# -- tasks (expert) --------------------------------------------------------------------------


def test_taking_tasks() -> None:
    state = game(2, expert=True)
    task, other, third = state.tasks[:3]
    assert refusal(state, 0, TakeTask(task)) == "task_not_yet"
    for tile, space in ((1, 0), (2, 1), (3, 2)):
        state = placed(state, 0, tile, space, T0)
    (taken,) = MONDO.decide(state, 0, TakeTask(task), T0 + 1)
    assert taken == TaskTaken(0, task)
    state = MONDO.evolve(state, taken)
    assert refusal(state, 0, TakeTask(task)) == "task_taken"
    state = run(state, 0, TakeTask(other), T0 + 2)
    assert refusal(state, 0, TakeTask(third)) == "two_tasks"
    unshown = next(t for t in TASKS if t not in state.tasks)
    assert refusal(state, 0, TakeTask(unshown)) == "no_such_task"


def test_tasks_only_in_the_expert_game() -> None:
    assert refusal(game(2), 0, TakeTask("finished_in_time")) == "no_such_task"


#: A closed steppe holding three buffalos: tile 132's steppe (north, south, west) meets the steppe
#: of tile 36 (north of it), of tile 97 (west) and of tile 53 (south); the rest is sea, and the
#: last space is empty (the player is still in the round).
BUFFALOS = emptied(
    board(
        {
            8: (132, "variable", 0),
            2: (36, "variable", 90),
            7: (97, "variable", 270),
            14: (53, "variable", 270),
        },
        fill="w",
    ),
    23,
)


def test_a_task_the_board_fulfils_already_is_refused() -> None:
    state = replace(game(2, expert=True), tasks=("three_buffalo", "three_elephant"))
    state = with_boards(state, {0: BUFFALOS, 1: BUFFALOS})
    assert refusal(state, 0, TakeTask("three_buffalo")) == "task_fulfilled"
    assert MONDO.decide(state, 0, TakeTask("three_elephant"), T0)
    ended = MONDO.decide(state, None, EndRound(1), state.deadline)[0]
    assert isinstance(ended, RoundEnded) and ended.scores[0].animals == 3


# -- the previous round's leaders ------------------------------------------------------------


def test_from_round_two_the_last_rounds_leaders_count_their_inactive_volcanoes() -> None:
    state = quick(2)
    state = run(state, 0, TakeBonus(), T0 + 1)  # seat 0 leads round 1: -24 + 4 against -24
    state = MONDO.fold(state, MONDO.decide(state, None, EndRound(1), T0 + ROUND))
    state = MONDO.fold(state, MONDO.decide(state, None, StartRound(2), T0 + ROUND + BREAK))
    inactive = (122, 109)  # two tiles with an inactive volcano
    for seat, tile in enumerate(inactive):
        state = placed(state, seat, tile, 0, T0 + ROUND + BREAK, face="variable")
    leader, other = scores_now(state)
    assert (leader.volcano_count, other.volcano_count) == (1, 0)
    assert (leader.volcanoes, other.volcanoes) == (-1, 0)
    ended = MONDO.decide(state, None, EndRound(2), state.deadline)[0]
    assert isinstance(ended, RoundEnded) and ended.scores == (leader, other)


# -- a log checks with its times -------------------------------------------------------------


def played(turn_at: int) -> tuple[Setup, list[Record[Event]]]:
    setup = Setup(seed=7, players=("P0", "P1"), options={"round_seconds": 30})
    records = [Record(T0, None, e) for e in MONDO.start(setup, T0)]
    state = MONDO.replay(r.event for r in records)
    steps: list[tuple[int, Command, int]] = [
        (0, TakeTile(5), T0 + 100),
        (0, PlaceTile(5, 14, "plain", 0), T0 + 200),
        (0, TurnPlaced(90), turn_at),
        (1, TakeBonus(), T0 + 6_000),
    ]
    for seat, command, at in steps:
        events = MONDO.decide(state, seat, command, at)
        records += [Record(at, seat, e) for e in events]
        state = MONDO.fold(state, events)
    return setup, records


def test_a_log_checks_with_its_times() -> None:
    setup, records = played(T0 + 5_200)
    assert verify(MONDO, setup, records) == MONDO.replay(r.event for r in records)


def test_a_turn_recorded_after_the_grace_does_not_check() -> None:
    setup, records = played(T0 + 5_200)
    records[4] = replace(records[4], at=T0 + 5_201)
    with pytest.raises(LogError) as refused:
        verify(MONDO, setup, records)
    assert refused.value.position == 5
