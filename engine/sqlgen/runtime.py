"""The Cypher runtime in SQL: DuckDB macros giving dynamically typed values Cypher's semantics.

A value whose type is not known when the statement compiles travels as a DuckDB VARIANT (ADR-0004).
Scalars use VARIANT's own types (booleans, BIGINT, DOUBLE, VARCHAR); lists are VARIANT arrays and maps
VARIANT objects. Values VARIANT has no type for (nodes, relationships, paths, temporal values) are
objects with one reserved key: `\\x01node`, `\\x01rel`, ... A user map can never hold such a key: the
compiler refuses map keys that start with U+0001.

Macros cannot recurse, so operations that descend into lists and maps go a fixed number of levels deep,
and past the deepest raise an error instead of answering wrongly: comparison is written per nesting level,
each level calling the one below; equality and sort and grouping keys walk the value in steps, each
replacing the lists and maps met so far by their elements (`_expand_step`), as DuckDB binds a lambda's body
again for every lambda around it. engine/execute/macros.py creates them in a connection.

Errors raised from SQL go through `error('CYPHER|Kind|Detail|message')`; the executor turns them back
into engine errors.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.limits import IMPORT_VARIABLE, LIST_VARIABLE, TEXT_VARIABLE, default_memory_limit, list_cap, text_cap
from engine.quoting import sql_identifier, sql_string
from engine.sqlgen.sql import Term
from engine.storage.encoding import KIND_CODES, KIND_NAMES, TAGS, VIRTUAL_PATH_TAG, VIRTUAL_TAGS, tag_key
from engine.values import PLAIN_EXPONENTS, VECTOR_COORDINATE_TYPES, java_subnormal_texts

# Ascending ORDER BY rank of each kind (Cypher's orderability: maps first, numbers last, null after). The
# manual places no VECTOR in its hierarchy of values; the engine orders vectors after points (ADR-0066).
ORDER_RANKS: dict[int, int] = {
    6: 0, 7: 1, 8: 2, 5: 3, 9: 4, 16: 5, 14: 6, 13: 7, 10: 8, 12: 9, 11: 10, 15: 11, 17: 12, 4: 13, 1: 14,
    2: 15, 3: 15, 0: 16,
}

CLOSE = 18
"""The kind of the token that closes a list or a map, or a map's keys (`_key_macros`); `cy_eq`'s kind of a
pair of lists or maps whose shapes differ (`_equality_macros`)."""


PYTHON_NORMAL_FORMS = ("NFD", "NFKC", "NFKD")
"""The Unicode normal forms DuckDB has no function for: engine/execute/normal_forms.py registers one each."""


def normal_form_function(form: str) -> str:
    """The SQL function that puts a string in Unicode normal form `form` (NFC, NFD, NFKC or NFKD)."""
    return "nfc_normalize" if form == "NFC" else f"cy_normalize_{form.lower()}"


MAX_DEPTH = 4
# Sort and grouping keys go one level deeper: DISTINCT over nested maps of lists is common in practice.
KEY_DEPTH = 5


def error_sql(kind: str, detail: str, message_sql: str) -> Term:
    """SQL raising an engine error of `kind`/`detail`; `message_sql` is a SQL string expression. A Term: it is
    repeated where it is named, never bound ahead of the branch that raises it (`sql.let`)."""
    return Term(f"error('CYPHER|{kind}|{detail}|' || {message_sql})")


LIST_CAP = f"coalesce(getvariable('{LIST_VARIABLE}'), {list_cap(default_memory_limit())})"
"""The most elements a list a statement builds may have, read from the connection's session variable: DuckDB
allocates lists outside its buffer manager, so its memory limit alone does not bound them (issue 32)."""


def list_too_long(elements_sql: str, what: str = "a list") -> str:
    """SQL raising MemoryLimitExceeded for `what` of `elements_sql` elements, past LIST_CAP."""
    return error_sql("MemoryError", "MemoryPoolOutOfMemoryError",
                     f"'{what} of ' || ({elements_sql}) || ' elements is more than the ' || {LIST_CAP}"
                     " || ' a list may hold under the connection''s memory limit'")


def capped_concat(a: str, b: str) -> str:
    """list_concat(a, b) of two non-null lists (bound names), refused before it is built when the result
    would hold more than LIST_CAP elements."""
    size = f"len({a})::BIGINT + len({b})::BIGINT"
    return f"CASE WHEN {size} > {LIST_CAP} THEN {list_too_long(size)} ELSE list_concat({a}, {b}) END"


TEXT_CAP = f"coalesce(getvariable('{TEXT_VARIABLE}'), {text_cap(default_memory_limit())})"
"""The most bytes a string a statement joins may have, read from the connection's session variable."""


def capped_text_concat(*texts: str) -> str:
    """`a || b || ...` of strings (bound names), refused before it is built when the result would hold more
    than TEXT_CAP bytes: `strlen` reads a DuckDB string's stored size, so the check costs no scan."""
    size = " + ".join(f"strlen({text})::BIGINT" for text in texts)
    message = (f"'a string of ' || ({size}) || ' bytes is more than the ' || {TEXT_CAP}"
               " || ' a string may hold under the connection''s memory limit'")
    return (f"CASE WHEN {size} > {TEXT_CAP} THEN {error_sql('MemoryError', 'MemoryPoolOutOfMemoryError', message)}"
            f" ELSE {' || '.join(texts)} END")


KINDS_VARIABLE = "cypher_kinds"
"""The session variable holding `_kind_map()`, which `cy_kind` reads: one expression where the literal is fifty
constants, and DuckDB binds every copy of a macro call (the other macros repeat `cy_kind` many times)."""


def _kind_map() -> str:
    """A MAP literal from `variant_typeof` names to kind codes (a map lookup binds and runs faster than CASE)."""
    scalar = {
        "VARIANT_NULL": 0, "BOOL_TRUE": 1, "BOOL_FALSE": 1, "INT64": 2, "INT32": 2, "INT16": 2, "INT8": 2,
        "UINT8": 2, "UINT16": 2, "UINT32": 2, "UINT64": 2, "DOUBLE": 3, "FLOAT": 3, "VARCHAR": 4,
    }
    tagged = {f"OBJECT({tag_key(kind)})": KIND_CODES[kind] for kind in TAGS}
    tagged.update({f"OBJECT({tag})": KIND_CODES[kind] for kind, tag in VIRTUAL_TAGS.items()})
    tagged[f"OBJECT({VIRTUAL_PATH_TAG})"] = KIND_CODES["PATH"]
    entries = ", ".join(f"{sql_string(name)}: {code}" for name, code in {**scalar, **tagged}.items())
    return "MAP {" + entries + "}"


