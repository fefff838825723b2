"""The messages between a holder and its clients: a 4-byte length, then a pickle.

Only this user's processes reach the socket (address.py), and still the unpickler builds nothing but plain
values and classes of the engine's value, result, error and syntax modules: a message cannot name a
function to call, or a class that opens files or connections.

A request is `(operation, args, kwargs)`; a reply is `("ok", value)` or `("error", class, message, state)`,
an engine error rebuilt on the client as raised on the holder (its constructor is not called again: the
errors' constructors take other arguments than their message).
"""

from __future__ import annotations

import datetime
import decimal
import io
import pickle
import socket
import struct
import sys
from typing import Any

from engine.errors import CypherError

HEADER = struct.Struct("!Q")
VALUE_MODULES = ("engine.values", "engine.errors", "engine.span", "engine.types", "engine.execute.results",
                 "engine.syntax.", "engine.semantic.", "engine.temporal.")
"""Modules whose classes a message may hold (a module name ending in '.' stands for the package)."""
PLAIN: dict[tuple[str, str], Any] = {
    **{("builtins", kind.__name__): kind for kind in (set, frozenset, bytearray, complex, slice, range)},
    **{("datetime", kind.__name__): kind for kind in (datetime.date, datetime.time, datetime.datetime,
                                                      datetime.timedelta, datetime.timezone)},
    ("decimal", "Decimal"): decimal.Decimal,
}


class SafeUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in PLAIN:
            return PLAIN[(module, name)]
        found = getattr(sys.modules.get(module), name, None) if "." not in name else None
        if isinstance(found, type) and module.startswith(VALUE_MODULES):
            return found
        raise pickle.UnpicklingError(f"a shared-database message may not hold {module}.{name}")


def send(channel: socket.socket, message: Any) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    channel.sendall(HEADER.pack(len(data)) + data)


def receive(channel: socket.socket) -> Any:
    """The next message; EOFError when the other side has gone."""
    (size,) = HEADER.unpack(_exactly(channel, HEADER.size))
    return SafeUnpickler(io.BytesIO(_exactly(channel, size))).load()


def _exactly(channel: socket.socket, size: int) -> bytes:
    buffer = bytearray(size)
    view, got = memoryview(buffer), 0
    while got < size:
        count = channel.recv_into(view[got:], size - got)
        if count == 0:
            raise EOFError("the other side closed the connection")
        got += count
    return bytes(buffer)


def error_reply(error: BaseException) -> tuple[Any, ...]:
    """The reply for an error the holder raised; one that is not an engine error (a bug) as CypherError."""
    if isinstance(error, CypherError):
        state = {key: value for key, value in vars(error).items() if not key.startswith("__")}
        return ("error", type(error), Exception.__str__(error), state)
    message = f"the process serving this database failed: {type(error).__name__}: {error}"
    return ("error", CypherError, message, vars(CypherError(message)))


def rebuilt_error(reply: tuple[Any, ...]) -> CypherError:
    _, kind, message, state = reply
    if not (isinstance(kind, type) and issubclass(kind, CypherError)):
        kind = CypherError
    error = kind.__new__(kind)
    Exception.__init__(error, message)
    error.__dict__.update(state)
    return error
