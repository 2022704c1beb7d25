"""`OPTIONS` of an address that several handlers share.

Litestar 2 answers `OPTIONS` by itself (204, `Allow`), but where two handlers share an address
its `Allow` lists the methods of the first one registered only (litestar-org/litestar#4169,
fixed in Litestar 3). `with_options` gives each such address an `OPTIONS` handler of its own
whose `Allow` lists the methods of all of them; Litestar then adds none there.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from litestar import HttpMethod, Response, route
from litestar.handlers import HTTPRouteHandler


def with_options(handlers: Sequence[Any]) -> list[Any]:
    """`handlers`, after an `OPTIONS` handler for each address that two or more of them share."""
    methods: dict[str, set[str]] = defaultdict(set)
    sharing: dict[str, int] = defaultdict(int)
    for handler in handlers:
        if isinstance(handler, HTTPRouteHandler):
            for path in handler.paths:
                methods[path] |= set(handler.http_methods)
                sharing[path] += 1
    shared = [path for path in methods if sharing[path] > 1 and "OPTIONS" not in methods[path]]
    # first: Litestar adds its own to an address whose first handler takes no OPTIONS
    return [*(_options(path, methods[path] | {"OPTIONS"}) for path in shared), *handlers]


def _options(path: str, methods: set[str]) -> HTTPRouteHandler:
    allow = ", ".join(sorted(methods))

    async def options() -> Response[None]:
        return Response(None, status_code=204, headers={"Allow": allow})

    handler: HTTPRouteHandler = route(
        path, http_method=[HttpMethod.OPTIONS], include_in_schema=False, name=f"options {path}"
    )(options)
    return handler
