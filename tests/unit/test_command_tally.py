"""The commands' counts and timings (`app.base.metrics.CommandTally`) as Prometheus reads them."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, generate_latest

from app.base.metrics import CommandTally


def tally_registry() -> tuple[CommandTally, CollectorRegistry]:
    registry = CollectorRegistry()
    tally = CommandTally()
    registry.register(tally)
    return tally, registry


def test_commands_are_counted_by_game_and_outcome() -> None:
    tally, registry = tally_registry()
    tally.count("bazaar", "applied")
    tally.count("bazaar", "applied")
    tally.count("mondo", "refused")

    def counted(game: str, outcome: str) -> float | None:
        labels = {"game": game, "outcome": outcome}
        return registry.get_sample_value("boardgames_commands_total", labels)

    assert counted("bazaar", "applied") == 2
    assert counted("mondo", "refused") == 1
    assert counted("bazaar", "refused") is None


def test_a_timing_falls_in_every_bucket_at_or_above_it() -> None:
    tally, registry = tally_registry()
    for seconds in (0.0005, 0.001, 0.003, 7.0):  # below the first bound, on it, between, past all
        tally.time("crazymino", seconds)

    def bucket(le: str) -> float | None:
        labels = {"game": "crazymino", "le": le}
        return registry.get_sample_value("boardgames_command_seconds_bucket", labels)

    assert bucket("0.001") == 2  # a timing on a bound counts in that bound's bucket
    assert bucket("0.002") == 2
    assert bucket("0.005") == 3
    assert bucket("2.5") == 3
    assert bucket("+Inf") == 4
    labels = {"game": "crazymino"}
    assert registry.get_sample_value("boardgames_command_seconds_count", labels) == 4
    total = registry.get_sample_value("boardgames_command_seconds_sum", labels)
    assert total is not None and abs(total - 7.0045) < 1e-9
    text = generate_latest(registry).decode()
    assert "# TYPE boardgames_command_seconds histogram" in text
    assert "# TYPE boardgames_commands_total counter" in text
