"""`python -m app` serves the API; `python -m app replay FILE` replays an exported log;
`python -m app verify FILE` checks an exported log's fair deal (its commitment) and replays it;
`python -m app ratings rebuild` makes the players' records again from the games' logs."""

from __future__ import annotations

import argparse
import gc
import logging
import os
import sys
from pathlib import Path
from typing import Any

from app.commands.errors import ServiceError

#: The garbage collector's thresholds in the server: a young pass every 5,000 allocations
#: (Python's default is 700), and a full pass considered after every pass of the middle
#: generation (by default after ten), so that the cycles of dropped connections, which live
#: long enough to reach the old generation, are still freed about as soon as by default.
#: (20,000 saved about 2% of a socket command's CPU, but let the memory of dropped streams
#: grow past what `tests/faults/test_streams_dropped.py` allows: docs/benchmarks.md.)
GC_THRESHOLDS = (5_000, 10, 1)
#: How long an idle HTTP connection stays open for the client's next request.
KEEP_ALIVE_SECONDS = 30


def serve() -> int:
    import uvicorn

    from app.api.callers import proxies
    from app.api.socket import MAX_MESSAGE
    from app.base.config import Settings
    from app.main import MAX_BODY, create_app
    from app.wire.commandwire import CommandWire
    from app.wire.frontdoor import FrontDoor
    from app.wire.guarded import GuardedSansIO
    from app.wire.seatwire import SeatWire

    settings = Settings.from_env()
    from app.logs import RedactedAccess, configure

    configure(settings.log_format)
    # A command leaves little cyclic garbage but allocates a few hundred containers: at the
    # default thresholds, the collector's passes took about a tenth of the server's CPU under
    # load (docs/benchmarks.md, "Side by side with boardgame.io"; the A/B is in its git history).
    gc.set_threshold(*GC_THRESHOLDS)
    app = create_app(settings)

    class Server(uvicorn.Server):
        """Ends every stream cleanly when asked to stop, instead of cutting them later."""

        def handle_exit(self, sig: int, frame: Any) -> None:
            hub = getattr(app.state, "hub", None)
            if hub is not None:
                hub.end_streams()
            super().handle_exit(sig, frame)

    seat_sockets = SeatWire.of(app, access_log=settings.access_log)
    served = app if settings.asgi_commands else CommandWire(app, MAX_BODY)
    config = uvicorn.Config(
        served,
        host=settings.host,
        port=settings.port,
        timeout_graceful_shutdown=3,
        # Longer than the idle expiry of common HTTP clients (httpx and Node: 5 s, as
        # uvicorn's default was): the client closes an idle connection first, so it never
        # sends a request on one the server is closing at that instant.
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        log_level="info",
        # What measured fastest here (docs/benchmarks.md): uvloop's event loop and httptools'
        # HTTP parser, each where it is installed; no line logged per request unless asked;
        # the seats' sockets served below ASGI (any other WebSocket path goes to the app),
        # their plain upgrades taken before the HTTP parser (`app.wire.frontdoor`),
        # a program's command POST below Litestar (`app.wire.commandwire`);
        # through Litestar's route, uvicorn's sans-I/O protocol with the same bounds.
        loop="auto",
        http="auto" if settings.asgi_sockets else FrontDoor.of(seat_sockets),
        ws=GuardedSansIO if settings.asgi_sockets else seat_sockets,
        ws_max_size=MAX_MESSAGE,
        access_log=settings.access_log,
        # The client's address and scheme from X-Forwarded-For and -Proto only behind a
        # trusted proxy (TRUST_PROXY; uvicorn would take them from any peer at 127.0.0.1),
        # by the same rule and list as `app.api.callers.address_of`.
        proxy_headers=settings.trust_proxy,
        forwarded_allow_ips=list(proxies(settings.trusted_proxies).entries),
    )
    # uvicorn's logging is set up by its Config: a ticket or token in a query never reaches it
    logging.getLogger("uvicorn.access").addFilter(RedactedAccess())
    Server(config).run()
    return 0


def _read(path: Path) -> tuple[Any, Any, Any]:
    """The log at `path` read and checked against the rules: (log, game, state); `OSError`
    or `ServiceError` when it cannot be."""
    from app.api import logfile
    from app.base.config import Settings
    from app.commands.catalogue import Catalogue

    catalogue = Catalogue.with_extras(Settings.from_env().extra_games)
    log, game, _, state = logfile.read(catalogue, path.read_bytes())
    return log, game, state


def replay(path: Path) -> int:
    try:
        log, game, state = _read(path)
    except ServiceError as refusal:
        print(f"{path}: {refusal.message}", file=sys.stderr)
        return 1
    ending = "over" if game.is_over(state) else "not over"
    print(f"{game.name}: {len(log.events)} events replayed; the game is {ending}.")
    for standing in game.standings(state):
        name = log.seats[standing.seat].name
        print(f"{standing.rank}. {name} (seat {standing.seat}): {standing.score}")
    return 0


def verify(path: Path) -> int:
    """Exit 0 when the log's revealed seed and salt hash to its commitment and every event
    replays by the rules from that seed; 1 with the reason when either fails. Needs no Redis
    and no server."""
    try:
        log, game, state = _read(path)
    except OSError as error:
        print(f"{path}: cannot be read: {error.strerror or error}.", file=sys.stderr)
        return 1
    except ServiceError as refusal:
        print(f"{path}: not verified: {refusal.message}", file=sys.stderr)
        return 1
    ending = "to its end" if game.is_over(state) else "(the game is not over)"
    replayed = f"its {len(log.events)} events replay by the rules {ending}"
    if log.commitment is None:
        print(
            f"{path}: no commitment in this log (its seed was chosen by its creator, public"
            f" from the start, or the log comes from before commitments); {replayed}."
        )
    else:
        print(
            f"{path}: fair deal verified: seed {log.setup.seed} and salt {log.salt} hash to the"
            f" commitment {log.commitment} published at the start, and {replayed}."
        )
    return 0


def rebuild_ratings(processes: int) -> int:
    """Every title's ratings, statistics and histories again from nothing, from the logs of
    the finished games in the Redis of `REDIS_URL` (archived or not), read and folded by
    `processes` processes."""
    import asyncio
    import time

    from app.base.config import Settings
    from app.rebuilding import rebuild

    settings = Settings.from_env()
    if settings.redis_url is None:
        print("ratings rebuild needs REDIS_URL (embedded, nothing is kept)", file=sys.stderr)
        return 2
    started = time.perf_counter()
    count = asyncio.run(rebuild(settings, processes))
    games = "game" if count == 1 else "games"
    print(f"ratings rebuilt from {count} finished {games} in {time.perf_counter() - started:.1f} s")
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m app", description=__doc__)
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("serve", help="serve the API (the default)")
    replaying = commands.add_parser("replay", help="replay an exported log and print the scores")
    replaying.add_argument("file", type=Path)
    verifying = commands.add_parser(
        "verify", help="check an exported log's commitment to its seed, and replay it"
    )
    verifying.add_argument("file", type=Path)
    rating = commands.add_parser("ratings", help="the players' records")
    rating.add_argument("action", choices=["rebuild"], help="make them again from the game logs")
    rating.add_argument(
        "--processes",
        type=int,
        default=min(os.cpu_count() or 1, 8),
        help="processes that read and fold the logs (default: one per CPU, at most 8)",
    )
    args = parser.parse_args(argv)
    if args.command == "replay":
        return replay(args.file)
    if args.command == "verify":
        return verify(args.file)
    if args.command == "ratings":
        return rebuild_ratings(args.processes)
    return serve()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
