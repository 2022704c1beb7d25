"""Hidden information: while a game runs, no answer to a seat or a spectator shows another seat's
tiles, the pile or the seed the service drew, on any channel (view, events, command answers,
stream, replay, export, lobby, the table's chat). Once it is over everything is shown.

The deal is deterministic from the seed, so the test knows the truth (every hand, the pile's
order) by reading the seed from Redis and running the same rules locally, and checks every
answer against it. (A seed the creator chose is public: `test_public_seeds.py`.)
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
from typing import Any

import httpx
import msgspec
import redis
from client import auth, create, sse, view

from domain.crazymino.game import CRAZYMINO
from domain.crazymino.model import State, TileDrawn
from domain.game import Setup
from domain.seating.model import ClockedTableOptions
from tests.processes import database

#: A seed a creator chooses (the socket's tests): it is public then, but the tiles stay hidden.
SEED = 8_123_456_789_011
PLAYERS = ("Ann", "Bob", "Cy")
VIEWERS: tuple[int | None, ...] = (0, 1, 2, None)


class Truth:
    """The game as the server holds it, mirrored locally: every event, unredacted."""

    def __init__(self, seed: int, players: tuple[str, ...]) -> None:
        self.events: list[Any] = CRAZYMINO.start(Setup(seed=seed, players=players))
        self.state: State = CRAZYMINO.replay(self.events)

    @property
    def version(self) -> int:
        return len(self.events)

    def apply(self, seat: int, command: dict[str, Any]) -> list[Any]:
        decoded = msgspec.convert(command, type=CRAZYMINO.command_type)
        events = CRAZYMINO.decide(self.state, seat, decoded)
        self.events += events
        self.state = CRAZYMINO.fold(self.state, events)
        return events

    def at(self, version: int) -> State:
        return CRAZYMINO.replay(self.events[:version])


def secret(state: State, viewer: int | None) -> set[int]:
    """The tiles the viewer may not know of: other seats' hands and the whole pile."""
    hidden = set(state.pile)
    for seat, hand in enumerate(state.hands):
        if seat != viewer:
            hidden |= set(hand)
    return hidden


_TILE_LISTS = ("hand", "hands", "pile")


def shown_tiles(value: Any, key: str | None = None) -> set[int]:
    """Every tile id an answer names: fields `tile`, and the ids in `hand`/`hands`/`pile`."""
    found: set[int] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            found |= shown_tiles(v, k)
    elif isinstance(value, list):
        for item in value:
            if key in _TILE_LISTS and isinstance(item, int) and not isinstance(item, bool):
                found.add(item)
            else:
                found |= shown_tiles(item, key if key in _TILE_LISTS else None)
    elif key == "tile" and isinstance(value, int) and not isinstance(value, bool):
        found.add(value)
    return found


