"""The feature packages' procedures, functions, binding rewrites and index kinds, registered once, when the
connection module is imported."""

from __future__ import annotations

from engine.algorithms import procedures as algorithm_procedures
from engine.apoc import aggregates as apoc_aggregates
from engine.apoc import collections as apoc_collections
from engine.apoc import create as apoc_create
from engine.apoc import cypher as apoc_cypher
from engine.apoc import date_formatter as apoc_date_formatter
from engine.apoc import dates as apoc_dates
from engine.apoc import functions as apoc_functions
from engine.apoc import graph_aggregate as apoc_graph_aggregate
from engine.apoc import json as apoc_json
from engine.apoc import load_json as apoc_load_json
from engine.apoc import maps as apoc_maps
from engine.apoc import merge as apoc_merge
from engine.apoc import meta as apoc_meta
from engine.apoc import meta_graph as apoc_meta_graph
from engine.apoc import meta_graph_of as apoc_meta_graph_of
from engine.apoc import nodes as apoc_nodes
from engine.apoc import path as apoc_path
from engine.apoc import path_values as apoc_path_values
from engine.apoc import periodic as apoc_periodic
from engine.apoc import refactor as apoc_refactor
from engine.apoc import schema as apoc_schema
from engine.apoc import schema_assert as apoc_schema_assert
from engine.apoc import text as apoc_text
from engine.apoc import virtual as apoc_virtual
from engine.dbms import procedures as dbms_procedures
from engine.dbms import schema_visualization
from engine.execute.index_kinds import IndexKind, register_index_kind
from engine.fulltext import falkordb, maintain
from engine.fulltext import procedures as fulltext_procedures
from engine.fulltext.analyzers import ANALYZERS
from engine.plugins import macros as _macros  # noqa: F401 - the macros come with the compiler
from engine.procedures import register_built_in
from engine.semantic import extensions, function_macros, procedure_macros
from engine.semantic import functions as signatures
from engine.sqlgen import functions as sql_functions
from engine.sqlgen import projection
from engine.vector import functions as vector_functions
from engine.vector import indexes as vector_indexes
from engine.vector import procedures as vector_procedures
from engine.vector import vector_type
from engine.vector.search import vector_search_call
from engine.vector.set_property import PROCEDURE_MACROS as VECTOR_PROCEDURE_MACROS

register_built_in([*fulltext_procedures.procedures(), *vector_procedures.PROCEDURES,
                   *algorithm_procedures.PROCEDURES, *dbms_procedures.PROCEDURES,
                   *dbms_procedures.SCHEMA_PROCEDURES, *schema_visualization.PROCEDURES, *apoc_meta.PROCEDURES,
                   *apoc_meta_graph.PROCEDURES, *apoc_schema.PROCEDURES,
                   *apoc_schema_assert.PROCEDURES, *apoc_load_json.PROCEDURES])
signatures.register_functions(vector_functions.SIGNATURES)
sql_functions.register_functions(vector_functions.FUNCTIONS)
signatures.register_functions(vector_type.SIGNATURES)
sql_functions.register_functions(vector_type.FUNCTIONS)
signatures.KEYWORD_ARGUMENTS.update(vector_type.KEYWORDS)
signatures.register_functions(apoc_functions.SIGNATURES)
sql_functions.register_functions(apoc_functions.FUNCTIONS)
signatures.register_functions(apoc_dates.SIGNATURES)
sql_functions.register_functions(apoc_dates.FUNCTIONS)
signatures.register_functions(apoc_date_formatter.SIGNATURES)
sql_functions.register_functions(apoc_date_formatter.FUNCTIONS)
signatures.register_functions(apoc_text.SIGNATURES)
sql_functions.register_functions(apoc_text.FUNCTIONS)
signatures.register_functions(apoc_maps.SIGNATURES)
sql_functions.register_functions(apoc_maps.FUNCTIONS)
signatures.register_functions(apoc_json.SIGNATURES)
sql_functions.register_functions(apoc_json.FUNCTIONS)
signatures.register_functions(apoc_collections.SIGNATURES)
sql_functions.register_functions(apoc_collections.FUNCTIONS)
signatures.register_functions(apoc_virtual.SIGNATURES)
signatures.register_functions(apoc_meta_graph_of.SIGNATURES)
sql_functions.register_functions(apoc_meta_graph_of.FUNCTIONS)
sql_functions.register_functions(apoc_virtual.FUNCTIONS)
signatures.register_functions(apoc_path_values.SIGNATURES)
sql_functions.register_functions(apoc_path_values.FUNCTIONS)
signatures.VIRTUAL_MAKERS.update(apoc_virtual.MAKERS)
signatures.register_aggregates(apoc_aggregates.BINDINGS)
projection.register_aggregates(apoc_aggregates.AGGREGATES)
signatures.register_aggregates(apoc_graph_aggregate.BINDINGS)
projection.register_aggregates(apoc_graph_aggregate.AGGREGATES)
extensions.STATEMENT_REWRITES.append(falkordb.create_node_index)
extensions.SEARCH_CALLS["vector"] = vector_search_call
PROCEDURE_MACRO_PACKAGES = (VECTOR_PROCEDURE_MACROS, apoc_create.PROCEDURE_MACROS, apoc_merge.PROCEDURE_MACROS,
                            apoc_cypher.PROCEDURE_MACROS, apoc_periodic.PROCEDURE_MACROS, apoc_schema.PROCEDURE_MACROS,
                            apoc_nodes.PROCEDURE_MACROS, apoc_path.PROCEDURE_MACROS,
                            apoc_refactor.PROCEDURE_MACROS, apoc_virtual.PROCEDURE_MACROS,
                            apoc_meta_graph_of.PROCEDURE_MACROS)
procedure_macros.PROCEDURE_MACROS.update({macro.name.lower(): macro
                                          for package in PROCEDURE_MACRO_PACKAGES for macro in package})
function_macros.FUNCTION_MACROS.update(apoc_functions.macros())
function_macros.FUNCTION_MACROS.update(function_macros.parse_macros(vector_type.LIST_CONVERSIONS))
register_index_kind("fulltext", IndexKind("fulltext-1.0", refresh=maintain.refresh, drop=maintain.drop,
                                          analyzers=tuple(ANALYZERS)))
register_index_kind("vector", IndexKind(vector_indexes.PROVIDER, create=vector_indexes.create_vector_index,
                                        create_statement=vector_indexes.create_statement,
                                        config=vector_indexes.index_config))
