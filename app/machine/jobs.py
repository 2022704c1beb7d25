"""The jobs of machine work: an AI seat's turn, a timer, and the sweep that finds lost work.

Each job loads the game afresh and does nothing when the game has moved past what the job was
made for, so a job that runs late, twice, or after a crash changes nothing.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar, cast

from app.base import metrics
from app.base.config import Settings
from app.commands.errors import StaleVersion, UnknownGame
from app.commands.service import GameService
from app.commands.table import Table
from app.machine.due import DueIndex
from app.machine.lanes import kind, with_people
from app.machine.scheduler import ArqScheduler
from app.machine.work import work_of
from app.store.events import LOBBY_KEY
from app.store.lifecycle import ARCHIVED, ENDED, RUNNING
from domain.errors import RuleError

log = logging.getLogger(__name__)

#: How long overdue work waits before the sweep asks for it again (ms), and between asks.
OVERDUE_MS = 3_000
#: How many overdue games one sweep looks at.
SWEEP_BATCH = 500
#: How many times an AI turn re-thinks when other seats moved while it thought.
AI_ATTEMPTS = 8


J = TypeVar("J", bound=Callable[..., Awaitable[Any]])


class Records(Protocol):
    """Where a finished game is recorded for its players (`app.people.ratings.Ratings`)."""

    async def record(self, game_id: str) -> str:
        """Record the game once; what was done ("busy": not now, to be tried again)."""
        ...


class Starts(Protocol):
    """Where the starts of open tables that a process left midway are finished
    (`app.people.starting.Starts`)."""

    async def repair(self) -> int:
        """Finish the starts left midway; how many."""
        ...


def measured(job: J) -> J:
    """The job, counted by result and timed (`app.base.metrics`)."""

    @functools.wraps(job)
    async def run(ctx: dict[str, Any], *args: Any) -> Any:
        started = time.perf_counter()
        if isinstance(ctx.get("score"), int):  # arq's due time of the job (ms)
            waited = max(0, time.time_ns() // 1_000_000 - ctx["score"]) / 1000
            metrics.JOB_WAIT_SECONDS.labels(ctx.get("queue", "")).observe(waited)
        try:
            result = await job(ctx, *args)
        except Exception:
            metrics.JOBS.labels(job.__name__, "failed").inc()
            raise
        finally:
            metrics.JOB_SECONDS.labels(job.__name__).observe(time.perf_counter() - started)
        outcome = result if isinstance(result, str) else "done"
        metrics.JOBS.labels(job.__name__, outcome.split(":")[0]).inc()
        return result

    return cast(J, run)


@measured
async def ai_turn(ctx: dict[str, Any], game_id: str, seat: int, key: str) -> str:
    """Send the AI seat's command, decided from its own view, unless its turn has passed. In a
    worker that plays AI turns in process, a game of AIs alone is handed to its driver, whose
    turns wait for what people's work leaves (`app.machine.lanes`): the job, which runs in the
    first lane, neither plays it there nor holds one of the queue's places meanwhile."""
    scheduler: ArqScheduler = ctx["scheduler"]
    service: GameService = ctx["service"]
    driver = scheduler.driver
    if driver is None:
        return await play_ai_turn(service, game_id, seat, key, think_ms=scheduler.think_ms)
    table = await service.load(game_id)
    if not with_people(table):
        work = work_of(table, scheduler.think_ms)
        if work is None or not work.ai_turns:
            return "moved on"
        if driver.take(table, work.ai_turns):
            return "driven"
    return await play_ai_turn(service, game_id, seat, key, table, think_ms=scheduler.think_ms)


