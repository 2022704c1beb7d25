"""How a refusal looks, and which HTTP status each kind of refusal gets.

Every 4xx and 5xx answer is `{"code", "message"}`: a stable code and a sentence a player
understands. The service's errors carry no status: `STATUS` gives it here. While Redis does not
answer, every route answers 503 `store_unavailable` with a `Retry-After`.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException, NotFoundException, ValidationException
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.api.input_errors import (
    BodyTooLarge,
    CsrfFailed,
    InvalidRequest,
    MalformedJson,
    MethodNotAllowed,
    NoHello,
    TooDeep,
)
from app.base.config import Settings
from app.commands.errors import (
    Busy,
    BusyHashing,
    Conflict,
    Forbidden,
    GameRunning,
    InvalidInput,
    NotFound,
    RateLimited,
    ServiceError,
    StaleVersion,
    StoreUnavailable,
    StreamsFull,
    Unauthorized,
    UnknownGame,
    Unprocessable,
)
from domain.errors import RuleError, TurnError

log = logging.getLogger(__name__)

#: The refusal of each status Litestar answers by itself; any other 4xx is `InvalidRequest`.
_LITESTAR: dict[int, type[ServiceError]] = {
    400: InvalidRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    405: MethodNotAllowed,
    413: BodyTooLarge,
}
_HTTP_MESSAGES = {
    404: "There is nothing at this address.",
    405: "This address does not take that method.",
}


#: The HTTP status of each kind of refusal (the service's errors carry none).
STATUS: dict[type[Exception], int] = {
    InvalidInput: 400,
    Unauthorized: 401,
    Forbidden: 403,
    UnknownGame: 404,
    NotFound: 404,
    MethodNotAllowed: 405,
    NoHello: 408,
    Conflict: 409,
    StaleVersion: 409,
    Busy: 409,
    GameRunning: 409,
    TurnError: 409,
    BodyTooLarge: 413,
    Unprocessable: 422,
    RuleError: 422,
    RateLimited: 429,
    StoreUnavailable: 503,
    StreamsFull: 503,
    BusyHashing: 503,
}

#: What a Redis that is away (restarting, down, hung, loading its data) raises.
UNAVAILABLE = (RedisConnectionError, RedisTimeoutError, ConnectionError, asyncio.TimeoutError)


def status_of(error: Exception | type[Exception]) -> int:
    """The status of a refusal (or of a kind of refusal): that of the nearest kind it is."""
    kind = error if isinstance(error, type) else type(error)
    for base in kind.__mro__:
        if base in STATUS:
            return STATUS[base]
    return 400


class Refusal(msgspec.Struct, frozen=True):
    """Every 4xx answer: a stable code and a sentence a player understands."""

    code: str
    message: str


def judged(error: BaseException) -> tuple[int, str, str] | None:
    """The status, code and message of an error that HTTP and the seat's socket answer alike,
    or None."""
    if isinstance(error, UNAVAILABLE):
        message = "The game store is not answering right now; send it again shortly."
        return 503, StoreUnavailable.code, message
    if isinstance(error, ServiceError | RuleError):
        return status_of(error), error.code, error.message
    if isinstance(error, RecursionError):
        return judged(TooDeep("What was sent is nested too deeply."))
    return None


def answer_of(
    error: Exception, settings: Settings, method: str, path: str
) -> tuple[int, Refusal, dict[str, str] | None]:
    """The status, body and extra headers of the answer to an error a route's own steps
    raise (`app.wire.commandwire` answers with it too); an unexpected one is logged and 500."""
    if isinstance(error, UNAVAILABLE):
        log.warning("Redis unavailable on %s %s: %s", method, path, error)
    if known := judged(error):
        status, code, message = known
        headers = None
        if status == 503:
            headers = {"Retry-After": str(settings.retry_after)}
        if isinstance(error, RateLimited | StreamsFull | BusyHashing):
            headers = {"Retry-After": str(error.retry_after)}
        return status, Refusal(code, message), headers
    log.exception("unexpected error on %s %s", method, path)
    return 500, Refusal("internal_error", "Something went wrong on our side."), None


def on_error(request: Request[Any, Any, Any], error: Exception) -> Response[Any]:
    """Map any exception to a refusal; an unexpected one is logged and answered 500."""
    headers: dict[str, str] | None = None
    if isinstance(error, HTTPException) and error.status_code < 500:
        if isinstance(error, NotFoundException) and _a_page(request):
            return not_found_page()
        headers = dict(error.headers or {}) or None  # 405 keeps its Allow
        error = _named(request, error)
    settings = request.app.state.settings
    status, body, more = answer_of(error, settings, request.method, request.url.path)
    return Response(body, status_code=status, headers=more or headers)


def _named(request: Request[Any, Any, Any], error: HTTPException) -> ServiceError:
    """The named refusal of an HTTP error Litestar raised itself."""
    if _malformed(error):
        return MalformedJson("The body is not valid JSON.")
    if isinstance(error, ValidationException):
        return InvalidRequest(_validation_message(error))
    if "CSRF" in str(error.detail):
        return CsrfFailed("Send the csrftoken cookie's value as X-CSRFToken (reload the page).")
    status = error.status_code
    message = _HTTP_MESSAGES.get(status, str(error.detail))
    if status == 413:
        message = f"The request body is larger than {_body_limit(request)}."
    return _LITESTAR.get(status, InvalidRequest)(message)


NOT_FOUND_PAGE = Path(__file__).resolve().parents[1] / "web" / "not-found.html"


def _a_page(request: Request[Any, Any, Any]) -> bool:
    """A person's browser asking for a page: a GET outside the API, the client's files and the
    rules' pictures (a program asking those is answered in JSON, like every API refusal)."""
    path = request.url.path
    machine = path.startswith(("/api/", "/static/", "/rules-files/")) or path == "/api"
    return request.method in ("GET", "HEAD") and not machine


def not_found_page() -> Response[bytes]:
    """The HTML page of an address that is no page here, with its heading and the way back."""
    body = NOT_FOUND_PAGE.read_bytes()
    return Response(body, status_code=404, media_type="text/html; charset=utf-8")


def _body_limit(request: Request[Any, Any, Any]) -> str:
    """The largest body the route takes, in words (64 KiB but for an import)."""
    handler = request.scope.get("route_handler")
    limit = getattr(handler, "resolve_request_max_body_size", lambda: None)() or 64 * 1024
    return f"{limit // 1024:,} KiB" if limit % 1024 == 0 else f"{limit:,} bytes"


def _malformed(error: HTTPException) -> bool:
    """A body that is no JSON at all (empty, cut short, or not JSON), as Litestar reports it."""
    if isinstance(error, ValidationException):
        extra = error.extra if isinstance(error.extra, list) else []
        return extra == [{"message": "'data'", "key": "data", "source": "body"}]
    detail = str(error.detail)
    return error.status_code == 400 and detail.startswith(("JSON is malformed", "Input data was"))


def _validation_message(error: ValidationException) -> str:
    """Litestar's validation details as one sentence: what is wrong, and where."""
    problems = []
    for item in error.extra if isinstance(error.extra, list) else []:
        if not isinstance(item, dict):
            continue
        key, message = item.get("key"), str(item.get("message", ""))
        if key and key != "data":
            problems.append(f"{message} (at {key})")
        else:
            problems.append(message)
    return "; ".join(problems) + "." if problems else "The request is not valid."
