"""Bolt's messages and their framing: the handshake, a message as one PackStream structure cut into chunks
(a two-byte size, then the bytes; a zero size ends the message), and the tags of each message.
"""

from __future__ import annotations

import asyncio
import struct
from dataclasses import dataclass
from typing import Any

from runner.bolt.packstream import Structure, pack, unpack

MAGIC = b"\x60\x60\xb0\x17"
SUPPORTED = ((5, 4), (5, 3), (5, 2), (5, 1), (5, 0))
"""The Bolt versions served, best first: 5.0 (auth in HELLO), 5.1 (LOGON and LOGOFF), 5.2 (notification
filters, accepted and ignored), 5.3 (bolt_agent) and 5.4 (TELEMETRY, answered but never asked for)."""
MAX_CHUNK = 0xFFFF

HELLO, GOODBYE, RESET, RUN, BEGIN, COMMIT, ROLLBACK = 0x01, 0x02, 0x0F, 0x10, 0x11, 0x12, 0x13
DISCARD, PULL, TELEMETRY, ROUTE, LOGON, LOGOFF = 0x2F, 0x3F, 0x54, 0x66, 0x6A, 0x6B
SUCCESS, RECORD, IGNORED, FAILURE = 0x70, 0x71, 0x7E, 0x7F
NAMES = {HELLO: "HELLO", GOODBYE: "GOODBYE", RESET: "RESET", RUN: "RUN", BEGIN: "BEGIN", COMMIT: "COMMIT",
         ROLLBACK: "ROLLBACK", DISCARD: "DISCARD", PULL: "PULL", TELEMETRY: "TELEMETRY", ROUTE: "ROUTE",
         LOGON: "LOGON", LOGOFF: "LOGOFF"}


class ProtocolError(Exception):
    """The client broke the protocol: the connection is closed."""


@dataclass(frozen=True)
class Message:
    tag: int
    fields: tuple[Any, ...]

    @property
    def name(self) -> str:
        return NAMES.get(self.tag, f"0x{self.tag:02X}")


def choose_version(proposals: bytes) -> tuple[int, int] | None:
    """The best served version among the client's four proposals (each `00 range minor major`: the versions
    major.minor down to major.(minor - range)), or None."""
    offered = []
    for at in range(0, 16, 4):
        _, spread, minor, major = proposals[at:at + 4]
        offered += [(major, m) for m in range(minor, max(minor - spread, 0) - 1, -1)]
    return next((version for version in SUPPORTED if version in offered), None)


async def read_message(reader: asyncio.StreamReader) -> Message | None:
    """The next message, None when the client closed the connection. Empty chunks (keep-alives) are skipped."""
    data = bytearray()
    while True:
        try:
            (size,) = struct.unpack(">H", await reader.readexactly(2))
        except asyncio.IncompleteReadError:
            return None
        if size == 0:
            if data:
                break
            continue
        data += await reader.readexactly(size)
    value = unpack(bytes(data))
    if not isinstance(value, Structure):
        raise ProtocolError("a message must be a structure")
    return Message(value.tag, value.fields)


def frame(tag: int, *fields: Any) -> bytes:
    """A message, chunked, ready to write."""
    body = pack(Structure(tag, fields))
    out = bytearray()
    for at in range(0, len(body), MAX_CHUNK):
        chunk = body[at:at + MAX_CHUNK]
        out += struct.pack(">H", len(chunk)) + chunk
    return bytes(out + b"\x00\x00")
