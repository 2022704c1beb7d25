"""Redis commands and Redis time per player command over HTTP (INFO commandstats).

Run from the project root (a private redis-server on a free port):

    .venv/bin/python -m bench.service.command_cost            # 20 two-person games
    .venv/bin/python -m bench.service.command_cost --games 5

The app runs in this process (Litestar's test client, limits per address on), with no
worker and no stream; the games' commands are worked out offline from their seeds
(`bench.service.http_commands.script`) and POSTed one after the other, once without and once with an
`Idempotency-Key` on every command. The statistics are reset after the games are created;
Redis CPU is the server's user and system time meanwhile (INFO cpu).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
from dataclasses import replace
from typing import Any

import redis
from litestar.testing import AsyncTestClient

from app.base.config import Settings
from app.main import create_app
from bench.common import command_line
from bench.service.ai_turns import command_counts, cpu_usec, redis_url
from bench.service.http_commands import script

#: The limits per address counted (as in production) but never reached.
HIGH_LIMITS: dict[str, Any] = {
    "open_games": 0,
    "create_per_minute": 10**6,
    "commands_per_minute": 10**6,
}


async def play(url: str, games: int, keyed: bool) -> tuple[int, int, int]:
    """(commands sent, Redis commands, Redis µs) for `games` games."""
    app = create_app(replace(Settings(redis_url=url, worker_in_process=False), **HIGH_LIMITS))
    scripts = [script(seed) for seed in range(games)]
    async with AsyncTestClient(app) as client:
        plays = []
        for item in scripts:
            seats = [{"type": "human"}, {"type": "human"}]
            created = await client.post(
                "/api/games", json={"game": "crazymino", "seats": seats, "seed": item.seed}
            )
            tokens = [s["token"] for s in created.json()["seats"]]
            plays.append((created.json()["id"], tokens, item.moves))
        with redis.Redis.from_url(url) as probe:
            probe.config_resetstat()
            cpu = cpu_usec(probe)
        sent = 0
        for game_id, tokens, moves in plays:
            for n, (seat, body) in enumerate(moves):
                headers = {"Authorization": f"Bearer {tokens[seat]}"}
                headers["Content-Type"] = "application/json"
                if keyed:
                    headers["Idempotency-Key"] = f"k{n}"
                answer = await client.post(
                    f"/api/games/{game_id}/commands", content=body, headers=headers
                )
                assert answer.status_code == 200, answer.text
                sent += 1
        with redis.Redis.from_url(url) as probe:
            counts, usec = command_counts(probe), cpu_usec(probe) - cpu
    return sent, sum(counts.values()), usec


def main(argv: list[str] | None = None) -> None:
    logging.getLogger("httpx").setLevel(logging.WARNING)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args(argv)
    with redis_url(None) as url:
        print(command_line())
        print("| Idempotency-Key | commands | Redis commands each | Redis CPU µs each |")
        print("| --- | --- | --- | --- |")
        for keyed in (False, True):
            sent, commands, usec = asyncio.run(play(url, args.games, keyed))
            print(
                f"| {'yes' if keyed else 'no'} | {sent} | {commands / sent:.2f} | "
                f"{usec / sent:.1f} |"
            )


if __name__ == "__main__":
    main()
