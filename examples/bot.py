"""A bot that plays any game of the service through its public HTTP API, and nothing else.

    python examples/bot.py URL GAME_ID TOKEN [--seed N] [--pace SECONDS]
    python examples/bot.py URL --join PERSONAL_TOKEN [--game NAME] [--seed N] [--pace SECONDS]

for example ``python examples/bot.py http://127.0.0.1:8000 3f2a9c0d1e2b4a5f G4g1UC...`` plays
a seat with its seat token. With ``--join`` and a player's personal token (made on the account
page: ``bgp_...``) it plays as that player: it takes a free seat at an open table of the lobby
(`GET /api/tables`, `POST /api/tables/{id}/join`), waits for the table to start, and plays the
game there, its personal token acting for the seat. It needs only Python's standard library:
copy it and change `choose` to write your own bot.

How it plays:
1. `GET /api/games/{id}` with its seat's token is its view: `legal` lists every command its seat
   may send now, each ready to send (the bot never needs to know a rule).
2. When `legal` is not empty, it picks one (`choose`) and `POST`s it to
   `/api/games/{id}/commands` with `expected_version` (so that a move decided on an old view is
   refused with 409 `stale_version`, not applied) and an `Idempotency-Key` (so that a retry
   after a lost answer is not applied twice).
3. Otherwise it waits on `GET /api/games/{id}/stream` (server-sent events: one message per new
   event, its `id` the game's version) until the game moves, and reads its view again.
4. A refusal (4xx) is answered with `{"code", "message"}`: it reads its view again and goes on;
   a 429 or 503 says when to come back (`Retry-After`). It stops when the game is over and
   prints the standings.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import urllib.error
import urllib.request
import uuid
from typing import Any


class Api:
    """The service's HTTP API, as one seat sees it."""

    def __init__(self, url: str, game_id: str, token: str) -> None:
        self.game = f"{url.rstrip('/')}/api/games/{game_id}"
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def view(self) -> dict[str, Any]:
        return self._call(urllib.request.Request(self.game, headers=self.headers))

    def send(self, command: dict[str, Any], version: int) -> dict[str, Any]:
        body = json.dumps({**command, "expected_version": version}).encode()
        headers = {**self.headers, "Idempotency-Key": uuid.uuid4().hex}
        request = urllib.request.Request(f"{self.game}/commands", body, headers, method="POST")
        return self._call(request)

    def wait_past(self, version: int, seconds: float = 30) -> None:
        """Return once the game is past `version` (or after `seconds` without news)."""
        request = urllib.request.Request(
            f"{self.game}/stream?after={version}", headers=self.headers
        )
        try:
            with urllib.request.urlopen(request, timeout=seconds) as stream:
                for line in stream:
                    if line.startswith(b"id:"):  # a new event: the game has moved
                        return
        except TimeoutError:
            return  # nothing happened for a while: look at the view again
        except urllib.error.HTTPError as refused:
            if refused.code not in (429, 503):
                raise
            time.sleep(float(refused.headers.get("Retry-After", "1")))  # as the server says

    def _call(self, request: urllib.request.Request) -> dict[str, Any]:
        return call(request)


def call(request: urllib.request.Request) -> dict[str, Any]:
    """One request's JSON answer; a 429 or 503 is sent again after its `Retry-After`."""
    while True:
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return json.loads(answer.read())  # type: ignore[no-any-return]
        except urllib.error.HTTPError as refused:
            if refused.code in (429, 503):  # come back later, as the server says
                time.sleep(float(refused.headers.get("Retry-After", "1")))
                continue
            raise Refused(refused.code, json.loads(refused.read() or b"{}")) from None


def join_a_table(url: str, token: str, game: str | None, wait: float = 600) -> str:
    """Take a free seat at an open table of the lobby (of `game`, if given) and wait until it
    starts; the started game's id."""
    base, deadline = url.rstrip("/"), time.monotonic() + wait
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    while True:
        tables = call(urllib.request.Request(f"{base}/api/tables", headers=headers))
        free = [
            t
            for t in tables["tables"]
            if (game is None or t["game"] == game) and any(s["type"] == "open" for s in t["seats"])
        ]
        if free:
            table = free[0]
            join = urllib.request.Request(
                f"{base}/api/tables/{table['id']}/join", b"{}", headers, method="POST"
            )
            try:
                table = call(join)
                break
            except Refused as refused:  # another player was quicker: look again
                print(f"refused: {refused}", file=sys.stderr)
        if time.monotonic() > deadline:
            raise SystemExit("no open table with a free seat")
        time.sleep(1)
    print(f"seated at table {table['id']}", file=sys.stderr)
    while table["status"] == "forming":
        if time.monotonic() > deadline:
            raise SystemExit("the table did not start")
        time.sleep(0.5)
        request = urllib.request.Request(f"{base}/api/tables/{table['id']}", headers=headers)
        table = call(request)
    if table["status"] != "started":
        raise SystemExit(f"the table was {table['status']}")
    return str(table["game_id"])


class Refused(Exception):
    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(f"{status} {body.get('code')}: {body.get('message')}")
        self.code = body.get("code")


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The command to send: any of the legal ones. A better bot looks at `view["state"]` (the
    game's own view) or asks for `?hints=true` (what each legal command would bring)."""
    return rng.choice(view["legal"])


def play(api: Api, rng: random.Random, pace: float) -> dict[str, Any]:
    """Play until the game is over; its last view."""
    while True:
        view = api.view()
        if view["status"] == "over":
            return view
        if not view["legal"]:
            api.wait_past(view["version"])
            continue
        try:
            api.send(choose(view, rng), view["version"])
        except Refused as refused:  # the game moved meanwhile, or a deadline passed
            print(f"refused: {refused}", file=sys.stderr)
        time.sleep(pace)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        usage="python examples/bot.py URL GAME_ID TOKEN [--seed N] [--pace SECONDS]\n"
        "       python examples/bot.py URL --join PERSONAL_TOKEN [--game NAME] [...]",
        description=__doc__.split("\n")[0],
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of the bot's choices")
    parser.add_argument("--pace", type=float, default=0.05, help="seconds between commands")
    parser.add_argument("--game", default=None, help="with --join: only tables of this game")
    # URL, game id and token always come first: a token may begin with "-", which argparse
    # would take for an option.
    if len(argv) < 3 or any(a in ("-h", "--help") for a in argv[:3]):
        parser.print_help()
        return 2
    (url, game_id, token), args = argv[:3], parser.parse_args(argv[3:])
    if game_id == "--join":
        game_id = join_a_table(url, token, args.game)
    view = play(Api(url, game_id, token), random.Random(args.seed), args.pace)
    names = {s["seat"]: s["name"] for s in view["seats"]}
    for standing in view["standings"]:
        seat = standing["seat"]
        you = " (this bot)" if seat == view["seat"] else ""
        print(f"{standing['rank']}. {names[seat]}{you}: {standing['score']} points")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