def keys_of(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_of(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_of(v)}
    return set()


class Secrets:
    """The credentials of the game: its tokens and their hashes, which no answer may carry,
    and the seed the service drew."""

    def __init__(self, tokens: list[str], seed: int | None = None) -> None:
        self.tokens = tokens
        self.strings = [*tokens, *(hashlib.sha256(t.encode()).hexdigest() for t in tokens)]
        if seed is not None:  # a seed the service drew: as secret as the tokens
            self.strings.append(str(seed))

    def check_text(self, text: str) -> None:
        for value in self.strings:
            assert value not in text, f"an answer holds a secret: {text[:300]}"

    def check(self, answer: httpx.Response) -> Any:
        assert answer.status_code == 200, answer.text
        self.check_text(answer.text)
        data = answer.json()
        assert not keys_of(data) & {"token", "token_hash", "setup"}, data
        return data


def check_no_secret(data: Any, hidden: set[int], what: str) -> None:
    leaked = shown_tiles(data) & hidden
    assert not leaked, f"{what} shows hidden tiles {sorted(leaked)}"


def check_view(shown: dict[str, Any], viewer: int | None, state: State, what: str) -> None:
    """A view shows the viewer's own hand only, and no pile and no seed."""
    assert shown["seat"] == viewer, what
    assert shown["seed"] is None and shown["casual"] is False, what
    seen = shown["state"]
    assert seen["viewer"] == viewer, what
    assert not {"pile", "seed"} & set(seen), f"{what}: {sorted(seen)}"
    assert seen["pile_size"] == len(state.pile), what
    for seat in seen["seats"]:
        number = seat["seat"]
        assert seat["hand_size"] == len(state.hands[number]), what
        if number == viewer:
            assert sorted(t["tile"] for t in seat["hand"]) == sorted(state.hands[number]), what
        else:
            assert seat["hand"] is None, f"{what}: seat {number}'s hand is shown"
    if viewer is None:
        assert shown["legal"] == [], what
    for command in shown["legal"]:
        if command["type"] == "place_tile":
            assert command["tile"] in state.hands[viewer], what
    check_no_secret(shown, secret(state, viewer), what)


def check_entries(
    entries: list[dict[str, Any]], viewer: int | None, truth: Truth, what: str
) -> None:
    """Events as a viewer sees them while the game runs: each one redacted, and true."""
    for entry in entries:
        event = entry["event"]
        actual = json.loads(msgspec.json.encode(truth.events[entry["version"] - 1]))
        label = f"{what}, event {entry['version']} ({event['type']})"
        assert set(event) == set(actual) and event["type"] == actual["type"], label
        if event["type"] == "game_started":
            assert event["pile"] is None and event["seed"] is None, label
            for seat, hand in enumerate(event["hands"]):
                if seat == viewer:
                    assert hand == actual["hands"][seat], label
                else:
                    assert hand is None, f"{label}: seat {seat}'s hand is shown"
            public = {k: v for k, v in actual.items() if k not in ("hands", "pile", "seed")}
            assert {k: event[k] for k in public} == public, label
        elif event["type"] == "tile_drawn" and event["seat"] != viewer:
            assert event["tile"] is None, f"{label}: another seat's draw is shown"
            assert event | {"tile": actual["tile"]} == actual, label
        else:
            assert event == actual, label
    check_no_secret(entries, secret(truth.state, viewer), what)


async def play(
    client: httpx.AsyncClient,
    game_id: str,
    tokens: list[str],
    truth: Truth,
    secrets: Secrets,
    moves: int,
    draws_first: bool,
    answers: list[tuple[int, Any]],
    keys: list[tuple[int, str]],
) -> None:
    """Play `moves` turns, drawing every other turn; keep each command's answer and checks it."""
    for n in range(moves):
        seat = truth.state.seat_to_play
        assert seat is not None
        shown = secrets.check(await client.get(f"/api/games/{game_id}", headers=auth(tokens[seat])))
        assert shown["to_act"] == [seat] and shown["version"] == truth.version
        check_view(shown, seat, truth.state, f"seat {seat}'s view before its move")
        places = [c for c in shown["legal"] if c["type"] == "place_tile"]
        draw = n % 2 == (0 if draws_first else 1) or not places
        command = {"type": "draw_and_pass"} if draw else places[0]
        key = f"move-at-{truth.version}"
        answer = secrets.check(
            await client.post(
                f"/api/games/{game_id}/commands",
                json=command,
                headers=auth(tokens[seat]) | {"Idempotency-Key": key},
            )
        )
        events = truth.apply(seat, command)
        assert answer["version"] == truth.version and len(answer["events"]) == len(events)
        assert answer["replayed"] is False
        check_entries(answer["events"], seat, truth, f"seat {seat}'s command answer")
        answers.append((seat, answer))
        if draw:
            keys.append((seat, key))


async def wait_for_version(out: list[dict[str, Any]], version: int, what: str) -> None:
    while not out or out[-1]["id"] < version:
        await asyncio.sleep(0.02)


CHAT_FIELDS = {"id", "at", "seat", "name", "text"}


def check_chat(messages: list[dict[str, Any]], said: list[dict[str, Any]], what: str) -> None:
    """A chat as a viewer got it: exactly the messages said, each nothing but a message."""
    assert messages == said, what
    for message in messages:
        assert set(message) == CHAT_FIELDS, f"{what}: {sorted(message)}"
        assert message["name"] == PLAYERS[message["seat"]], what


async def check_every_channel(
    client: httpx.AsyncClient,
    game_id: str,
    tokens: list[str],
    truth: Truth,
    secrets: Secrets,
    said: list[dict[str, Any]],
) -> None:
    """Every reading route, for every seat and for a spectator, at the game's current version;
    the table's chat is the same for all of them."""
    for viewer in VIEWERS:
        token = None if viewer is None else tokens[viewer]
        who = "the spectator" if viewer is None else f"seat {viewer}"
        shown = secrets.check(await client.get(f"/api/games/{game_id}", headers=auth(token)))
        assert shown["version"] == truth.version and shown["status"] == "active"
        check_view(shown, viewer, truth.state, f"{who}'s view")

        for after in (0, 1, truth.version // 2, truth.version - 1):
            log = secrets.check(
                await client.get(
                    f"/api/games/{game_id}/events", params={"after": after}, headers=auth(token)
                )
            )
            assert log["version"] == truth.version and log["status"] == "active"
            assert log["seed"] is None and log["casual"] is False
            assert [e["version"] for e in log["events"]] == list(
                range(after + 1, truth.version + 1)
            )
            check_entries(log["events"], viewer, truth, f"{who}'s events after {after}")

        moments = {1, 2, truth.version // 3, truth.version // 2, truth.version}
        for at in sorted(m for m in moments if 1 <= m <= truth.version):
            past = secrets.check(
                await client.get(
                    f"/api/games/{game_id}/replay", params={"at": at}, headers=auth(token)
                )
            )
            assert past["version"] == at and past["status"] == "active"
            then = truth.at(at)
            check_view(past, viewer, then, f"{who}'s replay at {at}")
            check_no_secret(past, secret(truth.state, viewer), f"{who}'s replay at {at}")

        chat = secrets.check(await client.get(f"/api/games/{game_id}/chat", headers=auth(token)))
        check_chat(chat["messages"], said, f"{who}'s chat")
        check_no_secret(chat, secret(truth.state, viewer), f"{who}'s chat")

        exported = await client.get(f"/api/games/{game_id}/export", headers=auth(token))
        assert exported.status_code == 409 and exported.json()["code"] == "game_running"
        secrets.check_text(exported.text)

        resumed_from = truth.version // 2
        for last_id in (None, resumed_from):
            out: list[dict[str, Any]] = []
            expected = truth.version - (last_id or 0)
            await asyncio.wait_for(sse(client, game_id, token, last_id, out, expected), 10)
            assert [m["id"] for m in out] == list(range((last_id or 0) + 1, truth.version + 1))
            secrets.check_text(json.dumps(out))
            entries = [m["data"] for m in out]
            assert [e["version"] for e in entries] == [m["id"] for m in out]
            check_entries(entries, viewer, truth, f"{who}'s stream from {last_id}")

    lobby = secrets.check(await client.get("/api/games", params={"limit": 100}))
    listed = [g for g in lobby["games"] if g["id"] == game_id]
    assert len(listed) == 1 and listed[0]["status"] == "active"
    assert listed[0]["seed"] is None and listed[0]["casual"] is False
    # this game's entry: the lobby lists other tests' games too, with their titles' options
    ours = {**lobby, "games": listed}
    assert keys_of(ours) <= {"total", "offset", "limit", "games", "id", "game", "status"} | {
        "seed",  # null: the service drew it
        "casual",
        "player",  # the account at a seat of another game (an open table's): public
        "seats",
        "created",
        "seat",
        "type",
        "name",
        "level",
        "options",  # as the creator set them: no secret (Crazymino's are its table's)
        *ClockedTableOptions.__struct_fields__,
    }, keys_of(ours)


def drawn_seed(redis_url: str, game_id: str) -> int:
    """The seed the service drew for a game of the `server` fixture (its database 1)."""
    with redis.Redis.from_url(database(redis_url, 1, flush=False)) as client:
        setup = client.hget(f"game:{{{game_id}}}:meta", "setup")
    assert setup is not None
    return int(json.loads(setup)["seed"])


async def test_no_channel_shows_a_viewer_what_it_may_not_see(server: str, redis_url: str) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        answer = await client.post(
            "/api/games",
            json={"game": "crazymino", "seats": [{"type": "human", "name": n} for n in PLAYERS]},
        )
        assert answer.status_code == 201, answer.text
        created = answer.json()
        game_id = created["id"]
        tokens = [s["token"] for s in created["seats"]]
        assert len(set(tokens)) == 3 and all(tokens)
        seed = drawn_seed(redis_url, game_id)
        secrets = Secrets(tokens, seed)
        truth = Truth(seed, PLAYERS)
        assert created["version"] == truth.version
        assert str(seed) not in json.dumps(created)  # the creator gets tokens, not the seed

        # live streams, one per viewer, opened before any move, with the table's chat
        live: dict[int | None, list[dict[str, Any]]] = {v: [] for v in VIEWERS}
        chats: dict[int | None, list[dict[str, Any]]] = {v: [] for v in VIEWERS}
        tasks = [
            asyncio.create_task(
                sse(client, game_id, None if v is None else tokens[v], None, out, chat=chats[v])
            )
            for v, out in live.items()
        ]
        said: list[dict[str, Any]] = []

        async def chat_round() -> None:
            """Each seat says something about its game, as players do."""
            for seat, token in enumerate(tokens):
                text = f"{PLAYERS[seat]} here, at move {truth.version}: my hand is fine"
                answer = await client.post(
                    f"/api/games/{game_id}/chat", json={"text": text}, headers=auth(token)
                )
                assert answer.status_code == 201, answer.text
                secrets.check_text(answer.text)
                said.append(answer.json())

        try:
            await check_every_channel(client, game_id, tokens, truth, secrets, said)

            answers: list[tuple[int, Any]] = []
            keys: list[tuple[int, str]] = []
            await chat_round()
            await play(client, game_id, tokens, truth, secrets, 6, True, answers, keys)
            await check_every_channel(client, game_id, tokens, truth, secrets, said)
            await chat_round()
            await play(client, game_id, tokens, truth, secrets, 6, False, answers, keys)
            await check_every_channel(client, game_id, tokens, truth, secrets, said)

            drawers = {e.seat for e in truth.events if isinstance(e, TileDrawn) and not e.automatic}
            assert drawers == {0, 1, 2}, "every seat should have drawn"
            # the answers to the commands, checked against what is hidden now too
            for seat, answered in answers:
                check_entries(answered["events"], seat, truth, f"seat {seat}'s command answer")

            # a seat that sends another seat's Idempotency-Key gets no more than its own view
            for drawer, key in keys:
                for seat in (s for s in range(3) if s not in (drawer, truth.state.seat_to_play)):
                    reused = await client.post(
                        f"/api/games/{game_id}/commands",
                        json={"type": "draw_and_pass"},
                        headers=auth(tokens[seat]) | {"Idempotency-Key": key},
                    )
                    secrets.check_text(reused.text)
                    if reused.status_code == 200:
                        assert reused.json()["replayed"] is True
                        check_entries(reused.json()["events"], seat, truth, "a reused key")
                    else:
                        assert reused.status_code == 409, reused.text
            assert (await view(client, game_id))["version"] == truth.version

            for viewer, out in live.items():
                who = f"the live stream of {viewer}"
                await wait_for_version(out, truth.version, who)
                assert [m["id"] for m in out] == list(range(1, truth.version + 1)), who
                secrets.check_text(json.dumps(out))
                check_entries([m["data"] for m in out], viewer, truth, who)
                while len(chats[viewer]) < len(said):
                    await asyncio.sleep(0.02)
                secrets.check_text(json.dumps(chats[viewer]))
                check_chat(chats[viewer], said, f"the live chat of {viewer}")
                check_no_secret(chats[viewer], secret(truth.state, viewer), who)
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError):
                    await task


async def test_everything_is_shown_once_the_game_is_over(server: str) -> None:
    seed = 4_242
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        created = await create(client, [{"type": "ai"}, {"type": "ai", "level": "easy"}], seed)
        game_id = created["id"]
        while (shown := await view(client, game_id))["status"] != "over":
            await asyncio.sleep(0.05)

        players = tuple(s["name"] for s in created["seats"])
        opening = CRAZYMINO.start(Setup(seed=seed, players=players))[0]
        log = (await client.get(f"/api/games/{game_id}/events")).json()
        assert log["status"] == "over" and log["version"] == shown["version"]
        started = log["events"][0]["event"]
        assert started["type"] == "game_started"
        assert started["hands"] == [list(h) for h in opening.hands]
        assert started["pile"] == list(opening.pile) and started["seed"] == seed
        draws = [e["event"] for e in log["events"] if e["event"]["type"] == "tile_drawn"]
        assert all(isinstance(d["tile"], int) for d in draws)  # an AI game need not draw

        truth = CRAZYMINO.replay(
            msgspec.convert([e["event"] for e in log["events"]], type=list[CRAZYMINO.event_type])
        )
        assert truth.ended is not None
        for seat in shown["state"]["seats"]:
            assert seat["hand"] is not None, "a hand stays hidden after the end"
            assert sorted(t["tile"] for t in seat["hand"]) == sorted(truth.hands[seat["seat"]])

        final = await client.get(f"/api/games/{game_id}/replay", params={"at": log["version"]})
        assert all(s["hand"] is not None for s in final.json()["state"]["seats"])

        out: list[dict[str, Any]] = []
        await asyncio.wait_for(sse(client, game_id, None, None, out), 10)
        assert [m["data"] for m in out] == log["events"]

        exported = await client.get(f"/api/games/{game_id}/export")
        assert exported.status_code == 200, exported.text
        assert exported.json()["setup"]["seed"] == seed
        records = [{k: e[k] for k in ("at", "by", "event")} for e in log["events"]]
        assert exported.json()["events"] == records
