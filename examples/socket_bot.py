"""A bot that plays one seat of any game over the seat's socket (one WebSocket, no request per
command), through the public API only.

    python examples/socket_bot.py URL GAME_ID TOKEN [--seed N]

for example ``python examples/socket_bot.py http://127.0.0.1:8000 3f2a9c0d1e2b4a5f G4g1UC...``.
It needs the `websockets` package. Change `choose` to write your own bot.

How it plays (docs/api.md, "The seat's socket"):
1. It says hello with its token and `after`, the version of the last event it has; the server
   sends every event after it.
2. It asks for its view (`{"type": "view"}`): `legal` lists every command its seat may send now,
   each ready to send (the bot never needs to know a rule).
3. When `legal` is not empty, it sends one with `expected_version` and a fresh key, and waits
   for the answer (`applied` or `refused`); otherwise it waits for the next events.
4. When the connection drops, it connects again with the last version it has and sends the
   unanswered command again with the same key: the server applies it once.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import uuid
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed


def choose(legal: list[dict[str, Any]], chance: random.Random) -> dict[str, Any]:
    """The command to send: a placement when there is one, at random."""
    places = [c for c in legal if c["type"] != "draw_and_pass"]
    return chance.choice(places or legal)


class Seat:
    """One seat's connection, and the last version of the game it has seen."""

    def __init__(self, url: str, game_id: str, token: str) -> None:
        base = url.rstrip("/").replace("http://", "ws://").replace("https://", "wss://")
        self.url = f"{base}/api/games/{game_id}/socket"
        self.token = token
        self.last = 0
        self.connection: ClientConnection | None = None

    async def open(self) -> None:
        self.connection = await connect(self.url)
        await self.send({"type": "hello", "token": self.token, "after": self.last})
        welcome = await self.receive()
        if welcome["type"] != "welcome":
            raise SystemExit(f"refused: {welcome['code']}: {welcome['message']}")

    async def send(self, message: dict[str, Any]) -> None:
        assert self.connection is not None
        await self.connection.send(json.dumps(message))

    async def receive(self) -> dict[str, Any]:
        """The next message; the events it carries move `last` on."""
        assert self.connection is not None
        message: dict[str, Any] = json.loads(await self.connection.recv())
        for record in message.get("events", []):
            self.last = record["version"]
            print(f"{record['version']:4} {record['text']}")
        return message

    async def wait(self) -> None:
        """Until new events come (or the connection drops)."""
        try:
            if self.connection is None:
                await self.open()
            while (await self.receive())["type"] not in ("events", "applied"):
                pass
        except (ConnectionClosed, OSError):
            self.connection = None
            await asyncio.sleep(1)

    async def ask(self, message: dict[str, Any], answers: tuple[str, ...]) -> dict[str, Any]:
        """Send a message and return its answer, reconnecting (and sending it again, with the
        same key) when the connection drops."""
        while True:
            try:
                if self.connection is None:
                    await self.open()
                await self.send(message)
                while True:
                    answer = await self.receive()
                    if answer["type"] in answers:
                        return answer
            except (ConnectionClosed, OSError):
                self.connection = None
                await asyncio.sleep(1)


async def play(url: str, game_id: str, token: str, seed: int) -> int:
    chance = random.Random(seed)
    seat = Seat(url, game_id, token)
    while True:
        view = (await seat.ask({"type": "view"}, ("view", "refused"))).get("view")
        if view is None:
            raise SystemExit("the server refused to show the view")
        if view["status"] == "over":
            for standing in view["standings"]:
                name = view["seats"][standing["seat"]]["name"]
                print(f"{standing['rank']}. {name}: {standing['score']}")
            return 0
        if not view["legal"]:  # not our turn: wait for the game to move past this view
            if seat.last <= view["version"]:
                await seat.wait()
            continue
        command = {**choose(view["legal"], chance), "expected_version": view["version"]}
        message = {"type": "command", "key": uuid.uuid4().hex, "command": command}
        answer = await seat.ask(message, ("applied", "refused"))
        if answer["type"] == "refused":  # the game moved on meanwhile: look again
            print(f"refused: {answer['code']}: {answer['message']}", file=sys.stderr)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        usage="python examples/socket_bot.py URL GAME_ID TOKEN [--seed N]",
        description=__doc__.split("\n\n")[0],
    )
    parser.add_argument("--seed", type=int, default=None)
    # URL, game id and token always come first: a token may begin with "-", which argparse
    # would take for an option.
    if len(argv) < 3 or any(a in ("-h", "--help") for a in argv[:3]):
        parser.print_help()
        return 2
    (url, game_id, token), args = argv[:3], parser.parse_args(argv[3:])
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    return asyncio.run(play(url, game_id, token, seed))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
