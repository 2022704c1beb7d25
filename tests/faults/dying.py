"""A process that kills itself (SIGKILL: no `finally`, no cleanup) right after its N-th answer
from Redis, in the middle of one store operation of the players: how the fault tests put a
crash between two writes, at every point an operation has.

    python tests/faults/dying.py REDIS_URL N OPERATION PLAYER [ARG]

OPERATION is `open` (a session), `make` (a personal token) or `revoke` (the token of id ARG).
A process that finishes before its N-th answer prints what it made and exits 0.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
import redis.asyncio
from redis.asyncio.client import Pipeline, Redis
from redis.commands.core import AsyncScript

from app.people.accounts import Player
from app.people.sessions import Sessions
from app.people.tokens import PersonalTokens


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


async def main(url: str, answers: int, operation: str, key: str, *more: str) -> None:
    client = redis.asyncio.Redis.from_url(url)
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
