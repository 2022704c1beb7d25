"""Who is asking, worked out in one place for every edge (HTTP, the stream, the seat's socket
served by Litestar or below ASGI): the caller's seat, where its events resume, its address."""

from __future__ import annotations

import functools
import ipaddress
import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from uvicorn.middleware.proxy_headers import _TrustedHosts

from app.api.input_errors import BadLastEventId
from app.api.tickets import Tickets
from app.base.config import Settings
from app.commands.errors import BadVersion, NotSeated, Unauthorized
from app.commands.seats import seat_of, seat_of_player
from app.commands.table import Table
from app.people.accounts import Player
from app.people.tokens import PersonalTokens, identity_of, is_personal

#: `Authorization: Bearer <token>`, the scheme in any case (as the schema declares it).
BEARER = re.compile(r"[Bb][Ee][Aa][Rr][Ee][Rr] ([A-Za-z0-9_-]{1,64})")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")
SEND_TOKEN = (
    "Log in, or send your seat's token or your personal token as 'Authorization: Bearer <token>'."
)
REVOKED = "That personal token is unknown or was revoked."


class UnknownToken(Unauthorized):
    """A personal token that is unknown or was revoked."""

    code = "unknown_token"


class NotLoggedIn(Unauthorized):
    """No session where one is needed, or one that has ended."""

    code = "not_logged_in"


class Caller(NamedTuple):
    """Who asks: its seat (None: a spectator), and the keys of the identity it acts with (a
    session, a personal token: `app.store.ends`; none for a seat token or nobody)."""

    seat: int | None
    identity: tuple[str, ...] = ()


def ended(key: str) -> Unauthorized:
    """The refusal of a caller whose identity (`key`) has ended."""
    if key.startswith("ptoken:"):
        return UnknownToken(REVOKED)
    return NotLoggedIn("Your session has ended: log in again.")


def bearer_of(header: str | None) -> str | None:
    """The seat token of an Authorization header; None without one."""
    if header is None:
        return None
    found = BEARER.fullmatch(header)
    if found is None:
        raise Unauthorized(SEND_TOKEN)
    return found.group(1)


def seat_of_token(
    table: Table, token: str | None, *, required: bool = False, player: Player | None = None
) -> int | None:
    """The seat whose seat token this is, else the seat of the `player` (logged in, or with a
    personal token); None for a spectator unless a seat is `required`."""
    if token is not None and not is_personal(token):
        seat = seat_of(table.seats, token) if _TOKEN.fullmatch(token) else None
        if seat is None:
            raise Unauthorized("That token belongs to no seat of this game.")
        return seat
    if player is not None:
        seat = seat_of_player(table.seats, player.key)
        if seat is None and required:
            raise NotSeated(f"{player.name} has no seat at this game.")
        return seat
    if required:
        raise Unauthorized(SEND_TOKEN)
    return None


async def caller_of(
    table: Table,
    tickets: Tickets,
    *,
    ticket: str | None,
    authorization: str | None,
    token: str | None = None,
    player: Player | None = None,
    identity: tuple[str, ...] = (),
    personal: PersonalTokens | None = None,
) -> Caller:
    """The caller: from a stream ticket (`?ticket=`, once; refused once the identity it was
    issued to has ended), else the Authorization header, else a token the caller gave in its
    first message (a seat's, or a personal token that `personal` knows), else the logged-in
    `player`'s seat; a spectator's seat is None. Without `personal`, a personal token's player
    is `player` and its identity `identity` (an HTTP request's, found already)."""
    if ticket is not None:
        ticketed = await tickets.redeem(table.id, ticket)
        if ticketed is None:
            raise Unauthorized("That ticket is used, too old, or of another game.")
        if ticketed.ended is not None:
            raise ended(ticketed.ended)
        return Caller(ticketed.seat, ticketed.identity)
    token = bearer_of(authorization) or token
    if token is not None and is_personal(token) and personal is not None:
        player = await personal.player(token)
        if player is None:
            raise UnknownToken(REVOKED)
        identity = identity_of(token, player)
    seat = seat_of_token(table, token, player=player)
    if token is not None and not is_personal(token):
        identity = ()  # a seat token acts, whoever is logged in
    return Caller(seat, identity if player is not None else ())


def resume_after(table: Table, raw: str | int) -> int:
    """Where a client's events resume: after version `raw` (0 to the game's version)."""
    if isinstance(raw, str):
        if not (raw.isascii() and raw.isdigit() and len(raw) <= 18):
            raise BadLastEventId(
                "Last-Event-ID (or after) is the version of the last event you have: a whole "
                "number."
            )
        raw = int(raw)
    if not 0 <= raw <= table.version:
        raise BadVersion(
            f"This game has {table.version} events; you cannot resume after event {raw}."
        )
    return raw


class Proxies:
    """The proxies whose `X-Forwarded-For` is believed (`TRUSTED_PROXIES`: addresses and
    networks), judged by uvicorn's own rule (`--forwarded-allow-ips`), which `python -m app`
    gives uvicorn too: from a trusted peer, the right-most address of the header that is not a
    trusted proxy (each proxy appends the address it saw; what came before it, the client may
    have written); all of them trusted, the left-most."""

    def __init__(self, entries: Iterable[str]) -> None:
        self.entries = tuple(entries)
        for entry in self.entries:
            try:
                ipaddress.ip_network(entry)
            except ValueError:
                raise ValueError(
                    f"TRUSTED_PROXIES: {entry!r} is neither an address nor a network"
                ) from None
        self.hosts = _TrustedHosts(list(self.entries))

    def client(self, peer: str | None, forwarded: Sequence[str]) -> str:
        """The client's address: from the header lines `forwarded` (in their order) when the
        `peer` is a trusted proxy, else the peer's."""
        if forwarded and peer in self.hosts:
            host, _ = self.hosts.get_trusted_client_address(", ".join(forwarded))
            if host:
                return host[:64]
        return peer or "unknown"


@functools.cache
def proxies(entries: tuple[str, ...]) -> Proxies:
    """The `Proxies` of these settings (made once)."""
    return Proxies(entries)


def address_of(peer: str | None, forwarded: Sequence[str], settings: Settings) -> str:
    """Who is asking, for the limits: the peer's address, or behind a trusted proxy
    (`TRUST_PROXY`, the peer among `TRUSTED_PROXIES`) the client's that it forwarded."""
    if not settings.trust_proxy:
        return peer or "unknown"
    return proxies(settings.trusted_proxies).client(peer, forwarded)