def _by_kind(values: dict[int, str], kind_sql: str, default: str) -> str:
    """`values[kind]` as a list lookup: `kind_sql` appears once (a simple CASE repeats its operand per WHEN,
    and DuckDB binds every copy of a macro call)."""
    items = ", ".join(values.get(code, default) for code in range(max(values) + 1))
    return f"coalesce([{items}][{kind_sql} + 1], {default})"


def _type_name_sql(kind_sql: str) -> str:
    return _by_kind({code: sql_string(name) for code, name in KIND_NAMES.items()}, kind_sql, "'ANY'")


def _rank_sql(kind_sql: str) -> str:
    """The ORDER BY rank of a kind, and -1 for a key's closing token (`CLOSE`), which sorts before any value."""
    return _by_kind({kind: str(rank) for kind, rank in {**ORDER_RANKS, CLOSE: -1}.items()}, kind_sql, "17")


def _tag_payload(kind: str) -> str:
    return f"variant_extract(v, {sql_string(tag_key(kind))})"


def not_stored(what: str) -> str:
    """SQL raising UnsupportedFeature for a virtual `what` (node, relationship) where a stored one is needed
    (ADR-0071): matching from it, writing it, deleting it."""
    return error_sql("UnsupportedFeature", "VirtualElement",
                     f"'a virtual {what} (from apoc.meta.graph, db.schema.visualization or apoc.create.*) is not in"
                     f" the graph: its id, labels, type and properties can be read, but it cannot be matched from,"
                     f" written or deleted'")


VIRTUAL_PATH_REFUSED = error_sql(
    "UnsupportedFeature", "VirtualElement",
    "'a virtual path (from apoc.create.clonePathToVirtual) holds virtual nodes and relationships: length(), nodes()"
    " and relationships() read it, but this needs a path of stored ones'")
"""The error of a path function that reads stored ids given a path of virtual elements (ADR-0087)."""


def _stored_id(kind: str, what: str) -> str:
    """The id of a stored node or relationship `v` (of that kind), and UnsupportedFeature for a virtual one."""
    return f"CASE WHEN {_tag_payload(kind)} IS NOT NULL THEN {_tag_payload(kind)}::BIGINT ELSE {not_stored(what)} END"


