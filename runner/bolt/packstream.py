"""PackStream, Bolt's value encoding: null, booleans, integers, floats, bytes, strings, lists, maps and
structures (a tag byte and fields), each a marker byte and a big-endian payload.

Values are Python's: None, bool, int, float, bytes, str, list/tuple, dict (string keys) and `Structure`.
What a structure means (a node, a date) is values.py's business; this module only frames it.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any

TINY_STRING, TINY_LIST, TINY_MAP, TINY_STRUCT = 0x80, 0x90, 0xA0, 0xB0
SIZED: dict[str, tuple[int, int, int]] = {"bytes": (0xCC, 0xCD, 0xCE), "string": (0xD0, 0xD1, 0xD2),
                                          "list": (0xD4, 0xD5, 0xD6), "map": (0xD8, 0xD9, 0xDA)}
"""Kind → its markers for a size held in 8, 16 and 32 bits."""
SIZE_FORMATS = (">B", ">H", ">I")
INT_MARKERS = ((0xC8, ">b", -(2**7), 2**7), (0xC9, ">h", -(2**15), 2**15), (0xCA, ">i", -(2**31), 2**31),
               (0xCB, ">q", -(2**63), 2**63))
"""The integer markers, smallest first, with their format and the half-open range they hold."""


class PackStreamError(ValueError):
    """Bytes that are not PackStream, or a value PackStream cannot carry."""


@dataclass(frozen=True)
class Structure:
    tag: int
    fields: tuple[Any, ...]


def pack(value: Any) -> bytes:
    out = bytearray()
    _pack(value, out)
    return bytes(out)


def _size(kind: str, size: int, tiny: int | None, out: bytearray) -> None:
    if tiny is not None and size < 16:
        out.append(tiny + size)
        return
    for marker, fmt, limit in zip(SIZED[kind], SIZE_FORMATS, (2**8, 2**16, 2**32), strict=True):
        if size < limit:
            out.append(marker)
            out += struct.pack(fmt, size)
            return
    raise PackStreamError(f"a {kind} of {size} items is too long for PackStream")


def _pack(value: Any, out: bytearray) -> None:
    if value is None:
        out.append(0xC0)
    elif value is True:
        out.append(0xC3)
    elif value is False:
        out.append(0xC2)
    elif isinstance(value, int):
        if -16 <= value < 128:
            out += struct.pack(">b", value)
            return
        for marker, fmt, low, high in INT_MARKERS:
            if low <= value < high:
                out.append(marker)
                out += struct.pack(fmt, value)
                return
        raise PackStreamError(f"the integer {value} does not fit in 64 bits")
    elif isinstance(value, float):
        out.append(0xC1)
        out += struct.pack(">d", value)
    elif isinstance(value, bytes | bytearray):
        _size("bytes", len(value), None, out)
        out += value
    elif isinstance(value, str):
        encoded = value.encode("utf-8")
        _size("string", len(encoded), TINY_STRING, out)
        out += encoded
    elif isinstance(value, list | tuple):
        _size("list", len(value), TINY_LIST, out)
        for item in value:
            _pack(item, out)
    elif isinstance(value, dict):
        _size("map", len(value), TINY_MAP, out)
        for key, item in value.items():
            _pack(str(key), out)
            _pack(item, out)
    elif isinstance(value, Structure):
        if len(value.fields) > 15:
            raise PackStreamError("a structure has at most 15 fields")
        out.append(TINY_STRUCT + len(value.fields))
        out.append(value.tag)
        for item in value.fields:
            _pack(item, out)
    else:
        raise PackStreamError(f"no PackStream form for a {type(value).__name__}")


class Unpacker:
    """Reads values off one message's bytes, in order."""

    def __init__(self, data: bytes) -> None:
        self.data = memoryview(data)
        self.at = 0

    def _take(self, size: int) -> memoryview:
        if self.at + size > len(self.data):
            raise PackStreamError("the message ends inside a value")
        taken = self.data[self.at:self.at + size]
        self.at += size
        return taken

    def _number(self, fmt: str) -> Any:
        return struct.unpack(fmt, self._take(struct.calcsize(fmt)))[0]

    def unpack(self) -> Any:
        marker = self._number(">B")
        high = marker & 0xF0
        if marker < 0x80 or marker >= 0xF0:
            return marker if marker < 0x80 else marker - 0x100
        if high == TINY_STRING:
            return self._string(marker & 0x0F)
        if high == TINY_LIST:
            return self._list(marker & 0x0F)
        if high == TINY_MAP:
            return self._map(marker & 0x0F)
        if high == TINY_STRUCT:
            return self._structure(marker & 0x0F)
        simple = {0xC0: None, 0xC2: False, 0xC3: True}
        if marker in simple:
            return simple[marker]
        if marker == 0xC1:
            return self._number(">d")
        for int_marker, fmt, _, _ in INT_MARKERS:
            if marker == int_marker:
                return self._number(fmt)
        for kind, markers in SIZED.items():
            if marker in markers:
                size = self._number(SIZE_FORMATS[markers.index(marker)])
                return {"bytes": lambda n: bytes(self._take(n)), "string": self._string,
                        "list": self._list, "map": self._map}[kind](size)
        raise PackStreamError(f"0x{marker:02X} is not a PackStream marker")

    def _string(self, size: int) -> str:
        return bytes(self._take(size)).decode("utf-8")

    def _list(self, size: int) -> list[Any]:
        return [self.unpack() for _ in range(size)]

    def _map(self, size: int) -> dict[str, Any]:
        pairs = {}
        for _ in range(size):
            key = self.unpack()
            if not isinstance(key, str):
                raise PackStreamError("a map key must be a string")
            pairs[key] = self.unpack()
        return pairs

    def _structure(self, size: int) -> Structure:
        tag = self._number(">B")
        return Structure(tag, tuple(self.unpack() for _ in range(size)))


def unpack(data: bytes) -> Any:
    """The one value `data` holds (a message is one structure)."""
    unpacker = Unpacker(data)
    value = unpacker.unpack()
    if unpacker.at != len(data):
        raise PackStreamError("bytes left after the message's value")
    return value
