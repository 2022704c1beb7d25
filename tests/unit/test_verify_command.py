"""`python -m app verify FILE`, with no Redis and no server: an exported log of each title
opens its commitment and replays; a tampered seed, a tampered event, a commitment without its
salt and a file that is no log are refused with the reason; an older log without a commitment
still replays and says it has none (`app.commands.commitment`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from app.__main__ import main
from app.api import logfile
from app.commands.catalogue import Catalogue
from app.commands.commitment import commitment_of, dealt, new_salt
from app.commands.errors import Unprocessable
from app.commands.meta import GameMeta
from app.commands.seats import Seat
from app.commands.table import Entry, Table
from domain.game import AnyGame, Setup
from domain.seating.model import Resign

T0 = 1_800_000_000_000  # ms: a server time in 2027
SEED = 8_123_456_789_011_121_314  # past what a JavaScript number holds exactly
CATALOGUE = Catalogue.with_extras()
TITLES = ["crazymino", "bazaar", "mondo"]


def played(game: AnyGame, moves: int, draw: bool) -> tuple[Setup, list[Entry], Any]:
    """Ann and Bob: each seat to act plays its first legal command (or with `draw` its
    last: Crazymino's draw), `moves` times, then Ann resigns (a game of two seats ends)."""
    asked = Setup(seed=SEED, players=("Ann", "Bob"))
    setup = Setup(SEED, asked.players, msgspec.to_builtins(game.options(asked)))
    now = T0
    events = game.start(setup, now)
    entries = [Entry(n, now, None, e) for n, e in enumerate(events, start=1)]
    state = game.fold(game.initial(), events)

    def act(seat: int, command: Any) -> None:
        nonlocal state
        produced = game.decide(state, seat, command, now)
        start = len(entries) + 1
        entries.extend(Entry(n, now, seat, e) for n, e in enumerate(produced, start=start))
        state = game.fold(state, produced)

    for _ in range(moves):
        now += 1_000
        seat = min(game.to_act(state), default=None)
        legal = [] if seat is None else game.legal(state, seat, now)
        if seat is None or not legal:
            break
        act(seat, legal[-1] if draw else legal[0])
    act(0, Resign())
    assert game.is_over(state)
    return setup, entries, state


def exported(name: str, salt: str | None, moves: int = 6, draw: bool = False) -> dict[str, Any]:
    """The file the service exports of such a game (with the commitment of `salt`)."""
    game = CATALOGUE[name].game
    setup, entries, state = played(game, moves, draw)
    seats = [Seat(0, "human", "Ann"), Seat(1, "human", "Bob")]
    version, at = entries[-1].version, entries[-1].at
    table = Table("g", game, seats, state, version, at, deal=dealt(setup.seed, salt))
    meta = GameMeta(name, "over", T0, setup, seats, salt=salt)
    log = logfile.export(table, meta, entries)
    found: dict[str, Any] = json.loads(msgspec.json.encode(log))
    return found


def run_verify(
    tmp_path: Path, log: dict[str, Any] | bytes, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    path = tmp_path / "game.json"
    path.write_bytes(log if isinstance(log, bytes) else json.dumps(log).encode())
    code = main(["verify", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", TITLES)
def test_an_exported_game_of_each_title_verifies(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    salt = new_salt()
    log = exported(name, salt)
    assert log["commitment"] == commitment_of(SEED, salt) and log["salt"] == salt
    assert log["setup"]["seed"] == SEED
    code, out, err = run_verify(tmp_path, log, capsys)
    assert (code, err) == (0, ""), err
    assert "fair deal verified" in out and log["commitment"] in out and str(SEED) in out
    assert f"its {len(log['events'])} events replay by the rules to its end" in out


def test_a_tampered_seed_is_refused_by_its_commitment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = exported("bazaar", new_salt())
    log["setup"]["seed"] = SEED + 1
    code, out, err = run_verify(tmp_path, log, capsys)
    assert code == 1 and out == ""
    assert "do not hash to the commitment published at the start" in err


def test_a_tampered_seed_without_its_commitment_does_not_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = exported("mondo", new_salt())
    del log["commitment"], log["salt"]
    log["setup"]["seed"] = SEED + 1
    code, _, err = run_verify(tmp_path, log, capsys)
    assert code == 1 and "Event 1: the opening does not follow from the setup" in err


def test_a_tampered_event_does_not_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = exported("crazymino", new_salt(), moves=2, draw=True)
    draws = [n for n, r in enumerate(log["events"]) if r["event"]["type"] == "tile_drawn"]
    assert draws, [r["event"]["type"] for r in log["events"]]
    drawn = log["events"][draws[0]]["event"]
    tiles = {t for hand in log["events"][0]["event"]["hands"] for t in hand}
    drawn["tile"] = min(tiles)  # a tile already dealt to a hand: not the one the pile gave
    code, out, err = run_verify(tmp_path, log, capsys)
    assert code == 1 and out == ""
    assert f"Event {draws[0] + 1}: it is not what the rules make of its command" in err


def test_an_older_log_without_a_commitment_replays_and_says_it_has_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = exported("crazymino", None)  # a chosen seed's: null, and absent from older logs
    assert log.pop("commitment") is None and log.pop("salt") is None
    code, out, err = run_verify(tmp_path, log, capsys)
    assert (code, err) == (0, "")
    assert "no commitment in this log" in out and "replay by the rules to its end" in out


@pytest.mark.parametrize("missing", ["salt", "commitment"])
def test_a_commitment_without_its_salt_is_refused(
    missing: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = exported("bazaar", new_salt())
    del log[missing]
    code, _, err = run_verify(tmp_path, log, capsys)
    assert code == 1 and "commitment comes without its" in err


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"not json", "This is not a game log"),
        (b'{"format": "boardgames-log/1", "game": "crazymino"}', "cannot be checked"),
    ],
)
def test_a_file_that_is_no_log_is_refused_with_the_reason(
    content: bytes, reason: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_verify(tmp_path, content, capsys)
    assert code == 1 and out == "" and reason in err


def test_a_missing_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["verify", str(tmp_path / "nowhere.json")])
    assert code == 1 and "cannot be read" in capsys.readouterr().err


def test_an_import_refuses_a_log_whose_commitment_is_broken() -> None:
    log = exported("crazymino", new_salt())
    log["salt"] = new_salt()
    with pytest.raises(Unprocessable) as refused:
        logfile.read(CATALOGUE, json.dumps(log).encode())
    assert refused.value.code == "commitment_broken"