def _macros() -> list[tuple[str, str]]:
    node_tag, rel_tag, path_tag = (tag_key(kind) for kind in ("NODE", "RELATIONSHIP", "PATH"))
    macros: list[tuple[str, str]] = [
        # -- kinds ----------------------------------------------------------------------------
        ("cy_kind(v)",
         f"coalesce(getvariable('{KINDS_VARIABLE}')[variant_typeof(v)],"
         " CASE WHEN starts_with(variant_typeof(v), 'ARRAY') THEN 5 ELSE 6 END)"),
        ("cy_type_name(v)", _type_name_sql("cy_kind(v)")),
        ("cy_is_number(v)", "cy_kind(v) IN (2, 3)"),
        # -- tags: graph elements and paths inside VARIANT --------------------------------------
        *((f"{name}({arg})",
           f"CASE WHEN {arg} IS NULL THEN NULL ELSE struct_pack({sql_identifier(tag)} := {arg})::VARIANT END")
          for name, arg, tag in (("cy_node", "id", node_tag), ("cy_rel", "id", rel_tag), ("cy_path", "p", path_tag))),
        # a virtual node or relationship (ADR-0071): its payload, null for any other value
        ("cy_virtual(v)", "coalesce(" + ", ".join(f"variant_extract(v, {sql_string(tag)})"
                                                  for tag in VIRTUAL_TAGS.values()) + ")"),
        ("cy_node_id(v)",
         f"CASE cy_kind(v) WHEN 7 THEN {_stored_id('NODE', 'node')} WHEN 0 THEN NULL ELSE "
         + error_sql("TypeError", "InvalidArgumentValue", "'expected a node, got ' || cy_type_name(v)")
         + " END"),
        ("cy_rel_id(v)",
         f"CASE cy_kind(v) WHEN 8 THEN {_stored_id('RELATIONSHIP', 'relationship')} WHEN 0 THEN NULL ELSE "
         + error_sql("TypeError", "InvalidArgumentValue", "'expected a relationship, got ' || cy_type_name(v)")
         + " END"),
        ("cy_try_node_id(v)", f"CASE WHEN cy_kind(v) = 7 THEN {_tag_payload('NODE')}::BIGINT END"),
        ("cy_try_rel_id(v)", f"CASE WHEN cy_kind(v) = 8 THEN {_tag_payload('RELATIONSHIP')}::BIGINT END"),
        ("cy_path_value(v)",
         f"CASE cy_kind(v) WHEN 9 THEN CASE WHEN {_tag_payload('PATH')} IS NOT NULL THEN"
         f" {_tag_payload('PATH')}::STRUCT(nodes BIGINT[], rels BIGINT[]) ELSE {VIRTUAL_PATH_REFUSED} END"
         " WHEN 0 THEN NULL ELSE "
         + error_sql("TypeError", "InvalidArgumentType", "'expected a path, got ' || cy_type_name(v)")
         + " END"),
        # -- conversions for predicates and lists ---------------------------------------------
        ("cy_bool(v)",
         "CASE cy_kind(v) WHEN 1 THEN TRY_CAST(v AS BOOLEAN) WHEN 0 THEN NULL ELSE "
         + error_sql("TypeError", "InvalidArgumentType", "'expected a boolean, got ' || cy_type_name(v)")
         + " END"),
        ("cy_list(v)",
         "CASE cy_kind(v) WHEN 5 THEN TRY_CAST(v AS VARIANT[]) WHEN 0 THEN NULL ELSE "
         + error_sql("TypeError", "InvalidArgumentType", "'expected a list, got ' || cy_type_name(v)")
         + " END"),
        ("cy_unwind_list(v)",
         "CASE cy_kind(v) WHEN 5 THEN TRY_CAST(v AS VARIANT[]) WHEN 0 THEN []::VARIANT[] ELSE [v] END"),
        # what a comprehension, a quantifier or reduce() walks: a value that is no list, a list of itself
        ("cy_traversable(v)", "CASE cy_kind(v) WHEN 5 THEN TRY_CAST(v AS VARIANT[]) WHEN 0 THEN NULL ELSE [v] END"),
        ("cy_singleton(v)", "CASE WHEN v IS NULL THEN NULL ELSE [v] END"),
        ("cy_string(v)",
         "CASE cy_kind(v) WHEN 4 THEN TRY_CAST(v AS VARCHAR) WHEN 0 THEN NULL ELSE "
         + error_sql("TypeError", "InvalidArgumentType", "'expected a string, got ' || cy_type_name(v)")
         + " END"),
        ("cy_integer(v)",
         "CASE cy_kind(v) WHEN 2 THEN TRY_CAST(v AS BIGINT) WHEN 0 THEN NULL ELSE "
         + error_sql("TypeError", "InvalidArgumentType", "'expected an integer, got ' || cy_type_name(v)")
         + " END"),
        ("cy_number(v)",
         "CASE cy_kind(v) WHEN 2 THEN TRY_CAST(v AS DOUBLE) WHEN 3 THEN TRY_CAST(v AS DOUBLE) WHEN 0 THEN NULL ELSE "
         + error_sql("TypeError", "InvalidArgumentType", "'expected a number, got ' || cy_type_name(v)")
         + " END"),
        ("cy_map_keys(v)", "list_sort(variant_keys(v))"),
        ("cy_map_get(v, k)",
         "json_extract(v::JSON, '$.\"' || replace(replace(k, '\\', '\\\\'), '\"', '\\\"') || '\"')::VARIANT"),
        ("cy_values(v)",
         "CASE cy_kind(v) WHEN 5 THEN TRY_CAST(v AS VARIANT[]) "
         "ELSE list_transform(cy_map_keys(v), lambda k: cy_map_get(v, k)) END"),
        ("cy_shape(v)", "CASE cy_kind(v) WHEN 5 THEN [len(TRY_CAST(v AS VARIANT[]))::VARCHAR] ELSE cy_map_keys(v) END"),
    ]
    primitive = "(1, 2, 3, 4, 10, 11, 12, 13, 14, 15, 16)"
    # a vector is a property value of its own, but never an element of a stored list (Cypher manual, Property,
    # structural, and constructed values)
    storable = "(1, 2, 3, 4, 10, 11, 12, 13, 14, 15, 16, 17)"
    macros += [
        ("cy_property(v)",
         f"CASE WHEN v IS NULL THEN NULL WHEN cy_kind(v) IN {storable} THEN v"
         " WHEN cy_kind(v) = 5 THEN CASE"
         " WHEN len(list_filter(TRY_CAST(v AS VARIANT[]),"
         f" lambda e: e IS NULL OR cy_kind(e) NOT IN {primitive})) > 0 THEN "
         + error_sql("TypeError", "InvalidPropertyType",
                     "'lists stored as properties may only hold non-null primitive values'")
         + " WHEN len(list_distinct(list_transform(TRY_CAST(v AS VARIANT[]), lambda e: cy_kind(e)))) > 1 THEN "
         + error_sql("TypeError", "InvalidPropertyType",
                     "'lists stored as properties may not mix types'")
         + " ELSE v END ELSE "
         + error_sql("TypeError", "InvalidPropertyType",
                     "'property values can only be of primitive types or arrays thereof, not ' || cy_type_name(v)")
         + " END"),
        ("cy_property_key(v)",
         "CASE WHEN cy_kind(v) IN (2, 3) THEN 'n' || TRY_CAST(v AS DOUBLE)::VARCHAR"
         " ELSE cy_kind(v)::VARCHAR || ':' || TRY_CAST(v AS VARCHAR) END"),
        ("list_distinct_ordered(l)", "list_filter(l, lambda x, i: list_position(l, x) = i)"),
        ("cy_import_path(url, reader)", _IMPORT_PATH),
        ("cy_csv_path(url)", "cy_import_path(url, 'LOAD CSV')"),
    ]
    macros += _vector_macros() + _equality_macros() + _comparison_macros() + _key_macros() + _arithmetic_macros()
    return macros


_IMPORT_PATH = (
    f"CASE WHEN getvariable('{IMPORT_VARIABLE}') IS NULL THEN "
    + error_sql("ExternalResourceError", "ImportDirectory", "reader || ' reads files from the import directory, "
                "and this connection has none (engine.connect(..., import_dir=...), cookbook: the folder of the page)'")
    + " WHEN NOT starts_with(url, 'file:///') OR contains('/' || substr(url, 9) || '/', '/../') THEN "
    + error_sql("ExternalResourceError", "InvalidUrl",
                "reader || ' reads file:/// urls inside the import directory, not ' || url")
    + f" ELSE getvariable('{IMPORT_VARIABLE}') || '/' || substr(url, 9) END")
"""The file a url names for `reader` (LOAD CSV, apoc.load.json): `file:///a/b.csv` is `a/b.csv` in the
connection's import directory (Neo4j's `server.directories.import`); any other url, or one climbing out with
`..`, is refused, naming the reader."""


def _vector_macros() -> list[tuple[str, str]]:
    """A Cypher 25 VECTOR inside a VARIANT (ADR-0066): `{"\\x01vector": {"c": coordinates, "t": type}}`, the
    coordinates BIGINTs for the integer coordinate types and DOUBLEs for the float ones (a FLOAT32 coordinate
    is the double its 32-bit float widens to), `t` the coordinate type's default name. Equal vectors are
    equal VARIANTs, so `=`, DISTINCT and grouping need nothing of their own."""
    tag = sql_string(tag_key("VECTOR"))
    order = "[" + ", ".join(sql_string(name) for name in VECTOR_COORDINATE_TYPES) + "]"
    return [
        ("cy_vector_of(t, c)",
         f"struct_pack({sql_identifier(tag_key('VECTOR'))} := struct_pack(c := c, t := t))::VARIANT"),
        ("cy_vector_values(v)", f"variant_extract(variant_extract(v, {tag}), 'c')"),
        ("cy_vector_type(v)", f"variant_extract(variant_extract(v, {tag}), 't')::VARCHAR"),
        ("cy_vector_doubles(v)", "cy_vector_values(v)::DOUBLE[]"),
        ("cy_vector_dimension(v)", "len(cy_vector_values(v)::VARIANT[])::BIGINT"),
        ("cy_vector_type_name(v)",
         "'VECTOR<' || cy_vector_type(v) || ' NOT NULL>(' || cy_vector_dimension(v)::VARCHAR || ')'"),
        # ORDER BY among vectors: by coordinate type, then dimension, then coordinates; the text keeps two
        # INTEGER vectors apart that differ beyond a double's precision
        ("cy_vector_key(v)",
         f"struct_pack(t := list_position({order}, cy_vector_type(v)), n := cy_vector_dimension(v),"
         " c := cy_vector_doubles(v), x := TRY_CAST(v AS VARCHAR))"),
        ("cy_vector(v)",
         "CASE cy_kind(v) WHEN 17 THEN v WHEN 0 THEN NULL ELSE "
         + error_sql("TypeError", "InvalidArgumentType", "'expected a VECTOR, got ' || cy_type_name(v)")
         + " END"),
        ("cy_full_type_name(v)", "CASE WHEN cy_kind(v) = 17 THEN cy_vector_type_name(v) ELSE cy_type_name(v) END"),
    ]


