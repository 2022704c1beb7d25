"""Headers every answer carries, whatever produced it (a route, a refusal, a 404, a stream).

`X-Content-Type-Options: nosniff` on every answer; on HTML pages a Content-Security-Policy
that allows scripts, styles and images from this server only (no inline script).
"""

from __future__ import annotations

from litestar.datastructures import MutableScopeHeaders
from litestar.types import Message, Scope

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
    "form-action 'self'"
)


async def security_headers(message: Message, scope: Scope) -> None:
    """A before-send hook: adds the headers above to the start of every HTTP answer."""
    if message["type"] != "http.response.start":
        return
    headers = MutableScopeHeaders.from_message(message)
    headers["X-Content-Type-Options"] = "nosniff"
    if headers.get("content-type", "").startswith("text/html"):
        headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
