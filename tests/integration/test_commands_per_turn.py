"""Redis commands per AI turn, as Redis counts them (INFO commandstats, the scripts' own
commands included), over games of AIs alone played by 1 and by 2 worker processes: at most 12,
queues included (`bench/service/ai_turns.py` measures the same on more games)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.service.ai_turns import measure
from tests.processes import RedisServer

BUDGET = 12


@pytest.mark.parametrize("workers", [1, 2])
def test_an_ai_turn_costs_at_most_twelve_redis_commands(workers: int, tmp_path: Path) -> None:
    server = RedisServer(tmp_path, appendonly=False).start()  # its statistics are ours alone
    try:
        run = measure(server.url, 40, workers, 4, tmp_path / "workers.log", timeout=180)
    finally:
        server.close()
    assert run.turns > 40 * 10, run  # the games were played to their end by AIs
    assert run.per_turn <= BUDGET, (run.per_turn, run.commands.most_common())