def _scalar_eq(a: str, b: str, ka: str, kb: str) -> str:
    """Equality when at most one side is a list or map (of kinds `ka` and `kb`): numbers numerically, other
    kinds must match."""
    return (
        f"CASE WHEN {a} IS NULL OR {b} IS NULL THEN NULL"
        f" WHEN {ka} = 2 AND {kb} = 2 THEN TRY_CAST({a} AS BIGINT) = TRY_CAST({b} AS BIGINT)"
        f" WHEN {ka} IN (2, 3) AND {kb} IN (2, 3) THEN"
        f" (TRY_CAST({a} AS DOUBLE) = TRY_CAST({b} AS DOUBLE) AND NOT isnan(TRY_CAST({a} AS DOUBLE)))"
        f" WHEN {ka} <> {kb} THEN false"
        f" ELSE {a} = {b} END"
    )


def _too_deep(what: str, depth: int = MAX_DEPTH) -> str:
    return error_sql("UnsupportedFeature", "NestingTooDeep",
                     f"'{what} lists or maps nested deeper than {depth} levels'")


def _pair(a: str, b: str) -> str:
    """A pair of values as `cy_eq` and `cy_cmp` walk them, each with its kind."""
    return f"{{'a': {a}, 'b': {b}, 'ka': cy_kind({a}), 'kb': cy_kind({b})}}"


def _equality_macros() -> list[tuple[str, str]]:
    """cy_eq(a, b): Cypher's `=` in three-valued logic, over a list of pairs walked as `_expand_step` walks a
    key: a pair of lists (or of maps) of one shape becomes the pairs of their elements, of another shape a
    pair that is unequal (kind `CLOSE`); then the pairs compared as scalars are AND-ed (false if one is, else
    null if one is). A pair of lists or maps still left after `MAX_DEPTH` steps is refused."""
    unequal = f"{{'a': NULL::VARIANT, 'b': NULL::VARIANT, 'ka': {CLOSE}, 'kb': {CLOSE}}}"
    both_containers = "{0}ka IN (5, 6) AND {0}ka = {0}kb"
    expanded = _expanded("cy_eq_step", f"[{_pair('a', 'b')}]",
                         "cy_kind(a) IN (5, 6) AND cy_kind(a) = cy_kind(b)", MAX_DEPTH)
    return [
        ("cy_eq_pair(a, b, ka, kb)",
         f"CASE WHEN ka = {CLOSE} THEN false WHEN {both_containers.format('')} THEN {_too_deep('comparing')}"
         f" ELSE {_scalar_eq('a', 'b', 'ka', 'kb')} END"),
        ("cy_eq_step(t)", _expand_step("t", "p", lambda p: (
            f"CASE WHEN {both_containers.format(p + '.')} THEN CASE WHEN cy_shape({p}.a) <> cy_shape({p}.b)"
            f" THEN [{unequal}] ELSE list_transform(list_zip(cy_values({p}.a), cy_values({p}.b)),"
            f" lambda q: {_pair('q[1]', 'q[2]')}) END ELSE [{p}] END"))),
        # `=` where one side is known to be no list or map: no walk
        ("cy_eq_scalar(a, b)", _scalar_eq("a", "b", "cy_kind(a)", "cy_kind(b)")),
        ("cy_eq(a, b)",
         f"[false, NULL, true][coalesce(list_min(list_transform({expanded},"
         " lambda p: coalesce(cy_eq_pair(p.a, p.b, p.ka, p.kb)::INTEGER * 2, 1))), 2) + 1]"),
    ]


def _scalar_cmp(a: str, b: str, ka: str, kb: str) -> str:
    """-1/0/1 for comparable non-null scalars (of kinds `ka` and `kb`), NULL when Cypher says they are
    incomparable."""
    return (
        f"CASE WHEN {a} IS NULL OR {b} IS NULL THEN NULL"
        f" WHEN {ka} = 2 AND {kb} = 2 THEN sign(TRY_CAST({a} AS BIGINT) - TRY_CAST({b} AS BIGINT))"
        f" WHEN {ka} IN (2, 3) AND {kb} IN (2, 3) THEN"
        f" CASE WHEN isnan(TRY_CAST({a} AS DOUBLE)) OR isnan(TRY_CAST({b} AS DOUBLE)) THEN NULL"
        f" ELSE sign(TRY_CAST({a} AS DOUBLE) - TRY_CAST({b} AS DOUBLE))::INTEGER END"
        f" WHEN {ka} <> {kb} THEN NULL"
        f" WHEN {ka} = 4 THEN CASE WHEN TRY_CAST({a} AS VARCHAR) < TRY_CAST({b} AS VARCHAR) THEN -1"
        f" WHEN TRY_CAST({a} AS VARCHAR) > TRY_CAST({b} AS VARCHAR) THEN 1 ELSE 0 END"
        f" WHEN {ka} = 1 THEN TRY_CAST({a} AS BOOLEAN)::INTEGER - TRY_CAST({b} AS BOOLEAN)::INTEGER"
        f" WHEN {ka} BETWEEN 10 AND 14 THEN CASE WHEN {a} < {b} THEN -1 WHEN {a} > {b} THEN 1 ELSE 0 END"
        f" ELSE NULL END"
    )


LENGTHS = -2
"""The kind of the pair that ends a pair of lists in `cy_cmp`'s walk: its `a` the sign of their lengths'
difference, which decides when every pair of elements before it is equal."""


