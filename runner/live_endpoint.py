"""The local preview's live endpoint: `LiveSession`s over HTTP on loopback, for `mkdocs serve` (ADR-0090).

The MkDocs plugin starts it when it serves (never for a build): a standard-library HTTP server on
127.0.0.1, on a free port, in a daemon thread. The page's script (assets/live.js) posts

    POST /live   {"page": "01-agent-memory.md", "tab": "…", "request": {"op": "run", …}}

and gets the session's response as JSON. `page` is the page's path in the docs folder, `tab` an id the
script draws per opened page, so each open page has a session (a database) of its own; at most
MAX_SESSIONS live at once, the least recently used closed first, and a page whose file changed gets a new
one. Statements run under the serve limits (a timeout, DuckDB's memory limit).

Only the preview's pages may call it: a request must carry the token the plugin writes into the pages
(`X-Cookbook-Live`, which also makes every browser ask first with a preflight), name a loopback Host
(against DNS rebinding), and come from a loopback Origin, the only one CORS lets read the answer.
"""

from __future__ import annotations

import hmac
import json
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from runner.live import LiveSession
from runner.mcp.http_security import LOOPBACK

PATH = "/live"
TOKEN_HEADER = "X-Cookbook-Live"
MAX_SESSIONS = 8
MAX_BODY = 1024 * 1024
"""The largest request body read: an edited statement and its parameters."""


@dataclass
class OpenPage:
    """One open page's session, the page text it was made from, and the lock its requests take turns on."""

    source: str
    session: LiveSession
    lock: threading.Lock = field(default_factory=threading.Lock)


class LiveSessions:
    """The sessions of the open pages of one docs folder (no HTTP here: `handle` takes the posted body)."""

    def __init__(self, docs: Path, *, timeout: float | None, memory_limit: str | None,
                 limit: int = MAX_SESSIONS, root: Path | None = None) -> None:
        self.docs = docs.resolve()
        self.root = (root or self.docs.parent).resolve()
        """What the paths in diffs and errors are shown relative to (mkdocs.yml's folder)."""
        self.timeout = timeout
        self.memory_limit = memory_limit
        self.limit = limit
        self.open: OrderedDict[tuple[str, str], OpenPage] = OrderedDict()
        self.guard = threading.Lock()

    def handle(self, body: dict[str, Any]) -> dict[str, Any]:
        page, tab, request = body.get("page"), body.get("tab"), body.get("request")
        if not isinstance(page, str) or not isinstance(request, dict):
            raise ValueError('the body must be {"page": PATH, "tab": ID, "request": {...}}')
        path = self.page_path(page)
        opened = self.session(page, str(tab or ""), path)
        with opened.lock:
            return opened.session.handle(request)

    def page_path(self, page: str) -> Path:
        path = (self.docs / page).resolve()
        if not path.is_relative_to(self.docs) or path.suffix != ".md" or not path.is_file():
            raise ValueError(f"no page {page!r} in the docs folder")
        return path

    def session(self, page: str, tab: str, path: Path) -> OpenPage:
        source = path.read_text(encoding="utf-8")
        key = (page, tab)
        closed = []
        with self.guard:
            opened = self.open.get(key)
            if opened is None or opened.source != source:
                if opened is not None:
                    closed.append(opened)
                shown = path.relative_to(self.root).as_posix() if path.is_relative_to(self.root) else str(path)
                opened = OpenPage(source, LiveSession.from_page(path, timeout=self.timeout,
                                                                memory_limit=self.memory_limit, shown=shown))
                self.open[key] = opened
            self.open.move_to_end(key)
            while len(self.open) > self.limit:
                closed.append(self.open.popitem(last=False)[1])
        for old in closed:  # outside the guard: each waits for its own request in flight, if any
            self.close(old)
        return opened

    def close(self, opened: OpenPage) -> None:
        with opened.lock:
            opened.session.close()

    def close_all(self) -> None:
        with self.guard:
            for opened in self.open.values():
                self.close(opened)
            self.open.clear()


class LiveEndpoint:
    """The HTTP server over LiveSessions; `url` and `token` are what the pages are given."""

    def __init__(self, sessions: LiveSessions, *, host: str = "127.0.0.1", port: int = 0) -> None:
        if host not in LOOPBACK:
            raise ValueError(f"the live endpoint listens on loopback only, not {host}")
        self.sessions = sessions
        self.token = secrets.token_urlsafe(24)
        self.server = ThreadingHTTPServer((host, port), handler_for(self))
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, name="cookbook-live", daemon=True)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}{PATH}"

    def start(self) -> LiveEndpoint:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.sessions.close_all()


def loopback(value: str | None, *, url: bool) -> bool:
    """Whether a Host header (`host[:port]`) or an Origin (`scheme://host[:port]`) names this machine."""
    if not value:
        return False
    name = urlsplit(value if url else f"//{value}").hostname
    return name in LOOPBACK


def handler_for(endpoint: LiveEndpoint) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_OPTIONS(self) -> None:
            if not self.allowed(token=False):
                return
            self.send_response(204)
            self.cors()
            self.send_header("Access-Control-Allow-Methods", "POST")
            self.send_header("Access-Control-Allow-Headers", f"Content-Type, {TOKEN_HEADER}")
            self.send_header("Access-Control-Max-Age", "600")
            self.end_headers()

        def do_POST(self) -> None:
            if not self.allowed(token=True):
                return
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_BODY:
                self.answer(413, {"error": f"the request is larger than {MAX_BODY} bytes"})
                return
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
                answer = endpoint.sessions.handle(body if isinstance(body, dict) else {})
            except (ValueError, OSError) as error:
                self.answer(400, {"error": str(error)})
                return
            self.answer(200, answer)

        def allowed(self, *, token: bool) -> bool:
            """Refuse (and answer) a request from anywhere but the preview's pages."""
            origin = self.headers.get("Origin")
            if urlsplit(self.path).path != PATH:
                self.answer(404, {"error": f"not found: POST {PATH}"})
            elif not loopback(self.headers.get("Host"), url=False) or (origin and not loopback(origin, url=True)):
                self.answer(403, {"error": "the live endpoint answers the preview's pages on this machine only"})
            elif token and not hmac.compare_digest(self.headers.get(TOKEN_HEADER) or "", endpoint.token):
                self.answer(403, {"error": f"the request lacks the preview's {TOKEN_HEADER} token"})
            else:
                return True
            return False

        def cors(self) -> None:
            origin = self.headers.get("Origin")
            if origin and loopback(origin, url=True):
                self.send_header("Access-Control-Allow-Origin", origin)
                self.send_header("Vary", "Origin")

        def answer(self, status: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.cors()
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)

    return Handler