async def play_ai_turn(
    service: GameService,
    game_id: str,
    seat: int,
    key: str,
    loaded: Table | None = None,
    *,
    think_ms: int | None = None,
    driven: bool = False,
) -> str:
    """An AI turn: from the state `loaded` in this process (no read), or loaded. A turn `driven`
    in process (`app.machine.driver`) carries no idempotency key: the expected version alone
    keeps it from applying twice. With `think_ms` (the scheduler's), how late the turn came is
    measured."""
    for attempt in range(AI_ATTEMPTS):
        table = loaded if loaded is not None and attempt == 0 else await service.load(game_id)
        if table.over or seat not in table.game.to_act(table.state):
            return "moved on"
        if table.game.ai_key(table.state, seat, table.version) != key:
            return "moved on"
        level = table.ai_level(seat)
        if level is None:
            return "not an AI seat"
        if attempt == 0 and think_ms is not None:
            work = work_of(table, think_ms)
            due = next((t.due for t in work.ai_turns if t.seat == seat), None) if work else None
            if due is not None:
                job = "ai_turn_driven" if driven else "ai_turn"
                late = max(0, service.clock() - due) / 1000
                metrics.JOB_LATENESS.labels(job, kind(table)).observe(late)
        view = table.game.view(table.state, seat)  # the seat's own view, never the full state
        thinking = time.perf_counter()
        command = table.game.policies[level](view, secrets.randbits(32), service.clock())
        metrics.AI_THINK_SECONDS.labels(table.game.name, level).observe(
            time.perf_counter() - thinking
        )
        try:
            await service.execute(
                game_id,
                seat,
                command,
                expected_version=table.version,
                idempotency_key=None if driven else f"ai:{seat}:{key}",
                loaded=table,
                by_ai=True,
            )
        except StaleVersion:
            metrics.RETRIES.labels("ai_turn").inc()
            continue  # someone else moved while it thought: think again if still its turn
        except RuleError as refusal:
            if (await service.load(game_id)).version != table.version:
                # Where seats act at once another seat's move does not make the command stale:
                # it took the tile this one wanted meanwhile. Think again on the game as it is.
                metrics.RETRIES.labels("ai_turn").inc()
                continue
            log.error("AI seat %s of game %s was refused: %s", seat, game_id, refusal.message)
            return f"refused: {refusal.code}"
        return "played"
    return "busy"


@measured
async def fire_timer(ctx: dict[str, Any], game_id: str, key: str) -> str:
    """Send a timer's command as the system, if the game still asks for that timer."""
    service: GameService = ctx["service"]
    table = await service.load(game_id)
    timer = next((t for t in table.game.timers(table.state) if t.key == key), None)
    if timer is None:
        return "stale"
    early = timer.due - service.clock()
    if early > 0:  # another process's clock ran ahead of this one's
        await asyncio.sleep(early / 1000)
    late = max(0, service.clock() - timer.due) / 1000
    metrics.JOB_LATENESS.labels("fire_timer", kind(table)).observe(late)
    _, outcome = await service.execute(game_id, None, timer.command, idempotency_key=f"timer:{key}")
    return "fired" if outcome.entries and not outcome.replayed else "no change"


@measured
async def record_game(ctx: dict[str, Any], game_id: str) -> str:
    """Record a finished game for its players (their ratings and histories), then forget its
    due mark. Recording twice changes nothing; a job that fails, or finds the records busy,
    leaves the mark to the sweep, which asks again."""
    records: Records = ctx["records"]
    scheduler: ArqScheduler = ctx["scheduler"]
    done = await records.record(game_id)
    if done != "busy":
        await scheduler.index_of(game_id).done(game_id)
    return done


@measured
async def sweep(ctx: dict[str, Any]) -> int:
    """Ask again for the machine work of every game whose work is overdue; forget the marks
    of games that wait for nothing; with queue 0, finish the open tables' starts left midway
    (`ctx["starts"]`). Returns how many games were asked for again, and starts finished.
    Sweeps the queues `ctx["queues"]` (by number), by default all."""
    service: GameService = ctx["service"]
    scheduler: ArqScheduler = ctx["scheduler"]
    asked = 0
    numbers = ctx.get("queues") or range(scheduler.queues.count)
    for number in numbers:
        asked += await _sweep_queue(service, scheduler, scheduler.indexes[number])
    if 0 in numbers:  # marks left in the index of before the queues were split (`DUE_KEY`)
        asked += await _sweep_queue(service, scheduler, DueIndex(service.store.client), True)
        starts: Starts | None = ctx.get("starts")
        if starts is not None:  # once a sweep, with queue 0: the tables' starts left midway
            asked += await starts.repair()
    return asked