def _comparison_macros() -> list[tuple[str, str]]:
    """cy_cmp(a, b): -1, 0, 1, or NULL when incomparable. Lists compare lexicographically: the first element
    pair that is not equal decides (NULL if incomparable), else the shorter list is smaller. Walked in steps
    as `cy_eq` is (ADR-0077, ADR-0087): a pair of lists becomes the pairs of their elements (as far as the
    shorter goes) and a pair of kind `LENGTHS`; the flattened pairs' codes, in order, hold the same first
    non-zero code as the nested comparison would find (NULL coded 2, so it decides too)."""
    lists = "{0}ka = 5 AND {0}kb = 5"
    def lengths(p: str) -> str:
        return (f"{{'a': sign(len(TRY_CAST({p}.a AS VARIANT[])) - len(TRY_CAST({p}.b AS VARIANT[])))::VARIANT,"
                f" 'b': NULL::VARIANT, 'ka': {LENGTHS}, 'kb': {LENGTHS}}}")
    expanded = _expanded("cy_cmp_step", f"[{_pair('a', 'b')}]", "cy_kind(a) = 5 AND cy_kind(b) = 5", MAX_DEPTH)
    return [
        ("cy_cmp_pair(a, b, ka, kb)",
         f"CASE WHEN ka = {LENGTHS} THEN TRY_CAST(a AS INTEGER) WHEN {lists.format('')} THEN"
         f" {_too_deep('comparing')} ELSE coalesce({_scalar_cmp('a', 'b', 'ka', 'kb')}, 2) END"),
        # `<` of two values no list walk is wanted for (APOC's comparisons): two lists are refused
        ("cy_cmp_scalar(a, b)",
         f"CASE WHEN cy_kind(a) = 5 AND cy_kind(b) = 5 THEN {_too_deep('comparing')}"
         f" ELSE {_scalar_cmp('a', 'b', 'cy_kind(a)', 'cy_kind(b)')} END"),
        ("cy_cmp_step(t)", _expand_step("t", "p", lambda p: (
            f"CASE WHEN {lists.format(p + '.')} THEN list_append(list_transform(list_zip(TRY_CAST({p}.a AS"
            f" VARIANT[]), TRY_CAST({p}.b AS VARIANT[]), true), lambda q: {_pair('q[1]', 'q[2]')}),"
            f" {lengths(p)}) ELSE [{p}] END"))),
        ("cy_cmp(a, b)",
         "CASE WHEN a IS NULL OR b IS NULL THEN NULL ELSE [-1, 0, 1, NULL][coalesce(list_filter(list_transform("
         f"{expanded}, lambda p: cy_cmp_pair(p.a, p.b, p.ka, p.kb)), lambda c: c <> 0)[1], 0) + 2] END"),
    ]


def _key_macros() -> list[tuple[str, str]]:
    """Sort and grouping keys: a list whose DuckDB order is Cypher's order and whose equality is Cypher's
    equivalence (1 ~ 1.0, NaN ~ NaN, null ~ null): one STRUCT per token of the value (`_tokens`), written
    `cy_key_token(v, k)` for a token `v` of kind `k`. DuckDB orders lists element by element, a shorter one
    first when it is the other's start, as Cypher orders lists: a list is an opening token (kind 5, no
    value), its elements' tokens and a closing one (kind `CLOSE`, rank -1, before any element), so a list
    that ends first sorts first at any depth. A map is an opening token (kind 6), its sorted keys, a closing
    token, its values in key order and a closing token, as Cypher orders maps."""
    node, rel = sql_string(tag_key("NODE")), sql_string(tag_key("RELATIONSHIP"))
    virtual_id = "variant_extract(cy_virtual(v), 'id')"  # negative: never a stored id (ADR-0071)
    token = (
        f"struct_pack(r := {_rank_sql('k')}::TINYINT,"
        " d := CASE WHEN k IN (2, 3) THEN TRY_CAST(v AS DOUBLE)"
        f" WHEN k = 7 THEN coalesce(variant_extract(v, {node}), {virtual_id})::DOUBLE"
        f" WHEN k = 8 THEN coalesce(variant_extract(v, {rel}), {virtual_id})::DOUBLE END,"
        " i := CASE WHEN k = 2 THEN TRY_CAST(v AS BIGINT) WHEN k = 3 AND"
        " TRY_CAST(v AS DOUBLE) = trunc(TRY_CAST(v AS DOUBLE)) AND abs(TRY_CAST(v AS DOUBLE)) < 9.2e18"
        " THEN TRY_CAST(v AS DOUBLE)::BIGINT END,"
        " s := CASE WHEN k IN (1, 4, 9) THEN TRY_CAST(v AS VARCHAR) END,"
        " t := CASE WHEN k BETWEEN 10 AND 14 OR k = 16 THEN v WHEN k = 15 THEN cy_t_duration_key(v)::VARIANT END,"
        " w := CASE WHEN k = 17 THEN cy_vector_key(v) END)")
    return [
        ("cy_key_token(v, k)", token),
        ("cy_key_step(t)", _expand_step(
            "t", "tk", lambda tk: (
                f"CASE WHEN {tk}.value IS NULL OR {tk}.kind NOT IN (5, 6) THEN [{tk}]"
                f" WHEN {tk}.kind = 5 THEN list_concat([{_token(5)}], {_tokens(f'TRY_CAST({tk}.value AS VARIANT[])')},"
                f" [{_token(CLOSE)}])"
                f" ELSE list_concat([{_token(6)}], list_transform(cy_map_keys({tk}.value),"
                f" lambda n: {_token(4, 'n::VARIANT')}), [{_token(CLOSE)}], {_tokens(f'cy_values({tk}.value)')},"
                f" [{_token(CLOSE)}]) END"))),
        ("cy_key(v)",
         f"list_transform({_expanded('cy_key_step', _tokens('[v]'), 'cy_kind(v) IN (5, 6)', KEY_DEPTH)},"
         f" lambda tk: CASE WHEN tk.kind IN (5, 6) AND tk.value IS NOT NULL THEN {_too_deep('ordering', KEY_DEPTH)}"
         " ELSE cy_key_token(tk.value, tk.kind) END)"),
    ]


def _token(kind: int, value: str = "NULL::VARIANT") -> str:
    return f"{{'kind': {kind}, 'value': {value}}}"


