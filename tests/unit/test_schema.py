"""The OpenAPI schema describes every game: each view, legal command and event that random
games produce (as every viewer sees them, and unredacted) validates against it."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from game_profiles import ALL_GAMES, T0
from jsonschema import Draft202012Validator

from app.api.projection import api_types, entries, game_view
from app.base.config import Settings
from app.commands.seats import Seat
from app.commands.table import Entry, Table
from app.main import create_app, openapi_document
from domain.game import AnyGame, Setup
from domain.seating import seated
from domain.seating.model import Leave, Rejoin
from domain.seating.table import LEAVES


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    settings = Settings(redis_url=None, extra_games=("tests.games.dice_race:DICE_RACE",))
    return openapi_document(create_app(settings))


def validator(schema: dict[str, Any], component: str) -> Draft202012Validator:
    assert component in schema["components"]["schemas"], sorted(schema["components"]["schemas"])
    root = {"$ref": f"#/components/schemas/{component}", "components": schema["components"]}
    return Draft202012Validator(root)


def check(v: Draft202012Validator, value: Any) -> None:
    document = msgspec.json.decode(msgspec.json.encode(value))  # as the API sends it
    errors = list(v.iter_errors(document))
    assert not errors, (errors[0].message, errors[0].json_path, document)


def test_routes_answer_with_a_union_over_the_games(schema: dict[str, Any]) -> None:
    answer = schema["paths"]["/api/games/{game_id}"]["get"]["responses"]["200"]["content"]
    refs = {r["$ref"].rsplit("/", 1)[1] for r in answer["application/json"]["schema"]["oneOf"]}
    assert refs == {api_types(g).view.__name__ for g in ALL_GAMES.values()}
    names = set(schema["components"]["schemas"])
    for game in ALL_GAMES.values():
        assert {t.__name__ for t in api_types(game)} <= names


@pytest.mark.parametrize("name", sorted(ALL_GAMES))
@pytest.mark.parametrize("seed", range(6))
def test_what_random_games_produce_validates(schema: dict[str, Any], name: str, seed: int) -> None:
    play_and_check(schema, ALL_GAMES[name], seed)


@pytest.mark.parametrize("name", sorted(ALL_GAMES))
@pytest.mark.parametrize("seed", range(3))
def test_what_random_tables_produce_validates(schema: dict[str, Any], name: str, seed: int) -> None:
    """The same at tables where people leave, come back and let their turn clocks run out."""
    game = seated(ALL_GAMES[name])
    clocked = "turn_seconds" in {f.name for f in msgspec.structs.fields(game.options_type)}
    options = {"turn_seconds": 5, "timeouts_to_ai": 2} if clocked else {}
    kinds = play_and_check(schema, game, seed, options, people=True)
    assert {"SeatLeft", "SeatRejoined"} <= kinds
    assert ("TimedOut" in kinds) == clocked


def play_and_check(
    schema: dict[str, Any],
    game: AnyGame,
    seed: int,
    options: dict[str, Any] | None = None,
    *,
    people: bool = False,
) -> set[str]:
    """Play a random game (people also leave, rejoin and run out of time) and check its views,
    entries and log against the schema."""
    types = api_types(game)
    view, entry = validator(schema, types.view.__name__), validator(schema, types.entry.__name__)
    log = validator(schema, types.log.__name__)
    rng = random.Random(seed)
    players = tuple(f"p{i}" for i in range(max(game.min_seats, 2)))
    kind = "human" if people else "ai"
    seats = [Seat(n, kind, p, level=None if people else "x") for n, p in enumerate(players)]
    now = T0
    setup = Setup(seed=seed, players=players, options=options or {})
    events = game.start(setup, now)
    table = Table("g", game, seats, game.replay(events), len(events), now)
    log_entries = [Entry(n, now, None, e) for n, e in enumerate(events, 1)]
    steps: list[tuple[Table, int, int]] = []  # the table after each step, its time, new events
    left = 0  # the step at which seat 0 left
    while not table.over:
        now += 700
        due = [t for t in game.timers(table.state) if t.due <= now]
        actors = sorted(game.to_act(table.state))
        away = game.away(table.state)
        playable = [a for a in actors if a not in away]
        command: Any
        if due:
            seat, command = None, due[0].command
        elif people and (
            (not left and steps)  # seat 0 leaves early on, and comes back a little later
            or (0 in away and len(steps) > left + 1)
            or rng.random() < 0.05  # and anyone comes and goes at random
            or (actors and not playable)
        ):
            if not left and steps:
                seat, left = 0, len(steps)
            elif 0 in away and len(steps) > left + 1:
                seat = 0
            else:
                seat = (
                    rng.choice(actors) if actors and not playable else rng.randrange(len(players))
                )
            command = Rejoin() if seat in away else Leave()
            if table.state.table.leaves_of(seat) >= LEAVES:  # gone to the AI too often
                seat = rng.choice(actors) if actors else 0  # then a move, as the AI's
                moves = game.inner.legal(table.state.game, seat, now)
                if not moves:
                    continue
                command = rng.choice(moves)
        elif playable and not (people and rng.random() < 0.2):
            seat = rng.choice(playable)
            command = rng.choice(game.legal(table.state, seat, now))
        elif timers := game.timers(table.state):
            now = min(t.due for t in timers)
            continue
        else:
            continue
        new = game.decide(table.state, seat, command, now)
        log_entries += [Entry(table.version + n, now, seat, e) for n, e in enumerate(new, 1)]
        table = table._replace(
            state=game.fold(table.state, new), version=table.version + len(new), at=now
        )
        steps.append((table, now, len(new)))
    # A dozen steps spread over the game, and its end, as every viewer sees them.
    picked = {round(k * (len(steps) - 1) / 12) for k in range(13)}
    for at in sorted(picked):
        shown_table, then, count = steps[at]
        done = log_entries[: shown_table.version]
        for viewer in (None, *range(len(players))):
            check(view, game_view(shown_table, viewer, then, hints=True))
            for shown in entries(shown_table, done[-count:], viewer, over=False):
                check(entry, shown)
    for shown in entries(table, log_entries, None):
        check(entry, shown)
    records = [types.record(e.at, e.by, e.event) for e in log_entries]
    check(
        log,
        types.log("boardgames-log/2", setup, [s.public() for s in seats], records),
    )
    return {type(e.event).__name__ for e in log_entries}


def test_the_schema_refuses_what_no_game_sends(schema: dict[str, Any]) -> None:
    """The control of the test above: the schema is not `Any`."""
    entry = validator(schema, "CrazyminoEntry")
    good = {"version": 3, "at": T0, "by": 0, "event": {"type": "turn_passed", "seat": 0}}
    good["text"] = "Ann passes."
    assert entry.is_valid(good)
    assert not entry.is_valid({**good, "event": {"type": "rolled", "seat": 0, "face": 3}})
    assert not entry.is_valid({**good, "event": {"type": "turn_passed"}})
    assert not entry.is_valid({**good, "at": "noon"})


@pytest.mark.parametrize("name", sorted(ALL_GAMES))
def test_a_command_of_any_game_is_never_400_at_another(schema: dict[str, Any], name: str) -> None:
    """The schema's promise for commands: a body that matches the commands' schema (any hosted
    game's command) is this game's command, or 422 `not_in_this_game`; never 400. Crazymino's
    and Mondo's `place_tile` share their type but not their fields."""
    from app.api.http import decode_command
    from app.commands.catalogue import Catalogue
    from app.commands.errors import InvalidInput, Unprocessable

    catalogue = Catalogue.with_extras(("tests.games.dice_race:DICE_RACE",))
    body = schema["paths"]["/api/games/{game_id}/commands"]["post"]["requestBody"]
    root = {**body["content"]["application/json"]["schema"], "components": schema["components"]}
    commands = Draft202012Validator(root)
    game = seated(ALL_GAMES[name])
    sent: list[Any] = []
    for seed in range(3):
        players = tuple(f"p{i}" for i in range(max(game.min_seats, 2)))
        state = game.replay(game.start(Setup(seed=seed, players=players), T0))
        rng = random.Random(seed)
        for _ in range(20):
            seats = sorted(game.to_act(state))
            if game.is_over(state) or not seats:
                break
            legal = game.legal(state, seats[0], T0)
            sent += rng.sample(legal, min(4, len(legal)))
            state = game.fold(state, game.decide(state, seats[0], rng.choice(legal), T0))
    assert sent
    for command in sent:
        data = msgspec.json.encode(command)
        assert commands.is_valid(msgspec.json.decode(data)), data
        for kind in catalogue:
            try:
                decoded, _ = decode_command(kind, data, catalogue.command_tags)
            except Unprocessable as refused:
                assert refused.code == "not_in_this_game", (kind.game.name, data)
            except InvalidInput as refused:  # pragma: no cover - the failure this test is for
                raise AssertionError(f"{kind.game.name} answers 400 to {data!r}") from refused
            else:
                assert msgspec.json.encode(decoded) == data