async def _sweep_queue(
    service: GameService, scheduler: ArqScheduler, index: DueIndex, legacy: bool = False
) -> int:
    now = service.clock()
    asked = 0
    driver = scheduler.driver
    for game_id, due in await index.overdue(now - OVERDUE_MS, SWEEP_BATCH):
        if driver is not None and driver.drives(game_id):
            await index.mark(game_id, now)  # its turn waits here for a slot: not lost
            continue
        try:
            table = await service.load(game_id)
        except Exception as error:  # one broken game must not stop the sweep of the others
            log.error("sweep: game %s cannot be loaded: %s", game_id, error)
            await index.clear(game_id, due)
            continue
        if work_of(table, scheduler.think_ms) is None:
            await index.clear(game_id, due)
            continue
        await scheduler.schedule(table, retry=str(now))
        if legacy:
            await index.clear(game_id, due)
            await scheduler.index_of(game_id).mark(game_id, now)
        else:
            await index.mark(game_id, now)
        metrics.RETRIES.labels("sweep").inc()
        asked += 1
    return asked


#: How many games one retention pass handles in each step.
RETENTION_BATCH = 1_000
DAY_MS = 86_400_000


@measured
async def retention(ctx: dict[str, Any]) -> dict[str, int]:
    """The retention policy (hourly): end running games nobody played for `abandon_days` as
    abandoned; archive games ended `compact_after_hours` ago; delete archived games ended
    `delete_after_days` ago when that is set, but for the games a player's account sat at,
    which are kept (their players' ratings and histories are rebuilt from them). A game that
    cannot be handled is logged and passed over. Returns how many games each step touched."""
    service: GameService = ctx["service"]
    settings: Settings = ctx["settings"]
    lifecycle = service.lifecycle
    done = {"abandoned": 0, "archived": 0, "deleted": 0}
    if lifecycle is None:
        return done
    now = service.clock()
    steps: list[tuple[str, str, int, Callable[[GameService, str, int], Awaitable[int]]]] = [
        ("abandoned", RUNNING, now - round(settings.abandon_days * DAY_MS), _abandon),
        ("archived", ENDED, now - round(settings.compact_after_hours * DAY_MS / 24), _archive),
    ]
    if settings.delete_after_days > 0:
        steps.append(
            ("deleted", ARCHIVED, now - round(settings.delete_after_days * DAY_MS), _delete)
        )
    for step, index, before, act in steps:
        for game_id, _ in await lifecycle.before(index, before, RETENTION_BATCH):
            try:
                done[step] += await act(service, game_id, before)
            except UnknownGame:
                log.warning("retention: game %s is not hosted here; passed over", game_id)
            except Exception:
                log.exception("retention: game %s could not be handled", game_id)
    if any(done.values()):
        log.info("retention: %s", done)
    return done


async def _abandon(service: GameService, game_id: str, idle: int) -> int:
    """End the game as abandoned if its last event is older than `idle` (ms); 1 if it did."""
    assert service.lifecycle is not None
    table = await service.load(game_id)
    if table.over:
        await service.lifecycle.ended(game_id, table.at)
        return 0
    command = table.game.abandon()
    if table.at >= idle or command is None:
        return 0
    await service.execute(
        game_id, None, command, expected_version=table.version, idempotency_key="abandon"
    )
    return 1


async def _archive(service: GameService, game_id: str, ended: int) -> int:
    """Replace a finished game's stream by its archive; 1 if it did."""
    assert service.lifecycle is not None
    table = await service.load(game_id)
    stored = await service.store.read(game_id)
    if not table.over or len(stored) != table.version:
        return 0
    return int(await service.lifecycle.archive(game_id, table.version, stored))


async def _delete(service: GameService, game_id: str, ended: int) -> int:
    """Delete an archived game, or keep it for good if a player's account sat at it."""
    assert service.lifecycle is not None
    meta = await service.meta(game_id)
    if any(seat.player for seat in meta.seats):
        await service.lifecycle.keep(game_id, ended)
        return 0
    await service.lifecycle.delete(game_id, LOBBY_KEY)
    return 1
