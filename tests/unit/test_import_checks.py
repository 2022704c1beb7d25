"""Imports are checked in a pool of processes of a lower priority than the API's own."""

from __future__ import annotations

import asyncio
import os

from app.api.importing import NICE, LogChecks


async def test_the_checking_processes_run_at_a_lower_priority_than_the_api() -> None:
    checks = LogChecks(())
    try:
        loop = asyncio.get_running_loop()
        theirs = await loop.run_in_executor(checks._pool, os.nice, 0)
    finally:
        checks.close()
    assert theirs == min(os.nice(0) + NICE, 19)
