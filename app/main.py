"""The Litestar application: routes, error answers, body limit, OpenAPI at /schema."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import AsyncIterator
from typing import Any

from litestar import Litestar
from litestar._openapi.plugin import OpenAPIPlugin
from litestar.datastructures import State
from litestar.middleware.base import DefineMiddleware
from litestar.openapi import OpenAPIConfig

from app.api import accounts, chat, pages, records, routes, socket, stream, tables
from app.api.allow import with_options
from app.api.headers import security_headers
from app.api.identity import UNSET_SECRET, CookieCSRF, csrf_config, identify
from app.api.importing import log_checks
from app.api.lobby_stream import LobbyWatch, tables_stream
from app.api.openapi import truthful
from app.api.projection import namespace
from app.api.refusals import on_error
from app.base.config import Settings
from app.commands.catalogue import Catalogue
from app.runtime import running

MAX_BODY = 64 * 1024


def create_app(settings: Settings | None = None) -> Litestar:
    """The app for these settings (from the environment by default)."""
    settings = settings or Settings.from_env()
    catalogue = Catalogue.with_extras(settings.extra_games)
    csrf = csrf_config(UNSET_SECRET, settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        async with (
            running(settings, catalogue) as (service, hub, guard, tickets, people),
            log_checks(settings.extra_games) as checks,
        ):
            app.state.log_checks = checks
            app.state.service = service
            app.state.hub = hub
            app.state.guard = guard
            app.state.tickets = tickets
            app.state.people = people
            watch = LobbyWatch(people.tables, most=settings.streams_max)
            async with watch.running() as lobby:
                app.state.lobby = lobby
                # What start-up made lives as long as the process: keep the collector off it
                # (full passes over it set the tail latency; see docs/benchmarks.md).
                gc.collect()
                gc.freeze()
                yield

    app = Litestar(
        route_handlers=with_options(
            [
                accounts.sign_up,
                accounts.log_in,
                accounts.log_out,
                accounts.me,
                accounts.change_password,
                accounts.list_tokens,
                accounts.make_token,
                accounts.revoke_token,
                tables.open_table,
                tables.list_tables,
                tables_stream,
                tables.show_table,
                tables.join_table,
                tables.leave_table,
                tables.decline_table,
                tables.start_table,
                tables.ask_rematch,
                tables.show_rematch,
                tables.list_my_games,
                records.show_player,
                records.show_leaderboard,
                records.show_result,
                routes.create_game,
                routes.list_games,
                routes.list_game_types,
                routes.show_game,
                routes.send_command,
                routes.list_events,
                routes.replay,
                routes.timeline,
                routes.issue_ticket,
                routes.export_log,
                routes.import_route(settings.import_max_bytes),
                routes.health,
                routes.prometheus,
                stream.stream,
                chat.read_chat,
                chat.say,
                socket.game_socket,
                pages.page,
                pages.rules,
                pages.rules_picture,
                pages.static,
            ]
        ),
        lifespan=[lifespan],
        before_request=identify,
        middleware=[DefineMiddleware(CookieCSRF, config=csrf)],
        state=State({"settings": settings}),
        exception_handlers={Exception: on_error},
        before_send=[security_headers],
        request_max_body_size=MAX_BODY,
        signature_namespace=namespace(catalogue),
        openapi_config=OpenAPIConfig(title="Board games", version="0.2.0", path="/schema"),
    )
    truthful(openapi_document(app), catalogue)
    return app


def openapi_document(app: Litestar) -> dict[str, Any]:
    """The OpenAPI document the app serves at /schema/openapi.json (made once, then kept)."""
    document: dict[str, Any] = app.plugins.get(OpenAPIPlugin).provide_openapi_schema()
    return document
