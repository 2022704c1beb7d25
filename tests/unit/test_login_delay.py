"""Failed logins to one name from anywhere slow every login to it, never refuse it: the wait
starts past the limit, doubles with each failure and stops growing at its most."""

from __future__ import annotations

from app.api.guard import FIRST_DELAY, login_delay


def test_the_first_failures_cost_nothing_then_the_wait_doubles_up_to_its_most() -> None:
    waits = [login_delay(failed, 10, 8.0) for failed in range(18)]
    assert waits[:10] == [0.0] * 10
    assert waits[10:15] == [FIRST_DELAY, 1.0, 2.0, 4.0, 8.0]
    assert set(waits[14:]) == {8.0}
    assert login_delay(10**6, 10, 8.0) == 8.0  # no overflow however many


def test_no_limit_or_no_most_is_no_wait() -> None:
    assert login_delay(50, 0, 8.0) == 0.0
    assert login_delay(50, 10, 0.0) == 0.0
