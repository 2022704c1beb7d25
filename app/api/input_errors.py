"""The refusals of what a client sent that the edge cannot read or take: a body, a header, a
socket's message. Each is named by what went wrong; `app.api.refusals` gives its status."""

from __future__ import annotations

from app.commands.errors import Forbidden, InvalidInput, ServiceError, Unprocessable


class InvalidRequest(InvalidInput):
    """A body or parameter that is not as the route's schema has it."""

    code = "invalid_request"


class MalformedJson(InvalidInput):
    """A body that is no JSON at all (empty, cut short, or not JSON)."""

    code = "malformed_json"


class TooDeep(InvalidInput):
    """JSON nested deeper than Python can read."""

    code = "too_deep"


class BodyTooLarge(ServiceError):
    """A body, or a socket's message, over its route's limit."""

    code = "body_too_large"


class MissingType(InvalidInput):
    """A command without its `type`."""

    code = "missing_type"


class UnknownCommand(InvalidInput):
    """A command `type` that no hosted game has."""

    code = "unknown_command"


class NotInThisGame(Unprocessable):
    """A command of another hosted game."""

    code = "not_in_this_game"


class BadIdempotencyKey(InvalidInput):
    """An idempotency key that is not 1 to 128 of `A-Za-z0-9-_.:`."""

    code = "bad_idempotency_key"


class BadLastEventId(InvalidInput):
    """A `Last-Event-ID` (or `after`) that is not a whole number."""

    code = "bad_last_event_id"


class InvalidMessage(InvalidInput):
    """A seat's socket message that is neither a hello, a command nor a view."""

    code = "invalid_message"


class NoHello(ServiceError):
    """A seat's socket that said no hello in time."""

    code = "no_hello"


class InvalidLog(InvalidInput):
    """An imported file that is not a game log."""

    code = "invalid_log"


class CsrfFailed(Forbidden):
    """A browser's write with its session cookie but without the CSRF token."""

    code = "csrf_failed"


class MethodNotAllowed(ServiceError):
    """An address that does not take the request's method."""

    code = "method_not_allowed"
