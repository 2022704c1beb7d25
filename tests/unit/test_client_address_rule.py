"""The client address the limits count (`app.api.callers.address_of`): the peer's, unless
`TRUST_PROXY` is on and the peer is one of `TRUSTED_PROXIES`; then the right-most address of
`X-Forwarded-For` that is not a trusted proxy (a proxy appends what it saw, so whatever stands
left of that, the client wrote itself)."""

from __future__ import annotations

import pytest

from app.api.callers import Proxies, address_of
from app.base.config import Settings

BEHIND = Settings(trust_proxy=True)  # TRUSTED_PROXIES: 127.0.0.1


def test_without_trust_proxy_the_header_is_never_read() -> None:
    assert address_of("127.0.0.1", ["203.0.113.9"], Settings()) == "127.0.0.1"


def test_a_client_cannot_choose_its_address_by_writing_the_header() -> None:
    # the client wrote 203.0.113.9; the proxy at 127.0.0.1 appended the address it saw
    assert address_of("127.0.0.1", ["203.0.113.9, 198.51.100.7"], BEHIND) == "198.51.100.7"
    assert address_of("127.0.0.1", ["203.0.113.9", "198.51.100.7"], BEHIND) == "198.51.100.7"


def test_a_peer_that_is_no_trusted_proxy_is_not_believed() -> None:
    assert address_of("192.0.2.4", ["203.0.113.9"], BEHIND) == "192.0.2.4"


def test_the_trusted_proxies_in_a_chain_are_passed_over_networks_too() -> None:
    chain = Settings(trust_proxy=True, trusted_proxies=("127.0.0.1", "10.0.0.0/8"))
    forwarded = ["203.0.113.9, 198.51.100.7, 10.1.2.3"]
    assert address_of("127.0.0.1", forwarded, chain) == "198.51.100.7"
    # every hop a trusted proxy: the left-most (uvicorn's rule)
    assert address_of("127.0.0.1", ["10.0.0.5, 10.1.2.3"], chain) == "10.0.0.5"


def test_an_empty_or_missing_header_leaves_the_peer() -> None:
    assert address_of("127.0.0.1", [], BEHIND) == "127.0.0.1"
    assert address_of("127.0.0.1", [" , "], BEHIND) == "127.0.0.1"
    assert address_of(None, [], BEHIND) == "unknown"


def test_a_port_is_not_part_of_the_address_and_a_long_entry_is_cut() -> None:
    assert address_of("127.0.0.1", ["198.51.100.7:4711"], BEHIND) == "198.51.100.7"
    assert address_of("127.0.0.1", ["x" * 300], BEHIND) == "x" * 64


@pytest.mark.parametrize("entry", ["*", "proxy.example", "10.0.0.1/8"])
def test_a_trusted_proxy_that_is_no_address_or_network_is_refused(entry: str) -> None:
    with pytest.raises(ValueError, match="TRUSTED_PROXIES"):
        Proxies([entry])


def test_the_setting_reads_a_list() -> None:
    settings = Settings.from_env({"TRUSTED_PROXIES": "127.0.0.1, 10.0.0.0/8"})
    assert settings.trusted_proxies == ("127.0.0.1", "10.0.0.0/8")
    assert Settings().trusted_proxies == ("127.0.0.1",)
