"""A process that kills itself (SIGKILL: no `finally`, no cleanup) right after its N-th answer
from Redis, in the middle of one store operation of the players: how the fault tests put a
crash between two writes, at every point an operation has.

    python tests/faults/dying.py REDIS_URL N OPERATION PLAYER [ARG]

OPERATION is `open` (a session), `make` (a personal token) or `revoke` (the token of id ARG);
or `rebuild` (the players' records, holding each title for a second unless renewed), which
dies after its N-th write to the records of the title PLAYER (a clear or a script of writes).
A process that finishes first prints what it made and exits 0.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgspec
import redis.asyncio
from redis.asyncio.client import Pipeline, Redis
from redis.commands.core import AsyncScript

from app.people.accounts import Player
from app.people.rating_store import RatingStore
from app.people.sessions import Sessions
from app.people.tokens import PersonalTokens
from app.rebuilding import ratings_of

ROOT = Path(__file__).resolve().parents[2]


def killed_after(url: str, answers: int, *operation: str) -> bytes | None:
    """Run one operation on the Redis at `url` in a process that dies after its `answers`-th
    answer (or write): what it printed if it finished first, else None (it was killed)."""
    run = subprocess.run(
        [sys.executable, __file__, url, str(answers), *operation],
        capture_output=True, cwd=ROOT, timeout=120, env={"PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    if run.returncode == -signal.SIGKILL:
        return None
    assert run.returncode == 0, run.stderr.decode()
    return run.stdout


def die_after(answers: int) -> None:
    """Every command and pipeline of redis-py counts its answer; the `answers`-th is the last."""
    heard = 0

    def counted(call: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def counting(self: Any, *args: Any, **kwargs: Any) -> Any:
            nonlocal heard
            answer = await call(self, *args, **kwargs)
            heard += 1
            if heard == answers:
                os.kill(os.getpid(), signal.SIGKILL)
            return answer

        return counting

    Redis.execute_command = counted(Redis.execute_command)  # type: ignore[method-assign]
    Pipeline.execute = counted(Pipeline.execute)  # type: ignore[method-assign]


def die_after_writes(writes: int, title: str) -> None:
    """The store of records dies after its `writes`-th write to `title`'s records."""
    done = 0

    def counted(call: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
        async def counting(self: RatingStore, *args: Any) -> None:
            nonlocal done
            await call(self, *args)
            if title in (args[0], getattr(args[-1], "game", None)):
                done += 1
                if done == writes:
                    os.kill(os.getpid(), signal.SIGKILL)

        return counting

    RatingStore.clear = counted(RatingStore.clear)  # type: ignore[method-assign]
    RatingStore.write = counted(RatingStore.write)  # type: ignore[method-assign]


async def main(url: str, answers: int, operation: str, key: str, *more: str) -> None:
    client = redis.asyncio.Redis.from_url(url)
    if operation == "rebuild":
        ratings = ratings_of(client)
        ratings.rebuild_hold_ms = 1_000
        die_after_writes(answers, key)
        try:
            print(await ratings.rebuild(), flush=True)
        finally:
            await ratings.service.store.close()
        return
    player = Player(key, key)
    sessions, tokens = Sessions(client, 3600), PersonalTokens(client)
    for store in (sessions, tokens):  # their scripts loaded: every answer counted is the work's
        for script in vars(store).values():
            if isinstance(script, AsyncScript):
                await client.script_load(script.script)
    die_after(answers)
    if operation == "open":
        made: object = await sessions.open(player)
    elif operation == "make":
        made = await tokens.make(player, "my bot")
    elif operation == "revoke":
        made = await tokens.revoke(player, more[0])
    else:
        raise SystemExit(f"no operation {operation}")
    print(msgspec.json.encode(made).decode(), flush=True)


if __name__ == "__main__":
    url, answers, operation, *rest = sys.argv[1:]
    asyncio.run(main(url, int(answers), operation, *rest))
