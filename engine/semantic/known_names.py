"""Names a Neo4j user may call that the engine does not run yet, and the near names of a misspelled one.

A function or procedure documented by Neo4j's Cypher 25 manual or APOC Core that the engine lacks is an
`UnsupportedFeature` naming it (docs/CYPHER25.md lists the status of each), not a syntax error suggesting the
query is malformed; an unknown name gets the closest names the engine has.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

NOT_YET_FUNCTIONS = frozenset({
    "graph.byname",
    "graph.byelementid", "db.namefromelementid",
    "apoc.util.compress", "apoc.util.decompress",
})
"""Functions of Neo4j's Cypher 25 manual and APOC Core the engine does not run yet (lower case)."""

NOT_YET_PROCEDURES: frozenset[str] = frozenset()
"""Procedures of Neo4j and APOC Core the engine does not run yet (lower case)."""


CANONICAL_NAMES = (
    "toUpper", "toLower", "toString", "toStringOrNull", "toInteger", "toIntegerOrNull", "toFloat", "toFloatOrNull",
    "toBoolean", "toBooleanOrNull", "toBooleanList", "toFloatList", "toIntegerList", "toStringList", "startNode",
    "endNode", "elementId", "isEmpty", "isNaN", "nullIf", "percentileCont", "percentileDisc", "stDev", "stDevP",
    "randomUUID", "valueType", "coll.indexOf", "datetime.fromEpoch", "datetime.fromEpochMillis", "duration.inMonths",
    "duration.inDays", "duration.inSeconds", "vector.similarity.cosine", "vector.similarity.euclidean",
    "vec.cosineDistance", "vec.euclideanDistance", "apoc.coll.toSet", "apoc.coll.containsAll",
    "apoc.coll.removeAll", "apoc.coll.unionAll", "apoc.coll.pairsMin", "apoc.coll.indexOf",
    "apoc.label.exists", "apoc.any.property", "apoc.date.currentTimestamp", "db.relationshipTypes",
    "apoc.date.toISO8601", "apoc.date.fromISO8601", "apoc.text.indexOf", "apoc.text.indexesOf",
    "apoc.text.camelCase", "apoc.text.upperCamelCase", "apoc.text.snakeCase", "apoc.text.toUpperCase",
    "apoc.text.capitalizeAll", "apoc.text.decapitalizeAll", "apoc.text.swapCase", "apoc.text.base64Encode",
    "apoc.text.base64Decode", "apoc.text.base64UrlEncode", "apoc.text.base64UrlDecode",
    "apoc.text.sorensenDiceSimilarity", "apoc.text.jaroWinklerDistance", "apoc.text.regexGroups",
    "apoc.date.toYears", "apoc.agg.maxItems", "apoc.agg.minItems", "apoc.text.urlencode", "apoc.text.urldecode",
    "apoc.text.levenshteinSimilarity", "apoc.text.fuzzyMatch", "apoc.math.maxByte", "apoc.math.minByte",
    "apoc.math.maxDouble", "apoc.math.minDouble", "apoc.math.sigmoidPrime", "apoc.node.relationship.types",
    "apoc.nodes.connected", "apoc.map.mergeList", "apoc.map.groupBy", "apoc.map.groupByMulti",
    "apoc.map.fromValues", "apoc.map.setEntry", "apoc.map.setPairs", "apoc.map.setLists", "apoc.map.setValues",
    "apoc.map.sortedProperties", "apoc.coll.containsDuplicates", "apoc.coll.frequenciesAsMap",
    "apoc.coll.pairWithOffset", "apoc.coll.runningTotal", "apoc.coll.sortMaps", "apoc.coll.sortMulti",
    "apoc.coll.containsSorted", "apoc.coll.containsAllSorted", "apoc.convert.toJson",
    "apoc.convert.toSortedJsonMap", "apoc.convert.fromJsonMap", "apoc.convert.fromJsonList",
    "apoc.map.setKey", "apoc.map.removeKey", "apoc.map.removeKeys", "apoc.map.fromPairs",
    "apoc.map.fromLists", "apoc.convert.toString", "apoc.convert.toInteger", "apoc.convert.toFloat",
    "apoc.convert.toBoolean", "apoc.text.compareCleaned",
    "db.propertyKeys", "db.schema.nodeTypeProperties", "db.schema.relTypeProperties", "db.awaitIndexes",
    "db.awaitIndex", "graph.propertiesByName", "apoc.map.updateTree", "apoc.map.fromNodes", "apoc.coll.sortNodes",
    "apoc.coll.sortText", "apoc.coll.randomItems", "apoc.date.systemTimezone", "apoc.date.convertFormat",
)
"""The names as Neo4j and APOC spell them, where the engine's tables hold them in lower case."""


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """` (did you mean x?)` for the known name closest to `name` (spelled as Neo4j does), or nothing."""
    spelled = {canonical.lower(): canonical for canonical in CANONICAL_NAMES}
    candidates = {candidate.lower(): spelled.get(candidate.lower(), candidate) for candidate in known}
    close = difflib.get_close_matches(name.lower(), list(candidates), n=1, cutoff=0.75)
    return f" (did you mean {candidates[close[0]]}?)" if close else ""
