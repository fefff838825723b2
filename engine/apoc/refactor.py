"""APOC Core's `apoc.refactor.mergeNodes(nodes, config)`: merge the nodes of a list onto its first one, bound as
the Cypher it stands for (a procedure macro, ADR-0060), so that every row's merge runs in the same set-based
clauses, counted and in the statement's transaction.

What APOC's Java code does one node after another, the clauses do at once, with the same result:
- the first node gets every label of the others, and each property key the nodes have is merged by the mode
  `config.properties` gives it (a mode for every key, or a map from key patterns, Java regular expressions, to
  modes; `overwrite` by default): `overwrite` / `override` keeps the last node's value, `discard` the first,
  `combine` the distinct values, lists flattened, as a list (one value stays a value unless
  `singleElementAsArray`; values of different types become strings);
- each relationship of another node is made again from or to the first node (one between two of the merged
  nodes becomes a self-relationship); with `produceSelfRel: false` the others' own self-relationships are
  dropped;
- with `mergeRels`, the first node's relationships of the same type, start and end become one, whose
  properties are merged as the nodes' are (`combine` when `config.properties` is not given), the newest
  relationship first as Neo4j lists them: the moved ones, those of later nodes first, then the first node's
  own, newest first. Its self-relationships from before the merge stay apart (`preserveExistingSelfRels`,
  true by default); with `produceSelfRel: false` the merged self-relationships are deleted;
- the other nodes are deleted.
"""

from __future__ import annotations

from engine.semantic.procedure_macros import ProcedureMacro, subquery_macro

NAME = "apoc.refactor.mergeNodes"


def _mode(default: str) -> str:
    """The merge mode of key `__k` by `__pm`, the config's `properties` (APOC's RefactorConfig.getMergeMode)."""
    return (f"CASE WHEN `__pm` IS NULL THEN '{default}' WHEN `__pm` IS :: STRING THEN `__pm`"
            " ELSE coalesce(head([`__q` IN keys(`__pm`) WHERE `__q` <> '.*' AND `__k` =~ `__q` | `__pm`[`__q`]]),"
            " `__pm`['.*'], 'overwrite') END")


def _distinct(items: str) -> str:
    """The list `items` without its repeated elements, in order (coll.distinct's key macros cost seconds to
    bind over values of any type; `IN` does not)."""
    return f"[`__j` IN range(0, size({items}) - 1) WHERE NOT {items}[`__j`] IN {items}[0..`__j`] | {items}[`__j`]]"


def _merged(maps: str, default: str, result: str) -> str:
    """A CALL binding `result` to the merge of the property maps `maps` (the target's first), key by key."""
    return (
        f"CALL (`__pm`, `__single`, {maps}) {{"
        f" WITH *, reduce(`__a` = [], `__m` IN {maps} | `__a` + keys(`__m`)) AS `__ks`"
        f" UNWIND {_distinct('`__ks`')} AS `__k`"
        f" WITH {maps}, `__single`, `__k`, {_mode(default)} AS `__mode`,"
        f" [`__m` IN {maps} WHERE `__m`[`__k`] IS NOT NULL | `__m`[`__k`]] AS `__vals`"
        # lists among the values spliced in (coll.flatten, where a reduce() adding each would bind `+` over
        # values of any type, temporal ones included, for a second)
        " WITH *, coll.flatten(`__vals`) AS `__f`"
        f" WITH *, {_distinct('`__f`')} AS `__d`"
        " WITH `__k`, CASE WHEN `__mode` IN ['overwrite', 'override'] THEN last(`__vals`)"
        " WHEN `__mode` = 'discard' OR (`__mode` = 'combine' AND size(`__vals`) = 1) THEN head(`__vals`)"
        " WHEN `__mode` <> 'combine' THEN " + maps + "[0][`__k`]"
        " WHEN size(`__d`) = 1 AND NOT `__single` THEN `__d`[0]"
        " WHEN all(`__y` IN `__d` WHERE valueType(`__y`) = valueType(`__d`[0])) THEN `__d`"
        " ELSE [`__y` IN `__d` | toString(`__y`)] END AS `__value`"
        f" RETURN apoc.map.fromPairs(collect([`__k`, `__value`])) AS {result} }}")


