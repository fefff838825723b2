"""CREATE VECTOR INDEX in FalkorDB's form and Neo4j's, and what SHOW INDEXES lists for one.

- FalkorDB: `CREATE VECTOR INDEX FOR (c:Chunk) ON (c.embedding) OPTIONS {dimension: 256,
  similarityFunction: 'cosine'}`; both options required, `M`, `efConstruction`, `efRuntime` accepted (the
  search is exact, so they change nothing).
- Neo4j: `CREATE VECTOR INDEX name FOR (n:L) ON n.p OPTIONS {indexConfig: {`vector.dimensions`: 256,
  `vector.similarity_function`: 'cosine'}}`; the dimension may be left out, the function defaults to cosine.

The index is a catalog row whose `options` hold the dimension and the function as JSON; names, IF NOT
EXISTS and conflicts follow the other indexes (ADR-0016).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.errors import CypherSyntaxError, UnsupportedFeature
from engine.execute.results import Result, empty_counters
from engine.execute.schema_commands import counted, generated_name, index_may_be_created, schema_name
from engine.quoting import cypher_name
from engine.semantic import bound as b
from engine.storage.schema import IndexInfo
from engine.syntax import ast
from engine.vector.constants import syntax_constant

if TYPE_CHECKING:
    from engine.execute.statement_run import StatementRun

PROVIDER = "vector-2.0"
SIMILARITIES = ("cosine", "euclidean")
FALKORDB_OPTIONS = {"dimension", "similarityfunction", "m", "efconstruction", "efruntime"}
NEO4J_CONFIG = {"vector.dimensions", "vector.similarity_function", "vector.hnsw.m", "vector.hnsw.ef_construction",
                "vector.quantization.enabled"}


@dataclass(frozen=True)
class VectorConfig:
    """A vector index's dimension (None: any, Neo4j's default) and similarity function."""

    dimensions: int | None
    similarity: str

    def to_json(self) -> str:
        return json.dumps({"dimensions": self.dimensions, "similarity": self.similarity})

    @staticmethod
    def of(index: IndexInfo) -> VectorConfig:
        data = json.loads(index.options or "{}")
        return VectorConfig(data.get("dimensions"), data.get("similarity", "cosine"))


def _invalid(message: str, span: Any) -> CypherSyntaxError:
    return CypherSyntaxError(f"Invalid vector index configuration: {message}", span, detail="InvalidArgumentValue")


def parse_options(options: Any, span: Any) -> VectorConfig:
    """OPTIONS in either form -> the configuration; unknown keys and bad values are errors."""
    if not isinstance(options, dict):
        raise _invalid("OPTIONS must be a map", span)
    if "indexConfig" in options or "indexProvider" in options:
        return _neo4j_options(options, span)
    unknown = sorted(key for key in options if key.lower() not in FALKORDB_OPTIONS)
    if unknown:
        raise _invalid(f"unknown option `{unknown[0]}`", span)
    lowered = {key.lower(): value for key, value in options.items()}
    if "dimension" not in lowered or "similarityfunction" not in lowered:
        raise _invalid("both `dimension` and `similarityFunction` are required", span)
    return VectorConfig(_dimension(lowered["dimension"], span), _similarity(lowered["similarityfunction"], span))


def _neo4j_options(options: dict[str, Any], span: Any) -> VectorConfig:
    provider = options.get("indexProvider", PROVIDER)
    if provider != PROVIDER or set(options) - {"indexConfig", "indexProvider"}:
        raise _invalid(f"expected {{indexConfig: {{...}}, indexProvider: '{PROVIDER}'}}", span)
    config = options.get("indexConfig") or {}
    if not isinstance(config, dict):
        raise _invalid("indexConfig must be a map", span)
    unknown = sorted(set(config) - NEO4J_CONFIG)
    if unknown:
        raise _invalid(f"unknown setting `{unknown[0]}`", span)
    dimensions = config.get("vector.dimensions")
    return VectorConfig(None if dimensions is None else _dimension(dimensions, span),
                        _similarity(config.get("vector.similarity_function", "cosine"), span))


def _dimension(value: Any, span: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 4096:
        raise _invalid(f"the dimension must be an integer from 1 to 4096, got {value!r}", span)
    return value


def _similarity(value: Any, span: Any) -> str:
    if not isinstance(value, str) or value.lower() not in SIMILARITIES:
        raise _invalid(f"the similarity function must be 'cosine' or 'euclidean', got {value!r}", span)
    return value.lower()


def create_vector_index(run: StatementRun, command: b.BSchemaCommand) -> Result:
    statement = command.statement
    assert isinstance(statement, ast.CreateIndex)
    if statement.entity != "node":
        raise UnsupportedFeature("vector indexes on relationships", statement.span)
    if len(statement.labels) != 1 or len(statement.properties) != 1:
        raise CypherSyntaxError("a vector index is on one label and one property", statement.span,
                                detail="InvalidIndex")
    if statement.options is None:
        raise _invalid("OPTIONS with the dimension and the similarity function are required", statement.span)
    config = parse_options(syntax_constant(statement.options, command.params), statement.options.span)
    catalog = run.store.catalog
    schema = ("vector", "node", statement.labels, statement.properties)
    name = schema_name(command, statement.name) or generated_name("index", *schema)
    if not index_may_be_created(catalog, statement, name, schema):
        return counted()
    run.store.add_index(IndexInfo(name, "vector", "node", statement.labels, statement.properties,
                                  options=config.to_json(), id=run.store.allocate_schema_id()))
    counters = empty_counters()
    counters["indexes_added"] = 1
    return Result([], [], counters)


def index_config(index: IndexInfo) -> dict[str, Any]:
    """`options.indexConfig` of SHOW INDEXES YIELD options, in Neo4j's keys."""
    config = VectorConfig.of(index)
    return {"vector.dimensions": config.dimensions, "vector.similarity_function": config.similarity.upper()}


def create_statement(index: IndexInfo) -> str:
    config = VectorConfig.of(index)
    settings = [f"`vector.similarity_function`: '{config.similarity.upper()}'"]
    if config.dimensions is not None:
        settings.insert(0, f"`vector.dimensions`: {config.dimensions}")
    name, label, key = cypher_name(index.name), cypher_name(index.labels[0]), cypher_name(index.properties[0])
    return (f"CREATE VECTOR INDEX {name} FOR (n:{label}) ON (n.{key}) OPTIONS {{indexConfig: "
            f"{{{', '.join(settings)}}}, indexProvider: '{PROVIDER}'}}")
