"""Settings from the environment, read once at start-up.

Each setting names its environment variable and says what it does; `docs/operations.md` lists
them all (a test keeps that page and this module in step). The environment's strings become
typed settings through `msgspec.convert` (numbers and flags from their text); a list is written
with commas, a flag as 1/0, true/false, yes/no or on/off; a value that does not fit its
setting is refused at start-up with the variable's name.
"""

from __future__ import annotations

import dataclasses
import os
import typing
from dataclasses import dataclass, field
from typing import Any

import msgspec


def _env(name: str, doc: str, default: Any) -> Any:
    return field(default=default, metadata={"env": name, "doc": doc})


@dataclass(frozen=True)
class Settings:
    """`redis_url` None means embedded: fakeredis in process and the worker as a task."""

    redis_url: str | None = _env(
        "REDIS_URL",
        "the Redis to use (`redis+cluster://host:port`: a cluster); unset: embedded fakeredis",
        None,
    )
    redis_cluster: bool = _env(
        "REDIS_CLUSTER", "REDIS_URL names a node of a Redis Cluster (as `redis+cluster://`)", False
    )
    queues: int = _env(
        "QUEUES", "how many work queues machine work is spread over (a game keeps to one)", 1
    )
    worker_queues: tuple[str, ...] = _env(
        "WORKER_QUEUES", "the queues a worker serves, by number (e.g. `0,2`); unset: all", ()
    )
    streams_max: int = _env(
        "STREAMS_MAX", "open streams one API process serves; more get 503 with Retry-After", 20000
    )
    import_max_bytes: int = _env(
        "IMPORT_MAX_BYTES",
        "the largest log `POST /api/games/import` takes (every other body: 64 KiB)",
        1024 * 1024,
    )
    log_format: str = _env("LOG_FORMAT", "`text`, or `json`: one JSON object a line", "text")
    port: int = _env("PORT", "the API's port", 8000)
    host: str = _env("HOST", "the API's address", "127.0.0.1")
    worker_in_process: bool | None = _env(
        "WORKER_IN_PROCESS", "run the worker inside the API process (1 when embedded, else 0)", None
    )
    think_seconds: float = _env("AI_THINK_SECONDS", "how long a turn-based AI waits to move", 0.6)
    machine_slots: int = _env(
        "MACHINE_SLOTS",
        "AI turns of games of AIs alone a worker runs at once; none start while people's work runs",
        4,
    )
    poll_seconds: float = _env("WORKER_POLL_SECONDS", "how often a worker polls its queue", 0.05)
    keep_alive_seconds: float = _env(
        "SSE_KEEP_ALIVE_SECONDS", "the stream's keep-alive comment interval", 15.0
    )
    stream_max_seconds: float = _env(
        "SSE_MAX_SECONDS",
        "a stream ends after this long; its client reconnects and misses nothing",
        600.0,
    )
    socket_recheck_seconds: float = _env(
        "SOCKET_RECHECK_SECONDS",
        "how often a process asks whether the sessions and personal tokens its streams and "
        "sockets act with still last (their end is told at once; this catches one missed)",
        120.0,
    )
    extra_games: tuple[str, ...] = _env(
        "EXTRA_GAMES", "more games to host, `module:attribute`, comma separated", ()
    )
    redis_timeout: float = _env(
        "REDIS_TIMEOUT_SECONDS", "how long any Redis call may take before it fails", 2.0
    )
    retry_after: int = _env("RETRY_AFTER_SECONDS", "the Retry-After of a 503 answer", 2)
    create_per_minute: int = _env(
        "RATE_CREATE_PER_MINUTE", "games one client address may create a minute (0: no limit)", 30
    )
    commands_per_minute: int = _env(
        "RATE_COMMANDS_PER_MINUTE",
        "commands one client address may send a minute (0: no limit)",
        1200,
    )
    open_games: int = _env(
        "MAX_OPEN_GAMES", "running games one client address may have created (0: no limit)", 20
    )
    views_per_minute: int = _env(
        "RATE_VIEWS_PER_MINUTE",
        "views, event lists, replays, timelines, exports and lobby pages one client address may "
        "ask for a minute, over HTTP or its sockets (0: no limit)",
        1200,
    )
    tickets_per_minute: int = _env(
        "RATE_TICKETS_PER_MINUTE",
        "stream tickets one client address may ask a minute (0: no limit)",
        120,
    )
    streams_per_minute: int = _env(
        "RATE_STREAMS_PER_MINUTE",
        "streams and sockets one client address may open a minute (0: no limit)",
        120,
    )
    streams_per_address: int = _env(
        "MAX_STREAMS_PER_ADDRESS",
        "streams and sockets one client address may hold open in one API process (0: no limit)",
        50,
    )
    session_days: float = _env(
        "SESSION_DAYS", "a browser session lasts this long after logging in", 30.0
    )
    secure_cookies: bool = _env(
        "SECURE_COOKIES",
        "mark the session and CSRF cookies Secure (behind TLS); a request that came by https "
        "gets a Secure session cookie anyway",
        False,
    )
    logins_per_minute: int = _env(
        "RATE_LOGINS_PER_MINUTE",
        "logins and sign-ups one client address may try a minute (0: no limit)",
        20,
    )
    logins_per_name: int = _env(
        "RATE_LOGINS_PER_NAME",
        "failed logins to one account name from one client address in 15 minutes, and wrong "
        "current passwords to change one account's, from anywhere (0: no limit)",
        10,
    )
    login_delay_max: float = _env(
        "LOGIN_DELAY_MAX_SECONDS",
        "past RATE_LOGINS_PER_NAME failed logins to a name from anywhere in 15 minutes, each "
        "login to it waits 0.5 s, doubling with each failure up to this (0: no wait)",
        8.0,
    )
    hash_workers: int = _env(
        "HASH_WORKERS",
        "passwords one API process hashes or checks at once (argon2id: 64 MiB each)",
        2,
    )
    hash_queue: int = _env(
        "HASH_QUEUE",
        "passwords waiting to be checked in one API process; more get 503 `busy_hashing`",
        32,
    )
    table_open_minutes: float = _env(
        "TABLE_OPEN_MINUTES", "an open table that nobody starts within this long closes", 30.0
    )
    chat_per_minute: int = _env(
        "RATE_CHAT_PER_MINUTE",
        "chat messages one seat may send a minute in one game (0: no limit)",
        10,
    )
    chat_kept: int = _env(
        "CHAT_KEPT", "chat messages kept per game, about (the oldest go first)", 1000
    )
    access_log: bool = _env(
        "ACCESS_LOG", "log a line per HTTP request (costs every command some CPU)", False
    )
    asgi_sockets: bool = _env(
        "ASGI_SOCKETS",
        "serve the seats' sockets through Litestar's route, not straight from the connections",
        False,
    )
    asgi_commands: bool = _env(
        "ASGI_COMMANDS",
        "serve a program's command POST through Litestar's route, not below it",
        False,
    )
    trust_proxy: bool = _env(
        "TRUST_PROXY", "take the client address from X-Forwarded-For (behind a proxy)", False
    )
    trusted_proxies: tuple[str, ...] = _env(
        "TRUSTED_PROXIES",
        "with TRUST_PROXY, the proxies whose X-Forwarded-For is believed: addresses and networks "
        "(`10.0.0.0/8`), comma separated",
        ("127.0.0.1",),
    )
    metrics_port: int = _env(
        "METRICS_PORT", "a worker process serves its measures (Prometheus) on this port (0: not)", 0
    )
    abandon_days: float = _env(
        "ABANDON_AFTER_DAYS", "a running game with no command for this long ends as abandoned", 30.0
    )
    compact_after_hours: float = _env(
        "COMPACT_AFTER_HOURS", "a finished game is compacted this long after its end", 24.0
    )
    delete_after_days: float = _env(
        "DELETE_FINISHED_AFTER_DAYS",
        "remove finished games this long after their end (0: keep)",
        0.0,
    )

    @property
    def embedded(self) -> bool:
        return self.redis_url is None

    @property
    def cluster(self) -> bool:
        """Whether the Redis is a Redis Cluster."""
        url = self.redis_url or ""
        return not self.embedded and (self.redis_cluster or url.startswith("redis+cluster://"))

    @property
    def served_queues(self) -> list[int]:
        """The numbers of the queues this process's worker serves."""
        if not self.worker_queues:
            return list(range(self.queues))
        wanted = sorted({int(q) for q in self.worker_queues})
        if not all(0 <= q < self.queues for q in wanted):
            raise ValueError(f"WORKER_QUEUES {wanted} outside 0..{self.queues - 1}")
        return wanted

    @property
    def runs_worker(self) -> bool:
        """Whether this API process runs the worker: by default only when embedded."""
        return self.embedded if self.worker_in_process is None else self.worker_in_process

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Settings:
        """The settings of the environment's variables (unset or empty: the default);
        `ValueError` naming the variable whose value does not fit its setting."""
        environ = dict(os.environ) if environ is None else environ
        kinds = typing.get_type_hints(cls)
        given: dict[str, Any] = {}
        names: dict[str, str] = {}
        for item in dataclasses.fields(cls):
            name = names[item.name] = item.metadata["env"]
            raw = environ.get(name)
            if raw is not None and raw != "":
                given[item.name] = _text(kinds[item.name], raw)
        try:
            return msgspec.convert(given, cls, strict=False)
        except msgspec.ValidationError as error:
            said, _, where = str(error).partition(" - at `$.")
            name = names.get(where.rstrip("`"), where)
            raise ValueError(f"{name}={environ.get(name)!r}: {said}") from None


#: The words a flag is written with.
_FLAGS = {"1": True, "true": True, "yes": True, "on": True}
_FLAGS |= {"0": False, "false": False, "no": False, "off": False}


def _text(kind: Any, raw: str) -> Any:
    """A variable's text as `msgspec.convert` reads it for a setting of type `kind`: a list
    from commas, a flag from its word; a number without spaces; any other text as it is."""
    if typing.get_origin(kind) is tuple:
        return [part.strip() for part in raw.split(",") if part.strip()]
    kinds = typing.get_args(kind) or (kind,)
    if bool in kinds:
        return _FLAGS.get(raw.strip().lower(), raw)
    return raw if str in kinds else raw.strip()


def documented() -> list[tuple[str, str, Any]]:
    """(environment variable, what it does, default) of every setting."""
    return [(f.metadata["env"], f.metadata["doc"], f.default) for f in dataclasses.fields(Settings)]
