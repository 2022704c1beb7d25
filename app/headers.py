"""Headers every answer carries, whatever produced it (a route, a refusal, a 404, a stream).

`X-Content-Type-Options: nosniff` on every answer; on HTML pages a Content-Security-Policy
that allows scripts, styles and images from this server only (no inline script).
"""

from __future__ import annotations

from litestar.enums import ScopeType
from litestar.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
    "form-action 'self'"
)


def security_headers(app: ASGIApp) -> ASGIApp:
    """ASGI middleware adding the headers above to every HTTP answer."""

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            await app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers.append((b"x-content-type-options", b"nosniff"))
                content_type = next((v for k, v in headers if k.lower() == b"content-type"), b"")
                if content_type.startswith(b"text/html"):
                    headers.append((b"content-security-policy", CONTENT_SECURITY_POLICY.encode()))
                message = {**message, "headers": headers}
            await send(message)

        await app(scope, receive, sending)

    return middleware
