"""Logs pinned to their rules (`docs/rules/versions.md`): a game names its rules version and is
decided, replayed and checked with it; a log made before versions were named still imports with
the rules it was played under."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from app.api import logfile
from app.commands.catalogue import Catalogue
from app.commands.errors import Unprocessable
from domain.bazaar.model import Draw, EndTurn
from domain.bazaar.model import GameStarted as BazaarStarted
from domain.bazaar.rules import ROUNDS
from domain.game import Record, Setup
from domain.mondo.model import GameStarted as MondoStarted
from domain.mondo.model import ReturnTile, RoundEnded, TakeTile
from domain.mondo.rules import MOVES_PER_ROUND
from domain.registry import GAMES, TABLES

FIRST_TILES_LOG = Path(__file__).parent / "recorded" / "mondo_first_tiles.json"
T0 = 1_765_000_000_000


def _read(data: bytes) -> tuple[Any, Any, list[Any], Any]:
    return logfile.read(Catalogue.with_extras(()), data)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_new_game_names_todays_rules(name: str) -> None:
    game = GAMES[name]
    (started,) = (
        e for e in game.start(Setup(seed=1, players=("Ann", "Bob")), T0) if type(e) is game.started
    )
    assert started.rules == game.versions.current


def test_a_mondo_log_made_before_the_tile_change_imports_with_its_scores() -> None:
    """Recorded with the first tile set (commit 617df76): it names no rules version, does not
    check with today's tiles, and imports as version 1 with the scores it was played to."""
    data = FIRST_TILES_LOG.read_bytes()
    raw = msgspec.json.decode(data)
    assert "rules" not in raw["events"][0]["event"]
    ends = [e["event"] for e in raw["events"] if e["event"]["type"] == "round_ended"]
    totals = tuple(sum(r["scores"][s]["total"] for r in ends) for s in range(2))
    assert totals == (93, 76)

    _, game, stored, state = _read(data)
    assert game.scores(state) == totals
    assert msgspec.json.decode(stored[0].data)["rules"] == 1
    assert state.game.rules == 1

    raw["events"][0]["event"]["rules"] = 2  # the same log, said to be played with today's tiles
    with pytest.raises(Unprocessable) as refused:
        _read(msgspec.json.encode(raw))
    assert refused.value.code == "log_does_not_replay"


def test_a_log_that_names_a_version_this_server_does_not_know_is_refused() -> None:
    raw = msgspec.json.decode(FIRST_TILES_LOG.read_bytes())
    raw["events"][0]["event"]["rules"] = 9
    with pytest.raises(Unprocessable, match="Event 1"):
        _read(msgspec.json.encode(raw))


def _bazaar(rules: int, seats: int = 1) -> tuple[Any, Any]:
    game = GAMES["bazaar"]
    opening = [
        replace(e, rules=rules) if isinstance(e, BazaarStarted) else e
        for e in game.start(Setup(seed=3, players=tuple("AB"[:seats])))
    ]
    return game, game.replay(opening)


def _turns(game: Any, state: Any, turns: int) -> Any:
    """`turns` turns of a draw and an end (a joker's colour the first), none of them a buy."""
    for _ in range(turns):
        (seat,) = game.to_act(state)
        state = game.fold(state, game.decide(state, seat, Draw()))
        if state.phase == "choose_colour":
            state = game.fold(state, game.decide(state, seat, game.least(state, seat)))
        state = game.fold(state, game.decide(state, seat, EndTurn()))
    return state


def test_bazaar_ends_after_its_last_round_from_version_2_and_not_before() -> None:
    game, state = _bazaar(rules=2, seats=2)
    state = _turns(game, state, ROUNDS * 2 - 1)
    assert not game.is_over(state)
    state = _turns(game, state, 1)
    assert game.is_over(state)
    assert state.ended.reason == "last_round"


def test_bazaar_of_version_1_has_no_last_round() -> None:
    game, state = _bazaar(rules=1)
    state = _turns(game, state, ROUNDS + 5)
    assert not game.is_over(state)


@pytest.mark.parametrize(("rules", "limited"), [(3, True), (2, False)])
def test_a_mondo_player_makes_at_most_400_moves_a_round_from_version_3(
    rules: int, limited: bool
) -> None:
    game = TABLES["mondo"]
    opening = [
        replace(e, rules=rules) if isinstance(e, MondoStarted) else e
        for e in game.start(Setup(seed=5, players=("Ann",)), T0)
    ]
    records = [Record(T0, None, e) for e in opening]
    state = game.replay(opening)
    for n in range(MOVES_PER_ROUND + 2):
        command = ReturnTile(7) if n % 2 else TakeTile(7)
        try:
            events = game.decide(state, 0, command, T0 + n + 1)
        except Exception as error:
            assert limited and n == MOVES_PER_ROUND
            assert getattr(error, "code", None) == "too_many_moves"
            legal = game.legal(state, 0, T0 + n + 1)
            assert legal and not any(isinstance(c, TakeTile | ReturnTile) for c in legal)
            return
        records += [Record(T0 + n + 1, 0, e) for e in events]
        state = game.fold(state, events)
    assert not limited
    assert not any(isinstance(r.event, RoundEnded) for r in records)
