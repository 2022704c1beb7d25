"""An open table's states and moves (`app.people.forming`), without Redis: each refusal, each
move, the start left midway, and the lobby's one promise (a table it lists takes a join)."""

from __future__ import annotations

from collections.abc import Callable

import msgspec
import pytest

from app.commands.errors import ServiceError
from app.people import forming
from app.people.forming import STUCK_MS, Plan, SeatPlan, Stored
from app.people.table_errors import NotFull

T0 = 1_800_000_000_000
CLOSES = T0 + 60_000


def table(*seats: SeatPlan, start_when_full: bool = False, min_seats: int = 2) -> Stored:
    plan = Plan(
        "crazymino", "Crazymino", "ann", "Ann", list(seats), {}, None, False,
        start_when_full, T0, CLOSES, min_seats,
    )  # fmt: skip
    return forming.opened("t1", plan, {0: ("ann", "Ann")})


OPEN, AI = SeatPlan("open"), SeatPlan("ai", level="easy")
KEPT = SeatPlan("player", reserved="cy", reserved_name="Cy")


def code(move: Callable[[], object]) -> str:
    with pytest.raises(ServiceError) as caught:
        move()
    return caught.value.code


def test_a_join_takes_the_asked_seat_the_kept_one_or_the_first_open_one() -> None:
    forming_table = table(OPEN, KEPT, OPEN, OPEN)
    after, seat = forming.join(forming_table, "bob", "Bob", None, T0)
    assert seat == 2 and after.sitter(2) == ("bob", "Bob") and forming_table.sitter(2) is None
    assert forming.join(forming_table, "bob", "Bob", 3, T0)[1] == 3
    assert forming.join(forming_table, "cy", "Cy", None, T0)[1] == 1
    assert not after.full() and forming.join(after, "dee", "Dee", None, T0)[0].full() is False


def test_each_refusal_of_a_join() -> None:
    start = table(OPEN, KEPT, AI)
    assert code(lambda: forming.join(start, "ann", "Ann", None, T0)) == "already_seated"
    assert code(lambda: forming.join(start, "bob", "Bob", 0, T0)) == "seat_taken"
    assert code(lambda: forming.join(start, "bob", "Bob", 2, T0)) == "seat_taken"
    assert code(lambda: forming.join(start, "bob", "Bob", 1, T0)) == "seat_reserved"
    assert code(lambda: forming.join(start, "bob", "Bob", 3, T0)) == "no_such_seat"
    assert code(lambda: forming.join(start, "bob", "Bob", None, T0)) == "table_full"
    assert code(lambda: forming.join(start, "cy", "Cy", 0, T0)) == "already_seated"
    assert code(lambda: forming.join(start, "cy", "Cy", None, CLOSES)) == "table_closed"
    declined = forming.decline(start, "cy", T0)
    assert declined.declined(1) and declined.full()
    assert code(lambda: forming.join(declined, "cy", "Cy", 1, T0)) == "seat_taken"


def test_leaving_and_declining() -> None:
    start, _ = forming.join(table(OPEN, KEPT, OPEN), "bob", "Bob", None, T0)
    left, seat = forming.leave(start, "bob", T0)
    assert seat == 2 and left.sitter(2) is None
    assert code(lambda: forming.leave(left, "bob", T0)) == "not_at_table"
    closed, seat = forming.leave(start, "ann", T0)  # its creator leaves
    assert seat is None and closed.status(T0) == "closed"
    assert code(lambda: forming.decline(start, "bob", T0)) == "not_reserved"
    assert forming.decline(start, "cy", T0).players() == {"ann", "bob"}


def test_a_start_freezes_the_seats_and_a_finish_names_the_game() -> None:
    start = table(OPEN, AI, OPEN)
    assert code(lambda: forming.freeze(start, "bob", T0)) == "not_creator"
    assert code(lambda: forming.freeze(start, "ann", CLOSES)) == "table_closed"
    with pytest.raises(NotFull):  # the table itself starts only when full, if it asked to
        forming.freeze(start, None, T0)
    frozen = forming.freeze(start, "ann", T0)
    assert frozen.status(T0) == "starting" and forming.freeze(frozen, "ann", T0) is frozen
    assert code(lambda: forming.join(frozen, "bob", "Bob", None, T0)) == "table_started"
    assert code(lambda: forming.leave(frozen, "ann", T0)) == "table_started"
    started = forming.finish(frozen, "t1", T0 + 5)
    assert started.status(T0) == "started" and started.fields["game_id"] == "t1"
    assert forming.finish(started, "t1", T0 + 9) is started  # finished twice: the same
    assert forming.freeze(started, "bob", T0) is started  # asked again: its game
    with pytest.raises(forming.NotStarting):
        forming.finish(start, "t1", T0)
    assert forming.thaw(frozen).status(T0) == "forming" and forming.thaw(start) is start


def test_too_few_players_and_a_table_that_starts_when_full() -> None:
    lonely = table(OPEN, OPEN)
    assert code(lambda: forming.freeze(lonely, "ann", T0)) == "too_few_players"
    full, _ = forming.join(table(OPEN, OPEN, start_when_full=True), "bob", "Bob", None, T0)
    assert forming.freeze(full, None, T0).status(T0) == "starting"


def test_a_start_left_midway_is_stuck_only_after_a_while() -> None:
    frozen = forming.freeze(table(OPEN, AI), "ann", T0)
    assert not frozen.stuck(T0 + STUCK_MS - 1) and frozen.stuck(T0 + STUCK_MS)
    assert not table(OPEN, AI).stuck(T0 + STUCK_MS)


def test_the_lobby_lists_a_table_exactly_when_a_join_may_sit_there() -> None:
    start = table(OPEN, AI, OPEN)
    frozen = forming.freeze(start, "ann", T0)
    tables = {
        "forming": start,
        "starting": frozen,
        "stuck": frozen,
        "started": forming.finish(frozen, "t1", T0),
        "closed": forming.leave(start, "ann", T0)[0],
    }
    for now in (T0, T0 + STUCK_MS, CLOSES - 1, CLOSES):
        for name, each in tables.items():
            listed = each.view(now).status == "forming"
            try:
                forming.join(each, "bob", "Bob", None, now)
                joined = True
            except ServiceError as refused:
                assert refused.code in ("table_started", "table_closed"), name
                joined = False
            assert listed == joined, (name, now)


def test_a_version_goes_with_the_table_and_a_moved_table_keeps_its_plan() -> None:
    start = table(OPEN, OPEN)
    assert start.version == 1
    after, _ = forming.join(start, "bob", "Bob", None, T0)
    assert after.plan is start.plan and after.version == start.version  # the write adds one


def test_a_seed_or_an_ai_makes_a_table_casual() -> None:
    assert table(OPEN, AI).plan.casual and not table(OPEN, OPEN).plan.casual
    assert msgspec.structs.replace(table(OPEN, OPEN).plan, seed=7).casual