_BODY = (
    "WITH *, [`__x` IN coalesce(__a0, []) WHERE `__x` IS NOT NULL] AS `__given`, coalesce(__a1, {}) AS `__cfg`"
    " WITH *, [`__x` IN `__given` | id(`__x`)] AS `__givenIds`"
    " WITH *, [`__j` IN range(0, size(`__given`) - 1) WHERE NOT `__givenIds`[`__j`] IN `__givenIds`[0..`__j`] |"
    " `__given`[`__j`]] AS `__ns`"
    " WITH *, `__ns`[0] AS `__out_node`, `__ns`[1..] AS `__others`, [`__x` IN `__ns` | id(`__x`)] AS `__ids`,"
    " `__cfg`.properties AS `__pm`, coalesce(`__cfg`.singleElementAsArray, false) AS `__single`,"
    " coalesce(`__cfg`.mergeRels, false) AS `__mergeRels`, coalesce(`__cfg`.produceSelfRel, true) AS `__selfRels`,"
    " coalesce(`__cfg`.preserveExistingSelfRels, true) AS `__keepSelfRels`"
    " WHERE size(`__ns`) > 0"
    # the relationships after the merge: one row per relationship to make again or group to merge
    " CALL (`__ns`, `__ids`, `__out_node`, `__pm`, `__single`, `__mergeRels`, `__selfRels`, `__keepSelfRels`) {"
    "  CALL (`__ns`, `__ids`, `__out_node`, `__mergeRels`, `__selfRels`, `__keepSelfRels`) {"
    "   UNWIND range(0, size(`__ns`) - 1) AS `__i`"
    "   WITH `__ns`[`__i`] AS `__o`, `__i`, `__ids`, `__out_node`, `__mergeRels`, `__selfRels`, `__keepSelfRels`"
    "   MATCH (`__o`)-[`__r`]-()"
    "   WITH *, coll.indexOf(`__ids`, id(startNode(`__r`))) AS `__from`, coll.indexOf(`__ids`, id(endNode(`__r`)))"
    "    AS `__to`"
    "   WITH *, CASE WHEN `__from` > `__to` THEN `__from` ELSE `__to` END AS `__pos`"
    "   WHERE `__pos` = `__i`"
    "   WITH *, `__from` = `__to` AS `__loop`,"
    "    CASE WHEN `__from` >= 0 THEN `__out_node` ELSE startNode(`__r`) END AS `__s`,"
    "    CASE WHEN `__to` >= 0 THEN `__out_node` ELSE endNode(`__r`) END AS `__e`"
    "   WHERE `__pos` = 0 OR `__selfRels` OR NOT `__loop`"
    "   WITH *, `__mergeRels` AND NOT (`__pos` = 0 AND `__loop` AND `__keepSelfRels`) AS `__grouped`"
    "   ORDER BY `__pos` = 0, `__pos` DESC, CASE WHEN `__pos` = 0 THEN -id(`__r`) ELSE id(`__r`) END"
    "   WITH `__s`, `__e`, type(`__r`) AS `__t`, `__grouped`, `__selfRels`,"
    "    CASE WHEN `__grouped` THEN '' ELSE elementId(`__r`) END AS `__key`,"
    "    collect(properties(`__r`)) AS `__maps`, collect(CASE WHEN `__pos` = 0 THEN `__r` END) AS `__own`,"
    "    max(`__pos`) AS `__newest`"
    "   WITH *, `__grouped` AND NOT `__selfRels` AND `__s` = `__e` AS `__drop`"
    "   WHERE `__drop` OR `__newest` > 0 OR size(`__maps`) > 1"
    "   RETURN `__s`, `__e`, `__t`, `__maps`, `__own`, `__drop`"
    "  }"
    "  FOREACH (`__x` IN `__own` | DELETE `__x`)"
    "  WITH * WHERE NOT `__drop`"
    f"  {_merged('`__maps`', 'combine', '`__props`')}"
    "  CREATE (`__s`)-[`__c`:$(`__t`)]->(`__e`) SET `__c` = `__props`"
    " }"
    # the first node's properties and labels, the others deleted
    " CALL (`__ns`, `__out_node`, `__others`, `__pm`, `__single`) {"
    "  UNWIND range(0, size(`__ns`) - 1) AS `__i`"
    "  WITH `__ns`[`__i`] AS `__n`, `__i`, `__out_node`, `__others`, `__pm`, `__single` ORDER BY `__i`"
    "  WITH `__out_node`, `__others`, `__pm`, `__single`, collect(properties(`__n`)) AS `__nodeMaps`,"
    "   reduce(`__a` = [], `__l` IN collect(labels(`__n`)) | `__a` + `__l`) AS `__labels`"
    f"  {_merged('`__nodeMaps`', 'overwrite', '`__props`')}"
    "  FOREACH (`__n` IN `__others` | DETACH DELETE `__n`)"
    "  SET `__out_node` = `__props`"
    "  FOREACH (`__l` IN `__labels` | SET `__out_node`:$(`__l`))"
    " }"
)

PROCEDURE_MACROS: tuple[ProcedureMacro, ...] = (
    subquery_macro(NAME, (("nodes", "LIST<NODE>"), ("config", "MAP")), (("node", "NODE"),), "WRITE", _BODY,
                   defaults=("{}",)),
)
