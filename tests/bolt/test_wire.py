"""PackStream, framing and the value and error tables, without a client: what the driver tests
(tests/clients/test_bolt.py) cannot isolate, such as the exact bytes of each size class."""

from __future__ import annotations

import asyncio

import pytest

import engine
from runner.bolt import messages, values
from runner.bolt.errors import failure, status_code
from runner.bolt.packstream import PackStreamError, Structure, pack, unpack


@pytest.mark.parametrize(("value", "encoded"), [
    (None, b"\xc0"), (True, b"\xc3"), (False, b"\xc2"), (1, b"\x01"), (-16, b"\xf0"), (-17, b"\xc8\xef"),
    (128, b"\xc9\x00\x80"), (2**31, b"\xcb\x00\x00\x00\x00\x80\x00\x00\x00"),
    (1.5, b"\xc1?\xf8\x00\x00\x00\x00\x00\x00"),
    ("a", b"\x81a"), ("x" * 16, b"\xd0\x10" + b"x" * 16), ([1, 2], b"\x92\x01\x02"), ({"k": 1}, b"\xa1\x81k\x01"),
    (Structure(0x44, (1,)), b"\xb1\x44\x01"), (b"\x01", b"\xcc\x01\x01"),
])
def test_packstream_bytes_of_each_kind(value: object, encoded: bytes) -> None:
    assert pack(value) == encoded
    assert unpack(encoded) == value


def test_long_values_and_nesting_round_trip() -> None:
    value = {"text": "é" * 70_000, "list": list(range(300)), "map": {str(i): [i, None] for i in range(20)},
             "big": -(2**63), "struct": Structure(0x58, (7203, 1.0, 2.0))}
    assert unpack(pack(value)) == value


def test_what_packstream_refuses() -> None:
    with pytest.raises(PackStreamError, match="64 bits"):
        pack(2**64)
    with pytest.raises(PackStreamError, match="not a PackStream marker"):
        unpack(b"\xe0")
    with pytest.raises(PackStreamError, match="ends inside"):
        unpack(b"\x82a")


def test_a_message_longer_than_a_chunk_is_cut_and_read_back() -> None:
    framed = messages.frame(messages.RECORD, ["x" * 70_000])

    async def read_back() -> messages.Message:
        reader = asyncio.StreamReader()  # made in the loop that reads it, whatever loop earlier tests left
        reader.feed_data(b"\x00\x00" + framed)  # a keep-alive first
        reader.feed_eof()
        return await messages.read_message(reader)

    message = asyncio.run(read_back())
    assert message == messages.Message(messages.RECORD, (["x" * 70_000],))


def test_the_version_chosen_from_a_drivers_proposals() -> None:
    driver_6 = bytes.fromhex("000001ff" "00080805" "00020404" "00000003")
    assert messages.choose_version(driver_6) == (5, 4)
    assert messages.choose_version(bytes.fromhex("00000105" + "00000000" * 3)) == (5, 1)
    assert messages.choose_version(bytes.fromhex("00020404" + "00000000" * 3)) is None


def test_a_path_walked_against_a_relationship_gives_a_negative_index() -> None:
    a, b, c = engine.Node(1, ("A",)), engine.Node(2), engine.Node(3)
    forward = engine.Relationship(10, "R", 1, 2)
    backward = engine.Relationship(11, "S", 3, 2)
    path = values.to_bolt(engine.Path((a, b, c), (forward, backward)))
    assert path.tag == values.PATH
    nodes, rels, indices = path.fields
    assert [node.fields[0] for node in nodes] == [1, 2, 3]
    assert [rel.fields[:2] for rel in rels] == [(10, "R"), (11, "S")]
    assert indices == [1, 1, -2, 2]


@pytest.mark.parametrize("value", [
    engine.Date(1969, 12, 31), engine.LocalTime(23, 59, 59, 999_999_999), engine.Time(1, 2, 3, 4, -3600),
    engine.LocalDateTime(1900, 1, 1, 0, 0, 1, 5), engine.DateTime(2024, 3, 31, 2, 30, 0, 0, 7200, None),
    engine.DateTime(2024, 6, 1, 12, 0, 0, 7, 7200, "Europe/Stockholm"), engine.Duration(14, -3, 5, 6),
    engine.Point(7203, 1.0, 2.0), engine.Point(4979, 1.0, 2.0, 3.0),
])
def test_temporal_and_spatial_values_round_trip(value: object) -> None:
    assert values.from_bolt(unpack(pack(values.to_bolt(value)))) == value


def test_parameters_the_engine_has_no_value_for() -> None:
    with pytest.raises(values.UnsupportedValue, match="byte array"):
        values.from_bolt({"b": b"\x00"})
    with pytest.raises(values.UnsupportedValue, match="not parameters"):
        values.from_bolt(Structure(values.NODE, (1, [], {}, "1")))


def test_status_codes_come_from_the_error_kind_and_its_detail() -> None:
    with engine.connect() as db:
        def code(statement: str) -> str:
            with pytest.raises(engine.CypherError) as raised:
                db.execute(statement)
            return status_code(raised.value)

        assert code("RETURN 1 +") == "Neo.ClientError.Statement.SyntaxError"
        assert code("RETURN $nothing") == "Neo.ClientError.Statement.ParameterMissing"
        assert code("RETURN 1 / 0") == "Neo.ClientError.Statement.ArithmeticError"
        assert code("UNWIND [1, 'a'] AS x RETURN x - 1") == "Neo.ClientError.Statement.TypeError"
        db.execute("CREATE CONSTRAINT one FOR (p:P) REQUIRE p.k IS UNIQUE")
        assert code("CREATE CONSTRAINT one FOR (p:P) REQUIRE p.k IS UNIQUE") == (
            "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists")
        db.execute("CREATE (:P {k: 1})")
        assert code("CREATE (:P {k: 1})") == "Neo.ClientError.Schema.ConstraintValidationFailed"
    assert status_code(RuntimeError("a bug")) == "Neo.DatabaseError.General.UnknownError"
    assert failure(RuntimeError("a bug"))["message"] == "RuntimeError: a bug"
