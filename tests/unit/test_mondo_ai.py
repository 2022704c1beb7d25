"""The AI: its incremental scoring agrees with scoring whole boards; its policies choose the best
tile and placing, leave in time, play only legal commands, and see nothing but their own view."""

from __future__ import annotations

import random

import pytest
from mondo_builders import T0, game, run
from msgspec.structs import replace

from domain.mondo import ai
from domain.mondo.board import BORDER, NEIGHBOURS, OPPOSITE, SPACES, border, open_spaces
from domain.mondo.faces import ORIENTED, Oriented
from domain.mondo.gain import MATCH, SHAPE, Frontier, face_extra
from domain.mondo.game import MONDO
from domain.mondo.leaving import MARGIN_MS
from domain.mondo.model import PlaceTile, State, TakeBonus, TakeTile
from domain.mondo.outlook import volcano_worth
from domain.mondo.scoring import Score, Seat, round_scores
from domain.mondo.survey import survey
from domain.mondo.table import laid


def random_board(seed: int, tiles: int, backside: bool) -> list[Oriented | None]:
    """A board of `tiles` random faces, each laid on a random open space."""
    rng = random.Random(seed)
    board: list[Oriented | None] = [None] * SPACES
    for tile in rng.sample(range(136), tiles):
        space = rng.choice(open_spaces([f is not None for f in board]))
        board[space] = ORIENTED[tile][rng.randrange(2)][rng.randrange(4)]
    return board


def board_points(board: list[Oriented | None], edges: tuple[int, int, int, int]) -> int:
    """The lines a placement changes on its own board: animals, landscapes, empty, errors."""
    (score,) = round_scores([Seat(survey(board, edges), 0)])
    return score.animals + score.landscapes + score.empty_spaces + score.closure_errors


def matched(
    board: list[Oriented | None], space: int, face: Oriented, edges: tuple[int, ...]
) -> int:
    count = 0
    for side in range(4):
        other = NEIGHBOURS[space][side]
        if other == BORDER:
            count += edges[side] == face.edges[side]
        elif board[other] is not None:
            count += board[other].edges[OPPOSITE[side]] == face.edges[side]  # type: ignore[union-attr]
    return count


@pytest.mark.parametrize("seed", range(12))
def test_the_incremental_gain_is_the_change_of_the_whole_boards_score(seed: int) -> None:
    rng = random.Random(seed)
    edges = border(seed % 2 == 1)
    board = random_board(seed, rng.choice([0, 1, 5, 12, 20, 23]), seed % 2 == 1)
    before = board_points(board, edges)
    frontier = Frontier(board, edges)
    no_volcano = (0.0, 0.0, 0.0)
    for at, space in enumerate(frontier.spaces):
        for tile in rng.sample(range(136), 25):
            face_number, quarters = rng.randrange(2), rng.randrange(4)
            face = ORIENTED[tile][face_number][quarters]
            gain = frontier.change(at, SHAPE[tile][face_number][quarters])
            gain += 1 + face_extra(face, no_volcano)
            after = [*board[:space], face, *board[space + 1 :]]
            expected = (
                board_points(after, edges) - before + MATCH * matched(board, space, face, edges)
            )
            assert gain == pytest.approx(expected), (space, tile, face_number, quarters)


def test_a_volcano_costs_what_the_majority_rule_says() -> None:
    state = game(2)
    worth = volcano_worth(MONDO.view(state, 0), 0)
    assert worth == (0.0, -1.0, 0.0)  # one active volcano makes the (tied) most: -1
    volcano = next(t for t in range(136) if ORIENTED[t][1][0].volcano == 1)
    other = run(run(state, 1, TakeTile(volcano), T0), 1, PlaceTile(volcano, 0, "variable", 0), T0)
    assert volcano_worth(MONDO.view(other, 0), 0) == (0.0, -1.0, 0.0)  # 1 against 1: -1
    assert volcano_worth(MONDO.view(other, 1), 1) == (0.0, -1.0, 0.0)  # -2 instead of -1


def best_by_full_scoring(
    state: State, seat: int, tiles: list[tuple[int, tuple[int, ...]]]
) -> float:
    """The best gain over tiles, faces, turns and spaces, by rescoring the whole table."""
    board = list(laid(state.seats[seat].board))
    edges = border(state.backside)
    before = round_scores([Seat(survey(board, edges), 0)])[0]
    best = -99.0
    for space in open_spaces([f is not None for f in board]):
        for tile, faces in tiles:
            for face_number in faces:
                for quarters in range(4):
                    face = ORIENTED[tile][face_number][quarters]
                    after = [*board[:space], face, *board[space + 1 :]]
                    score: Score = round_scores([Seat(survey(after, edges), 0)])[0]
                    gain = score.total - before.total + MATCH * matched(board, space, face, edges)
                    best = max(best, gain)
    return best


