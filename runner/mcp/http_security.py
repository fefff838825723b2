"""Who may call `cookbook serve --http`: the Host/Origin check against DNS rebinding, and a bearer token
for any address but loopback (issue 32, item 9).

On loopback only programs of this machine reach the port, and the SDK's Host/Origin check keeps web pages
out. On any other address anyone who reaches the port could write to the graph, so the server refuses
to start there without a token (`--token` or COOKBOOK_TOKEN) and a list of the host names clients use
(`--allowed-host`), and every request must carry `Authorization: Bearer <token>`.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Sequence
from typing import Any

from mcp.server.transport_security import TransportSecuritySettings

TOKEN_VARIABLE = "COOKBOOK_TOKEN"
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})


class UnsafeServe(Exception):
    """`serve --http` was asked to listen beyond loopback without a token or allowed hosts."""


def check_exposure(host: str, token: str | None, allowed_hosts: Sequence[str]) -> None:
    """Refuse a non-loopback address without a bearer token and an allowed-hosts list."""
    if host in LOOPBACK:
        return
    if not token:
        raise UnsafeServe(f"serving on {host} (not loopback) needs a bearer token: pass --token TOKEN or set "
                          f"{TOKEN_VARIABLE}; clients then send 'Authorization: Bearer TOKEN'")
    if not allowed_hosts:
        raise UnsafeServe(f"serving on {host} (not loopback) needs the host names clients use: pass "
                          "--allowed-host NAME (repeatable), e.g. --allowed-host graph.example.org")


def transport_security(host: str, port: int, allowed_hosts: Sequence[str]) -> TransportSecuritySettings:
    """The Host and Origin values a request may carry: loopback names, or the allowed hosts, on `port`."""
    names = sorted(LOOPBACK) if host in LOOPBACK else list(allowed_hosts)
    hosts = [f"[{n}]:{port}" if ":" in n else f"{n}:{port}" for n in names] + names
    origins = [f"{scheme}://{h}" for scheme in ("http", "https") for h in hosts]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=hosts,
                                     allowed_origins=origins)


class BearerToken:
    """ASGI middleware: an HTTP request without `Authorization: Bearer <token>` gets 401."""

    def __init__(self, app: Any, token: str) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(given, self.expected):
                body = json.dumps({"error": "unauthorized: send 'Authorization: Bearer <token>'"}).encode()
                await send({"type": "http.response.start", "status": 401,
                            "headers": [(b"content-type", b"application/json"),
                                        (b"www-authenticate", b"Bearer")]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)
