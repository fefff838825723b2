"""Virtual nodes and relationships made from rows (ADR-0074): the id of each, and the VARIANT that carries it.

A call that makes virtual elements (`apoc.create.vNode`, ...) has a `VirtualSite`: its place k among the
statement's K such calls. On the r-th row of the SELECT it is compiled into (numbered by the rows' order,
`SelectContext.row_number`), it makes the element with id -((r - 1) * K + k): unique within the statement,
since no two calls share k and no two rows of one call share r, and the same from run to run, since r follows
the rows' order. One call per row of one clause numbers -1, -2, ... as APOC's counter would. Inside a list
comprehension a call runs once per element: the element's position (`SelectContext.element_indices`, the
innermost last, 16 bits each below the outermost) goes below that row id times 2^32, apart from every id a
call outside a comprehension makes (below 2^32 in magnitude).
"""

from __future__ import annotations

from engine.errors import UnsupportedFeature
from engine.quoting import sql_identifier
from engine.semantic import bound as b
from engine.sqlgen.context import SelectContext
from engine.storage.encoding import VIRTUAL_PATH_TAG, VIRTUAL_TAGS

ELEMENT_SHIFT = 4294967296
"""2^32: a row id's factor inside a list comprehension, above the positions of its elements."""


def virtual_id(context: SelectContext, call: b.BFunction, name: str) -> str:
    """SQL of the id of the element `call` (named `name` in messages) makes on the current row."""
    site = call.site
    assert site is not None, "the binder gives every call of VIRTUAL_MAKERS a site"
    if context.row_number is None:
        raise UnsupportedFeature(f"{name}() here: a virtual element is made in a RETURN or WITH item (or by"
                                 " the procedure of that name), whose rows number its id", call.span)
    row = f"(({context.row_number}) - 1) * {site.sites[0]} + {site.index}"
    if not context.element_indices:
        return f"(-({row}))::BIGINT"
    position = context.element_indices[0]
    for index in context.element_indices[1:]:
        position = f"({position}) * 65536 + {index}"
    return f"(-(({row}) * {ELEMENT_SHIFT} + {position}))::BIGINT"


def node_payload(node_id: str, labels: str, properties: str) -> str:
    """The VARIANT of a virtual node (`storage.encoding.virtual_node`): `labels` a VARIANT list of strings,
    `properties` a VARIANT map."""
    inner = f"struct_pack(id := {node_id}, labels := {labels}, properties := {properties})"
    return f"struct_pack({sql_identifier(VIRTUAL_TAGS['NODE'])} := {inner})::VARIANT"


def path_payload(nodes: str, rels: str) -> str:
    """The VARIANT of a path of virtual elements (`storage.encoding.VIRTUAL_PATH_TAG`): `nodes` and `rels` VARIANT
    lists of element values, in walking order."""
    inner = f"struct_pack(nodes := {nodes}, rels := {rels})"
    return f"struct_pack({sql_identifier(VIRTUAL_PATH_TAG)} := {inner})::VARIANT"


def relationship_payload(rel_id: str, rel_type: str, start: str, end: str, properties: str) -> str:
    """The VARIANT of a virtual relationship (`storage.encoding.virtual_relationship`): its ends node VARIANTs."""
    inner = (f"struct_pack(id := {rel_id}, type := {rel_type}, start := {start}, \"end\" := {end},"
             f" properties := {properties})")
    return f"struct_pack({sql_identifier(VIRTUAL_TAGS['RELATIONSHIP'])} := {inner})::VARIANT"
