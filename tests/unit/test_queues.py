"""Work queues: a game keeps to one queue, each queue's keys share one slot, queues spread over
the slots; the settings that choose them; JSON log lines."""

from __future__ import annotations

import json
import logging

import pytest
from redis.crc import key_slot

from app.base.config import Settings
from app.logs import JsonLines
from app.machine.queues import QueueSet


def test_a_game_keeps_to_one_queue() -> None:
    queues = QueueSet(4)
    assert [queues.of("abc123") for _ in range(3)] == [queues.of("abc123")] * 3
    assert {queues.of(f"game{n}") for n in range(200)} == {0, 1, 2, 3}


@pytest.mark.parametrize("count", [1, 3, 4, 6])
def test_every_key_of_a_queue_is_in_one_slot_and_queues_spread(count: int) -> None:
    queues = QueueSet(count)
    slots = []
    for n in range(count):
        job = queues.job_id(n, "ai:g:0:1")
        keys = [queues.name(n), queues.due_key(n), queues.lock_key(n, "swept")]
        keys += [f"arq:job:{job}", f"arq:in-progress:{job}", f"arq:result:{job}"]
        keys += [f"arq:retry:{job}", queues.name(n) + ":abort", queues.name(n) + ":health-check"]
        assert len({key_slot(k.encode()) for k in keys}) == 1
        slots.append(key_slot(queues.name(n).encode()))
        assert n * 16384 // count <= slots[-1] < (n + 1) * 16384 // count


def test_cluster_and_queue_settings() -> None:
    assert Settings.from_env({"REDIS_URL": "redis+cluster://h:7000"}).cluster
    assert Settings.from_env({"REDIS_URL": "redis://h:7000", "REDIS_CLUSTER": "1"}).cluster
    assert not Settings.from_env({"REDIS_URL": "redis://h:7000"}).cluster
    assert Settings.from_env({"QUEUES": "4"}).served_queues == [0, 1, 2, 3]
    assert Settings.from_env({"QUEUES": "4", "WORKER_QUEUES": "2,0"}).served_queues == [0, 2]
    with pytest.raises(ValueError):
        _ = Settings.from_env({"QUEUES": "2", "WORKER_QUEUES": "2"}).served_queues


def test_json_logs_are_one_object_a_line() -> None:
    record = logging.LogRecord("app", logging.WARNING, "x", 1, "lost %s", ("Redis",), None)
    line = JsonLines().format(record)
    assert "\n" not in line
    assert json.loads(line) | {"time": ""} == {
        "time": "",
        "level": "warning",
        "logger": "app",
        "message": "lost Redis",
    }
