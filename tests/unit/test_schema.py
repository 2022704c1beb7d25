"""The OpenAPI schema describes every game: each view, legal command and event that random
games produce (as every viewer sees them, and unredacted) validates against it."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from game_profiles import ALL_GAMES, T0
from jsonschema import Draft202012Validator

from app.config import Settings
from app.main import create_app, openapi_document
from app.projection import api_types, entries, game_view
from app.seats import Seat
from app.service import Entry, Table
from domain.game import AnyGame, Setup


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
@pytest.mark.parametrize("seed", range(12))
def test_what_random_games_produce_validates(schema: dict[str, Any], name: str, seed: int) -> None:
    game: AnyGame = ALL_GAMES[name]
    types = api_types(game)
    view, entry = validator(schema, types.view.__name__), validator(schema, types.entry.__name__)
    log = validator(schema, types.log.__name__)
    rng = random.Random(seed)
    players = tuple(f"p{i}" for i in range(max(game.min_seats, 2)))
    seats = [Seat(n, "ai", p, level="x") for n, p in enumerate(players)]
    now = T0
    events = game.start(Setup(seed=seed, players=players), now)
    table = Table("g", game, seats, game.replay(events), len(events), now)
    log_entries = [Entry(n, now, None, e) for n, e in enumerate(events, 1)]
    steps: list[tuple[Table, int, int]] = []  # the table after each step, its time, new events
    while not table.over:
        now += 700
        due = [t for t in game.timers(table.state) if t.due <= now]
        actors = sorted(game.to_act(table.state))
        if due:
            seat, command = None, due[0].command
        elif actors:
            seat = rng.choice(actors)
            command = rng.choice(game.legal(table.state, seat, now))
        else:
            now = min(t.due for t in game.timers(table.state))
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
        types.log("boardgames-log/2", Setup(seed, players), [s.public() for s in seats], records),
    )


def test_the_schema_refuses_what_no_game_sends(schema: dict[str, Any]) -> None:
    """The control of the test above: the schema is not `Any`."""
    entry = validator(schema, "CrazyminoEntry")
    good = {"version": 3, "at": T0, "by": 0, "event": {"type": "turn_passed", "seat": 0}}
    good["text"] = "Ann passes."
    assert entry.is_valid(good)
    assert not entry.is_valid({**good, "event": {"type": "rolled", "seat": 0, "face": 3}})
    assert not entry.is_valid({**good, "event": {"type": "turn_passed"}})
    assert not entry.is_valid({**good, "at": "noon"})
