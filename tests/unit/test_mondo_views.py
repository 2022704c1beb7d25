"""What a viewer sees: the whole table (held tiles too), each board's score if the round ended
now, the clock, and what a client needs to draw and play without working out a rule."""

from __future__ import annotations

import msgspec
from mondo_builders import T0, game, placed, run
from msgspec.structs import replace

from domain.game import Setup
from domain.mondo.board import open_spaces
from domain.mondo.game import MONDO
from domain.mondo.model import (
    EndRound,
    GameStarted,
    PlaceTile,
    RoundEnded,
    State,
    TakeBonus,
    TakeTask,
    TakeTile,
)
from domain.mondo.table import scores_now
from domain.mondo.views import FaceView, MondoView, RegionView


def midgame() -> State:
    """Seat 0 has a closed desert and a task, seat 1 holds tile 40, seat 2 has left the round."""
    state = game(3, expert=True, round_seconds=60)
    for tile, space, rotation in ((61, 7, 0), (77, 8, 90), (3, 9, 0)):
        state = placed(state, 0, tile, space, T0, "variable", rotation)
    state = run(state, 0, TakeTask(state.tasks[0]), T0 + 1)
    state = run(state, 1, TakeTile(40), T0 + 2)
    state = placed(state, 2, 5, 0, T0 + 3)
    return run(state, 2, TakeBonus(), T0 + 4)


def test_everyone_sees_the_same_table_but_its_own_open_spaces() -> None:
    state = midgame()
    views = [MONDO.view(state, v) for v in (None, 0, 1, 2)]
    assert len({msgspec.json.encode(replace(v, viewer=None, spaces=())) for v in views}) == 1
    assert [v.spaces for v in views] == [(), (), tuple(range(24)), ()]  # only seat 1 holds a tile


def test_the_display_shows_each_free_or_held_tile_with_its_face_and_holder() -> None:
    state = midgame()
    shown = MONDO.view(state, None)
    on_boards = {61, 77, 3, 5}
    assert {d.shown.tile for d in shown.display} == set(range(136)) - on_boards
    for tile in shown.display:
        assert tile.shown.face == ("variable" if tile.shown.tile in state.variable else "plain")
        assert tile.shown.rotation == 0
        assert tile.holder == (1 if tile.shown.tile == 40 else None)


def test_each_board_shows_its_tiles_turned_and_each_held_tile_both_faces() -> None:
    state = game(2)
    state = run(run(state, 0, TakeTile(10), T0), 0, PlaceTile(10, 7, "variable", 90), T0)
    state = run(state, 1, TakeTile(4), T0)
    me, other = MONDO.view(state, 0).seats
    (laid,) = me.board
    assert (laid.space, laid.row, laid.col) == (7, 1, 1)
    assert laid.face == FaceView(
        tile=10,
        face="variable",
        rotation=90,
        edges=("desert", "forest", "desert", "forest"),  # tile 10 (N forest) turned a quarter
        regions=(
            RegionView("forest", ("east", "west")),
            RegionView("desert", ("south",), "gecko"),
            RegionView("desert", ("north",)),
        ),
    )
    assert me.grace is not None and (me.grace.tile, me.grace.until) == (10, T0 + 5_000)
    assert other.held is not None and other.held.tile == 4
    assert (other.held.plain.face, other.held.variable.face) == ("plain", "variable")
    assert other.held.plain.edges == (other.held.plain.edges[0],) * 4


def test_the_spaces_where_the_held_tile_may_go() -> None:
    state = placed(game(1), 0, 5, 14, T0)
    state = run(state, 0, TakeTile(6), T0)
    view = MONDO.view(state, 0)
    assert view.spaces == (8, 13, 15, 20) == tuple(open_spaces([s == 14 for s in range(24)]))


def test_the_view_carries_the_clock_chips_tasks_and_every_seats_score_now() -> None:
    state = midgame()
    view = MONDO.view(state, 0)
    assert (view.round, view.rounds, view.running) == (1, 3, True)
    assert view.deadline == T0 + 60_000 and view.next_round_at is None
    assert view.chips == (3, 2) and view.seats[2].chip == 4
    assert view.special is None  # expert alone: tasks, no special scoring
    assert [(t.task, t.taken_by) for t in view.tasks[:1]] == [(state.tasks[0], 0)]
    assert all(t.taken_by is None for t in view.tasks[1:])
    assert tuple(s.score_now for s in view.seats) == scores_now(state)
    assert view.seats[0].score_now.landscapes == 2  # the desert of tiles 61 and 77
    assert view.board_side == "standard" and view.border == ("water",) * 4


def test_the_score_now_is_what_the_round_would_record_if_it_ended_now() -> None:
    state = midgame()
    ended = MONDO.decide(state, None, EndRound(1), T0 + 60_000)[0]
    assert isinstance(ended, RoundEnded)
    assert ended.scores == tuple(s.score_now for s in MONDO.view(state, 1).seats)


def test_during_the_break_the_boards_stay_and_the_last_rounds_scores_show() -> None:
    state = midgame()
    after = MONDO.fold(state, MONDO.decide(state, None, EndRound(1), T0 + 60_000))
    view = MONDO.view(after, None)
    assert not view.running and view.next_round_at == T0 + 60_000 + 10_000
    assert view.last_round == after.results[0] and len(view.seats[0].board) == 3
    assert [s.total for s in view.seats] == [s.total for s in after.results[0]]


def test_the_back_side_border() -> None:
    view = MONDO.view(game(1, backside=True), 0)
    assert view.board_side == "back" and view.border == ("forest", "desert", "steppe", "water")


def test_only_the_seed_is_hidden() -> None:
    started = MONDO.start(Setup(seed=99, players=("a", "b")), T0)[0]
    assert isinstance(started, GameStarted) and started.seed == 99
    for viewer in (None, 0, 1):
        assert MONDO.redact(started, viewer) == replace(started, seed=None)
    event = MONDO.decide(game(), 0, TakeTile(3), T0)[0]
    assert MONDO.redact(event, 1) == event
    assert "seed" not in msgspec.json.decode(msgspec.json.encode(MONDO.view(game(), 0)))


def test_the_view_has_a_json_schema() -> None:
    schema = msgspec.json.schema(MondoView)
    assert "MondoView" in schema["$defs"] and "FaceView" in schema["$defs"]