def _tokens(values: str) -> str:
    """The VARIANTs `values` as tokens: each with its kind, named once."""
    return f"list_transform({values}, lambda e: {{'kind': cy_kind(e), 'value': e}})"


def _expand_step(items: str, name: str, expand: Callable[[str], str]) -> str:
    """One step of a walk into nested lists and maps without recursion: each of `items` (read as `name`)
    replaced by the list `expand` makes of it, in order. DuckDB binds a lambda's body over again for each
    lambda around it, so a macro calling the level below inside a lambda, level after level, cost seconds to
    bind: a step applied to the result of the one before keeps every lambda one or two deep."""
    return f"flatten(list_transform({items}, lambda {name}: {expand(name)}))"


def _expanded(step: str, items: str, nested: str, depth: int) -> str:
    """`items` after `depth` applications of the macro `step`, when the SQL condition `nested` holds (a
    value of no list or map skips them)."""
    walked = items
    for _ in range(depth):
        walked = f"{step}({walked})"
    return f"CASE WHEN {nested} THEN {walked} ELSE {items} END"


def _arithmetic_macros() -> list[tuple[str, str]]:
    type_error = lambda op: error_sql(  # noqa: E731
        "TypeError", "InvalidArgumentType",
        f"'cannot apply {op} to ' || cy_type_name(a) || ' and ' || cy_type_name(b)")
    both_int = "cy_kind(a) = 2 AND cy_kind(b) = 2"
    both_num = "cy_kind(a) IN (2, 3) AND cy_kind(b) IN (2, 3)"
    null = "a IS NULL OR b IS NULL"
    return [
        ("cy_add(a, b)",
         f"CASE WHEN {null} THEN NULL"
         f" WHEN {both_int} THEN (TRY_CAST(a AS BIGINT) + TRY_CAST(b AS BIGINT))::VARIANT"
         f" WHEN {both_num} THEN (TRY_CAST(a AS DOUBLE) + TRY_CAST(b AS DOUBLE))::VARIANT"
         f" WHEN cy_kind(a) = 5 AND cy_kind(b) = 5 THEN ("
         f"{capped_concat('TRY_CAST(a AS VARIANT[])', 'TRY_CAST(b AS VARIANT[])')})::VARIANT"
         " WHEN cy_kind(a) = 5 THEN list_append(TRY_CAST(a AS VARIANT[]), b)::VARIANT"
         " WHEN cy_kind(b) = 5 THEN list_prepend(a, TRY_CAST(b AS VARIANT[]))::VARIANT"
         f" WHEN cy_kind(a) = 4 AND cy_kind(b) = 4 THEN ("
         f"{capped_text_concat('TRY_CAST(a AS VARCHAR)', 'TRY_CAST(b AS VARCHAR)')})::VARIANT"
         " WHEN cy_kind(a) = 4 AND cy_kind(b) IN (2, 3, 1) THEN (TRY_CAST(a AS VARCHAR) || cy_scalar_text(b))::VARIANT"
         " WHEN cy_kind(b) = 4 AND cy_kind(a) IN (2, 3, 1) THEN (cy_scalar_text(a) || TRY_CAST(b AS VARCHAR))::VARIANT"
         f" ELSE {type_error('+')} END"),
        ("cy_sub(a, b)",
         f"CASE WHEN {null} THEN NULL WHEN {both_int} THEN (TRY_CAST(a AS BIGINT) - TRY_CAST(b AS BIGINT))::VARIANT"
         f" WHEN {both_num} THEN (TRY_CAST(a AS DOUBLE) - TRY_CAST(b AS DOUBLE))::VARIANT ELSE {type_error('-')} END"),
        ("cy_mul(a, b)",
         f"CASE WHEN {null} THEN NULL WHEN {both_int} THEN (TRY_CAST(a AS BIGINT) * TRY_CAST(b AS BIGINT))::VARIANT"
         f" WHEN {both_num} THEN (TRY_CAST(a AS DOUBLE) * TRY_CAST(b AS DOUBLE))::VARIANT ELSE {type_error('*')} END"),
        ("cy_div(a, b)",
         f"CASE WHEN {null} THEN NULL WHEN {both_int} THEN"
         " CASE WHEN TRY_CAST(b AS BIGINT) = 0 THEN "
         + error_sql("ArithmeticError", "DivisionByZero", "'/ by zero'")
         + " ELSE (TRY_CAST(a AS BIGINT) // TRY_CAST(b AS BIGINT))::VARIANT END"
         f" WHEN {both_num} THEN cy_float_div(TRY_CAST(a AS DOUBLE), TRY_CAST(b AS DOUBLE))::VARIANT"
         f" ELSE {type_error('/')} END"),
        ("cy_float_div(x, y)",
         # Java's division by a zero of either sign: 2 / -0.0 is -Infinity (DuckDB gives Infinity)
         "CASE WHEN x IS NULL OR y IS NULL THEN NULL::DOUBLE"
         " WHEN y = 0 THEN CASE WHEN x = 0 OR isnan(x) THEN 'NaN'::DOUBLE WHEN signbit(x) = signbit(y)"
         " THEN 'Infinity'::DOUBLE ELSE '-Infinity'::DOUBLE END ELSE x / y END"),
        ("cy_mod(a, b)",
         f"CASE WHEN {null} THEN NULL WHEN {both_int} THEN"
         " CASE WHEN TRY_CAST(b AS BIGINT) = 0 THEN "
         + error_sql("ArithmeticError", "DivisionByZero", "'/ by zero'")
         + " ELSE (TRY_CAST(a AS BIGINT) % TRY_CAST(b AS BIGINT))::VARIANT END"
         f" WHEN {both_num} THEN (TRY_CAST(a AS DOUBLE) % TRY_CAST(b AS DOUBLE))::VARIANT ELSE {type_error('%')} END"),
        ("cy_pow(a, b)",
         f"CASE WHEN {null} THEN NULL WHEN {both_num} THEN pow(TRY_CAST(a AS DOUBLE), TRY_CAST(b AS DOUBLE))::VARIANT"
         f" ELSE {type_error('^')} END"),
        ("cy_neg(a)",
         "CASE cy_kind(a) WHEN 0 THEN NULL WHEN 2 THEN (-(TRY_CAST(a AS BIGINT)))::VARIANT"
         " WHEN 3 THEN (-(TRY_CAST(a AS DOUBLE)))::VARIANT"
         " ELSE " + error_sql("TypeError", "InvalidArgumentType",
                              "'cannot negate ' || cy_type_name(a)") + " END"),
        *_float_text_macros(),
        # The text of a boolean, integer, float or string; cy_add calls it where no other kind can reach it.
        ("cy_scalar_text(v)",
         "CASE cy_kind(v) WHEN 4 THEN TRY_CAST(v AS VARCHAR) WHEN 2 THEN TRY_CAST(v AS BIGINT)::VARCHAR"
         " WHEN 3 THEN cy_float_to_string(TRY_CAST(v AS DOUBLE)) ELSE TRY_CAST(v AS BOOLEAN)::VARCHAR END"),
        ("cy_to_string(v)",
         "CASE WHEN cy_kind(v) BETWEEN 1 AND 4 THEN cy_scalar_text(v) WHEN cy_kind(v) = 0 THEN NULL ELSE "
         + error_sql("TypeError", "InvalidArgumentValue", "'cannot convert ' || cy_type_name(v) || ' to a string'")
         + " END"),
    ]


