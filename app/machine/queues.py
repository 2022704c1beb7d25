"""The work queues: K queues of machine work, a game keeps to one by a stable hash of its id.

Every key of queue `i` carries its hash tag `{qi.n}`, so the whole queue lives on one slot of
a Redis Cluster (arq's WATCH/MULTI stay within it): the queue ``arq:queue:{tag}``, its jobs
(job ids start with the tag: ``arq:job:{tag}ai:...``, ``arq:in-progress:{tag}...``,
``arq:result:{tag}...``) and the index of its games waiting for work ``machine:{tag}:due``. The
tags are chosen so that queue `i` of K falls in the i-th K-th of the slots: a cluster whose
slots are split evenly over its masters (as `redis-cli --cluster create` does) gets its queues
spread over them.
"""

from __future__ import annotations

import zlib

from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot


def _tag(number: int, count: int) -> str:
    low = number * REDIS_CLUSTER_HASH_SLOTS // count
    high = (number + 1) * REDIS_CLUSTER_HASH_SLOTS // count
    n = 0
    while not low <= key_slot(f"q{number}.{n}".encode()) < high:
        n += 1
    return f"q{number}.{n}"


class QueueSet:
    """The names of K work queues and which one a game belongs to."""

    def __init__(self, count: int = 1) -> None:
        if count < 1:
            raise ValueError("at least one queue")
        self.count = count
        self.tags = [_tag(i, count) for i in range(count)]

    def of(self, game_id: str) -> int:
        """The queue of a game (the same in every process, for ever)."""
        return zlib.crc32(game_id.encode()) % self.count

    def name(self, number: int) -> str:
        return f"arq:queue:{{{self.tags[number]}}}"

    def job_id(self, number: int, what: str) -> str:
        """A job id whose arq keys all fall in the queue's slot."""
        return f"{{{self.tags[number]}}}{what}"

    def due_key(self, number: int) -> str:
        return f"machine:{{{self.tags[number]}}}:due"

    def lock_key(self, number: int, what: str) -> str:
        return f"machine:{{{self.tags[number]}}}:{what}"
