"""Password hashing in a bounded pool of its own: argon2id takes 64 MiB and tens of
milliseconds a hash on purpose, so a flood of logins must not take the process's memory or the
threads every other request shares.

At most `workers` hashes run at once, in threads of their own (the memory they take is at most
`workers` × 64 MiB); at most `queue` more wait for one; beyond that a request is refused at once
(`BusyHashing`: 503 with Retry-After) rather than queued behind minutes of work.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from app.commands.errors import BusyHashing

T = TypeVar("T")


class HashPool:
    """Where every password hash and verification runs."""

    def __init__(self, workers: int = 2, queue: int = 32, retry_after: int = 2) -> None:
        self.workers, self.queue = max(1, workers), max(0, queue)
        self._retry_after = retry_after
        self._threads = ThreadPoolExecutor(self.workers, thread_name_prefix="password-hash")
        self._slots: asyncio.Semaphore | None = None
        self._asked = 0  # running and waiting

    async def run(self, work: Callable[..., T], *args: object) -> T:
        """`work(*args)` in the pool; `BusyHashing` when as many wait as may."""
        if self._asked >= self.workers + self.queue:
            raise BusyHashing(
                "The server is checking as many passwords as it can: try again in a moment.",
                retry_after=self._retry_after,
            )
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.workers)
        self._asked += 1
        try:
            async with self._slots:
                loop = asyncio.get_running_loop()
                return await loop.run_in_executor(self._threads, work, *args)
        finally:
            self._asked -= 1

    @property
    def asked(self) -> int:
        """How many hashes run or wait now."""
        return self._asked