def _float_text_exceptions() -> dict[str, str]:
    """DuckDB's text of a double -> Java's, where Java's is not the shortest digits rewritten: NaN (of either sign), the
    infinities, and the few subnormals whose one-digit shortest form Java replaces by a nearer two-digit one."""
    texts = {"nan": "NaN", "-nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}
    for x, text in java_subnormal_texts().items():
        texts |= {repr(x): text, repr(-x): "-" + text}
    return texts


def _float_text_macros() -> list[tuple[str, str]]:
    """`cy_float_to_string(x)`: Java's Double.toString, the text `engine.values.java_double_text` gives.

    DuckDB's DOUBLE -> VARCHAR cast writes the shortest round-trip digits as Python's repr does: plain from
    1e-4 to 1e16 (`123456789.0`, `0.0001234`), else `1.5e+20`, `1e-05`. Java's plain range is 1e-3 to 1e7
    (`PLAIN_EXPONENTS`): there, and for zero, the cast is Java's text already; elsewhere the E form is
    rewritten (`1.5E20`, `1.0E-5`) and plain text is moved into it (`1.23456789E8`, `1.234E-4`), but for what
    `_float_text_exceptions` lists. `cy_float_text(a, s)` takes |x| and the cast: each macro argument is
    copied where it is named and DuckDB binds every copy, so the body stays small (`cy_add` holds two)."""
    exceptions = "MAP {" + ", ".join(f"{sql_string(key)}: {sql_string(text)}"
                                     for key, text in _float_text_exceptions().items()) + "}"
    low, high = f"1e{PLAIN_EXPONENTS.start}", f"1e{PLAIN_EXPONENTS.stop}"
    return [
        ("cy_float_sci(m, p)", "regexp_replace(m, '[.]$', '.0') || 'E' || CAST(p AS VARCHAR)"),
        ("cy_float_text(a, s)",
         f"CASE WHEN (a >= {low} AND a < {high}) OR a = 0 THEN s ELSE coalesce({exceptions}[s], CASE"
         " WHEN contains(s, 'e') THEN regexp_replace(regexp_replace(s, '^(-?[0-9])e', '\\1.0e'), 'e[+]?(-?)0*', 'E\\1')"
         f" WHEN a >= {high} THEN cy_float_sci("
         "rtrim(regexp_replace(s, '^(-?[0-9])([0-9]*)[.]', '\\1.\\2'), '0'), length(regexp_extract(s, '[0-9]+')) - 1)"
         " ELSE cy_float_sci(regexp_replace(s, '0[.]0*([1-9])', '\\1.'), -1 - length(regexp_extract(s, '[.](0*)', 1)))"
         " END) END"),
        ("cy_float_to_string(x)", "cy_float_text(abs(x), CAST(x AS VARCHAR))"),
    ]


# A VARIANT is cast with TRY_CAST in the macros: DuckDB folds constant arguments through every CASE branch,
# taken or not, and a cast that fails in a branch the kind check rules out must not raise.
MACROS: list[tuple[str, str]] = _macros()


ROUNDING_MODES = ("UP", "DOWN", "CEILING", "FLOOR", "HALF_UP", "HALF_DOWN", "HALF_EVEN", "UNNECESSARY")
# Java's Character.isWhitespace: what trim(), ltrim(), rtrim() and btrim() remove by default.
WHITESPACE_CODES = (9, 10, 11, 12, 13, 28, 29, 30, 31, 32, 0x1680, *range(0x2000, 0x2007), 0x2008, 0x2009, 0x200A,
                    0x2028, 0x2029, 0x205F, 0x3000)


SPECIAL_CASING_RANGES = ((0x00C0, 0x0600), (0x1E00, 0x2000), (0xFB00, 0xFB18))
"""The code points Unicode's SpecialCasing.txt maps to several characters unconditionally (U+00DF ß to U+FB17
ﬗ): a test checks that no code point outside these ranges has such a mapping."""
CASED = r"\p{Lu}\p{Ll}\p{Lt}"
CASE_IGNORABLE = r"\p{Mn}\p{Me}\p{Cf}\p{Lm}\p{Sk}'.:" + "".join(
    rf"\x{{{code:04X}}}" for code in (0x00B7, 0x0387, 0x05F4, 0x2018, 0x2019, 0x2024, 0xFE52, 0xFF07, 0xFF0E))
"""RE2 classes for Unicode's Final_Sigma condition: letters with case, and the characters case ignores (marks,
format characters, modifiers, and the apostrophes, periods and colons inside words)."""
FINAL_SIGMA = (f"([{CASED}][{CASE_IGNORABLE}]*)Σ([{CASE_IGNORABLE}]*)([^{CASED}{CASE_IGNORABLE}]|$)",
               "\\1ς\\2\\3")
"""The RE2 pattern of a capital sigma in final position (a cased letter before it and none after, skipping the
characters case ignores), and its replacement: the final form ς. One replacement finds them all: a match
that takes the character after a sigma takes one neither cased nor ignorable, which starts no later match,
and in ΣΣ the first sigma is the cased letter before the second."""
FINAL_SIGMA_FUNCTION = "cy_final_sigma"
"""The function replacing FINAL_SIGMA (engine/execute/normal_forms.py registers it): a DuckDB regular
expression of these Unicode classes costs every statement using it 4 ms to compile, used or not, where this
function compiles it only for a chunk of strings that hold a capital sigma."""


def full_case_mappings(convert: Callable[[str], str]) -> dict[str, str]:
    """The characters `convert` (str.upper or str.lower) maps to more than one: Python's full case mapping,
    whose unconditional entries are Java's (ß -> SS, ﬁ -> FI, İ -> i̇)."""
    mapped = ((character, convert(character)) for low, high in SPECIAL_CASING_RANGES
              for character in map(chr, range(low, high)))
    return {character: result for character, result in mapped if len(result) > 1}


def _full_case(function: str, mappings: dict[str, str], *, also: str = "",
               then: Callable[[str], str] = lambda sql: sql) -> str:
    """DuckDB's `function` (upper or lower, which map one code point to one) after the multi-character
    `mappings` and `then`, for a string holding a character of theirs (or of `also`); others, ASCII first (a
    string whose bytes are its characters, tested at a fraction of a regular expression's cost), go straight."""
    replaced = "s"
    for character, result in mappings.items():
        replaced = f"replace({replaced}, {sql_string(character)}, {sql_string(result)})"
    special = sql_string("[" + "".join(mappings) + also + "]")
    return (f"CASE WHEN strlen(s) = length(s) THEN {function}(s) WHEN regexp_matches(s, {special})"
            f" THEN {function}({then(replaced)}) ELSE {function}(s) END")


def _case_macros() -> list[tuple[str, str]]:
    """toUpper() and toLower() as Java's String.toUpperCase / toLowerCase (Locale.ROOT) do them: full case
    mapping, and a capital sigma that ends a word lower-cased to the final form ς (Unicode's Final_Sigma,
    FINAL_SIGMA)."""
    return [
        ("cy_upper(s)", _full_case("upper", full_case_mappings(str.upper))),
        ("cy_lower(s)", _full_case("lower", full_case_mappings(str.lower), also="Σ",
                                   then=lambda sql: f"{FINAL_SIGMA_FUNCTION}({sql})")),
    ]


def _function_macros() -> list[tuple[str, str]]:
    """round() with Java's semantics, whitespace for the trim functions.

    `cy_round_math(x)` is Java's Math.round (ties toward positive infinity), used by round(x) and round(x, 0).
    `cy_round(x, p, mode)` is `BigDecimal.valueOf(x).setScale(p, mode)`: the decimal digits of x's shortest
    representation (what DuckDB prints, like Java's Double.toString) rounded at `p` fraction digits. The
    digits D and exponent E (x = D * 10^E) come from the printed text; dropping k = -E - p digits leaves
    the quotient q and remainder r of D by 10^k, and the mode decides whether q moves one away from zero.
    At most 18 digits are ever dropped from a 17-digit D, so q, r and 10^k fit a HUGEINT."""
    modes = ", ".join(sql_string(mode) for mode in ROUNDING_MODES)
    increment = (
        "CASE m WHEN 'UP' THEN r > 0 WHEN 'DOWN' THEN false WHEN 'CEILING' THEN r > 0 AND NOT neg"
        " WHEN 'FLOOR' THEN r > 0 AND neg WHEN 'HALF_UP' THEN r >= half WHEN 'HALF_DOWN' THEN r > half"
        " WHEN 'HALF_EVEN' THEN r > half OR (r = half AND q % 2 = 1)"
        " WHEN 'UNNECESSARY' THEN CASE WHEN r > 0 THEN "
        + error_sql("ArithmeticError", "RoundingNecessary",
                    "'round() with mode UNNECESSARY needs a value that is exact at the given precision'")
        + " ELSE false END END")
    dropped = "(length(t.frac) - coalesce(TRY_CAST(nullif(t.exp, '') AS BIGINT), 0) - p)"
    return [
        ("cy_round_math(x)",
         "CASE WHEN isnan(x) OR isinf(x) THEN x ELSE floor(x) + CASE WHEN x - floor(x) >= 0.5 THEN 1 ELSE 0 END END"),
        ("cy_pow10(k)", "CAST('1' || repeat('0', TRY_CAST(k AS INTEGER)) AS HUGEINT)"),
        ("cy_round_finish(neg, q, p)",
         "CASE WHEN q = 0 THEN 0.0::DOUBLE"
         " ELSE CAST(CASE WHEN neg THEN '-' ELSE '' END || TRY_CAST(q AS VARCHAR) || 'e' || (-p)::VARCHAR"
         " AS DOUBLE) END"),
        ("cy_round_digits(neg, q, r, half, p, m)", f"cy_round_finish(neg, q + ({increment})::INTEGER, p)"),
        ("cy_round_scaled(neg, d, k, p, m)",
         "cy_round_digits(neg, d // cy_pow10(k), d % cy_pow10(k), cy_pow10(k) // 2, p, m)"),
        ("cy_round_parts(x, t, p, m)",
         f"CASE WHEN {dropped} <= 0 THEN x ELSE cy_round_scaled(t.sign = '-',"
         f" TRY_CAST(t.int || t.frac AS HUGEINT), least({dropped}, 19), p, m) END"),
        ("cy_round(x, p, m)",
         "CASE WHEN x IS NULL OR p IS NULL OR m IS NULL THEN NULL::DOUBLE"
         f" WHEN m NOT IN ({modes}) THEN "
         + error_sql("ArgumentError", "InvalidArgumentValue",
                     "'Unknown rounding mode ' || m || '. Valid values are: CEILING, FLOOR, UP, DOWN, HALF_EVEN,"
                     " HALF_UP, HALF_DOWN, UNNECESSARY'")
         + " WHEN p < 0 THEN "
         + error_sql("ArgumentError", "NegativeIntegerArgument", "'the precision of round() cannot be negative'")
         + " WHEN isnan(x) OR isinf(x) THEN x"
         " ELSE cy_round_parts(x, regexp_extract(TRY_CAST(x AS VARCHAR),"
         " '^(-?)([0-9]+)(?:[.]([0-9]+))?(?:e([+-]?[0-9]+))?$',"
         " ['sign', 'int', 'frac', 'exp']), p, m) END"),
        ("cy_whitespace()", " || ".join(f"chr({code})" for code in WHITESPACE_CODES)),
    ]


MACROS += _function_macros() + _case_macros()


def session_sql() -> str:
    """What the macros read from the session, to set on every DuckDB connection (or cursor) that runs
    engine SQL: variables are per connection."""
    return f"SET VARIABLE {KINDS_VARIABLE} = {_kind_map()}"