def solo_after(seed: int, placements: int) -> State:
    """A solo game after the `normal` AI has laid some tiles."""
    state = game(1)
    now = T0
    while state.seats[0].placed < placements:
        command = ai.POLICIES["normal"](MONDO.view(state, 0), seed, now)
        state = run(state, 0, command, now)
        now += 3_000
    return state


@pytest.mark.parametrize("placements", [0, 4, 11])
def test_normal_takes_the_display_tile_that_gains_the_most(placements: int) -> None:
    state = solo_after(placements, placements)
    view = MONDO.view(state, 0)
    command = ai.POLICIES["normal"](view, 0, T0)
    assert isinstance(command, TakeTile)
    shown = {d.shown.tile: (0 if d.shown.face == "plain" else 1,) for d in view.display}
    sample = [*sorted(shown)[::9], command.tile]
    chosen = best_by_full_scoring(state, 0, [(command.tile, shown[command.tile])])
    others = best_by_full_scoring(state, 0, [(t, shown[t]) for t in sample])
    assert chosen == pytest.approx(others)


def test_normal_lays_the_tile_it_holds_the_best_way() -> None:
    state = solo_after(1, 6)
    state = run(state, 0, ai.POLICIES["normal"](MONDO.view(state, 0), 0, T0), T0)
    held = state.seats[0].held
    assert held is not None
    command = ai.POLICIES["normal"](MONDO.view(state, 0), 0, T0)
    assert isinstance(command, PlaceTile) and command.tile == held
    after = run(state, 0, command, T0)
    board = list(laid(state.seats[0].board))
    face = laid(after.seats[0].board)[command.space]
    edges = border(False)
    gain = (
        round_scores([Seat(survey(list(laid(after.seats[0].board)), edges), 0)])[0].total
        - round_scores([Seat(survey(board, edges), 0)])[0].total
        + MATCH * matched(board, command.space, face, edges)  # type: ignore[arg-type]
    )
    assert gain == pytest.approx(best_by_full_scoring(state, 0, [(held, (0, 1))]))


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_with_too_little_time_left_an_ai_takes_the_chip(level: str) -> None:
    state = game(1)
    pace = round(ai.PACE[level] * 1000)
    view = MONDO.view(state, 0)
    late = state.deadline - 2 * pace - MARGIN_MS
    assert isinstance(ai.POLICIES[level](view, 0, late), TakeTile)
    assert isinstance(ai.POLICIES[level](view, 0, late + 1), TakeBonus)


def test_with_no_tile_worth_taking_an_ai_takes_the_chip() -> None:
    view = MONDO.view(game(2), 0)
    assert isinstance(ai.POLICIES["normal"](view, 0, T0), TakeTile)
    taken = tuple(replace(d, holder=1) for d in view.display)  # every tile in another's hand
    assert isinstance(ai.POLICIES["normal"](replace(view, display=taken), 0, T0), TakeBonus)


@pytest.mark.parametrize(("level", "seconds"), [("easy", 6.0), ("normal", 3.0), ("hard", 2.0)])
def test_the_pace_of_each_level(level: str, seconds: float) -> None:
    assert MONDO.ai_delay(game(), 0, level) == seconds


def test_one_seats_move_leaves_the_others_ai_key_alone() -> None:
    state = game(2)
    before = [MONDO.ai_key(state, s, 2) for s in (0, 1)]
    state = run(state, 0, TakeTile(3), T0)
    after = [MONDO.ai_key(state, s, 3) for s in (0, 1)]
    assert after[0] != before[0] and after[1] == before[1]


@pytest.mark.parametrize(
    ("seats", "level"), [(1, "normal"), (2, "easy"), (4, "normal"), (3, "easy"), (2, "hard")]
)
def test_ai_games_play_only_legal_commands_and_end_on_time(seats: int, level: str) -> None:
    """AI seats act at their pace on a simulated clock; the timers fire when due. (A seat may
    stay to the clock without a chip: when its last tile is worth more than the chip.)"""
    state = game(seats, round_seconds=40, break_seconds=5)
    pace = round(ai.PACE[level] * 1000)
    due = dict.fromkeys(range(seats), T0 + pace)
    now = T0
    while not MONDO.is_over(state):
        timer = min(MONDO.timers(state), key=lambda t: t.due)
        waiting = [(due[s], s) for s in MONDO.to_act(state)]
        if not waiting or min(waiting)[0] > timer.due:
            now = max(now, timer.due)
            state = run(state, None, timer.command, now)
            due = dict.fromkeys(range(seats), now + pace)
            continue
        now, seat = min(waiting)
        command = ai.POLICIES[level](MONDO.view(state, seat), seat * 7 + now, now)
        assert command in MONDO.legal(state, seat, now)
        state = run(state, seat, command, now)
        due[seat] = now + pace
    assert len(state.results) == 3
