"""MERGE: the rows that matched nothing grouped by what the pattern depends on, one pattern created
per group (ADR-0006)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine import types as t
from engine.errors import UnsupportedFeature
from engine.execute.constraints import UNIQUE_KINDS
from engine.execute.index_kinds import maintained
from engine.execute.merge_order import creates_first, went
from engine.execute.set_items import _reads_graph
from engine.execute.write_support import (
    WriterBase,
    WriteResult,
    column_list,
    column_takes,
    known_present,
    label_names,
)
from engine.semantic import bound as b
from engine.sqlgen.dynamic_labels import label_list_sql
from engine.sqlgen.expressions import ExpressionCompiler
from engine.sqlgen.keys import group_key_parts
from engine.sqlgen.relation import SEED_ROW, NodeScan, Relation
from engine.sqlgen.runtime import error_sql
from engine.sqlgen.sql import let
from engine.types import Kind, is_storable

EXACT_KEYS = (Kind.STRING, Kind.INTEGER, Kind.BOOLEAN)
"""The kinds of values whose equality in a MERGE's match is the grouping a uniqueness check runs (`_merged_on`)."""


class MergeWriter(WriterBase):
    """The MERGE part of the writer."""

    # -- MERGE --------------------------------------------------------------------------------------

    def merge(self, clause: b.BMerge, relation: Relation) -> WriteResult:
        path = clause.path
        known_unmatched, self.unmatched = self.unmatched, False  # this clause's, never a MERGE's run inside it
        creation = self._created_at_once(clause, relation) if known_unmatched else None
        if creation is not None:
            self._check_merge_sets(clause, relation)
            return self._create_at_once(creation, clause.path, relation)
        table = relation if relation.sql == SEED_ROW else self.stored_rows(relation)  # the seed row is a constant
        self._check_merge_sets(clause, table)
        matched = None  # known to match nothing: not looked for
        if not known_unmatched:
            queries, compiler, alias, parameters = self.compiler(table)
            match_sql, scan = queries.pattern_rows([path], table, compiler, alias)
            in_place = self._set_in_place(clause, table, match_sql, parameters.values, scan)
            if in_place is not None:
                return in_place
            matched = self.run.materialize(f"({match_sql})", [], parameters.values)
        self.run.begin()  # more than one UPDATE: not a write that runs alone (ADR-0110)
        one_row = self._one_row(clause, table, matched, relation.variables)
        if one_row is not None:
            return one_row
        if matched is not None and self.run.row_counts[matched.sql] == self._row_count(table) and (
                self._finds_at_most_one(path)):  # as many matches as rows, at most one each: every row found one
            creation, clause = self._folded(clause)
            nothing = self.create_paths([creation], table, ranked_rows=0)  # its variables; no SQL runs
            return self._merged(clause, table, matched, nothing, None, relation.variables, Counter())
        unmatched = table if matched is None else Relation(
            f"(SELECT * FROM {table.sql} WHERE __ord NOT IN (SELECT __parent FROM {matched.sql}))", relation.variables)
        # the unmatched rows with their keys, worked out where read: stored only where something is created
        select, key_names, values, columns_only = self._keyed_select(path, unmatched)
        keyed = Relation(select, unmatched.variables)
        # one row per pattern to create: its key, its first row, and its rank among them (new ids follow it)
        group = ", ".join(key_names)
        representatives = self.run.materialize(
            f"(SELECT {group + ', ' if group else ''}min(__ord) AS __rep,"
            f" row_number() OVER (ORDER BY min(__ord)) AS __rank FROM {keyed.sql}"
            f"{' GROUP BY ' + group if group else ''} HAVING count(*) > 0)", [], values)
        creating = self.run.row_counts[representatives.sql]
        if creating and not (columns_only and not values):  # the rows taking what is created read them again
            keyed = self.run.materialize(keyed.sql, keyed.variables, values)
        creation, clause = self._folded(clause)
        created = self.create_paths(
            [creation], Relation(f"(SELECT t.*, r.__rank FROM {table.sql} AS t JOIN {representatives.sql} AS r"
                             f" ON t.__ord = r.__rep)", relation.variables), ranked_rows=creating,
            distinct=self._merged_on(path))
        join_keys = " AND ".join(f"u.{k} IS NOT DISTINCT FROM r.{k}" for k in key_names) or "true"
        created_rows = None if not creating else (
            f" FROM {keyed.sql} AS u JOIN {representatives.sql} AS r ON {join_keys}"
            f" JOIN {created.relation.sql} AS c ON c.__ord = r.__rep")
        return self._merged(clause, table, matched, created, created_rows, relation.variables,
                            Counter(created.counters), creating)

    def _created_at_once(self, clause: b.BMerge, relation: Relation) -> b.BoundPath | None:
        """The pattern `_create_at_once` creates for a MERGE known to match nothing (fresh_nodes.py), with its ON
        CREATE items folded in, where it applies: the statement's last clause, over rows that are not the seed
        row, creating relationships alone (between bound nodes, none of whose values reads one of them), with no
        SET item to run (ON CREATE ones all folded into the INSERT, no ON MATCH); else None."""
        if self.rows_read_after or relation.sql == SEED_ROW or clause.on_match:
            return None
        creation, rest = self._folded(clause)
        new = {id(rel.variable) for rel in creation.relationships}
        if rest.on_create or any(node.is_new for node in creation.nodes) or any(
                b.reads_any(rel.properties, new) for rel in creation.relationships):
            return None
        return creation

    def _create_at_once(self, creation: b.BoundPath, path: b.BoundPath, relation: Relation) -> WriteResult:
        """`_created_at_once`'s pattern as one INSERT reading the rows once (ADR-0116): of each group of rows with
        equal keys (`_keyed_select` of the MERGE's `path`) the first, ranked in row order, creates it, numbered
        from the next free id. No table is stored: not of the rows (nothing reads them after), of the groups,
        or of the matches (there are none)."""
        select, key_names, values, _ = self._keyed_select(path, relation)
        partition = f"PARTITION BY {', '.join(key_names)} " if key_names else ""
        firsts = f"(SELECT * FROM {select} QUALIFY row_number() OVER ({partition}ORDER BY __ord) = 1)"
        ranked = Relation(f"(SELECT *, row_number() OVER (ORDER BY __ord) AS __rank FROM {firsts})",
                          relation.variables, relation.carried, values=tuple(values))
        return self.create_uncounted([creation], ranked)

    def _merged(self, clause: b.BMerge, table: Relation, matched: Relation | None, created: WriteResult,
                created_rows: str | None, variables: list[Any], counters: Counter[str],
                creating: int = 0) -> WriteResult:
        """The rows after MERGE, matched then created in row order, with ON CREATE and ON MATCH run on theirs.
        `created`: what `create_paths` made, and `created_rows` the FROM of the rows that take its elements
        (None: nothing was to be created). A side with no rows is known empty, and one with every row is the
        table itself, whose row count the SET reads (`Relation.rows`)."""
        new_variables = _new_variables(created, variables)
        old = [v.column for v in variables]
        new = [v.column for v in new_variables]
        parts = [] if matched is None else [
            f"SELECT {column_list('t', old)}{column_list('m', new)}false AS __created, t.__ord AS __o1,"
            f" m.__k AS __o2 FROM {table.sql} AS t JOIN {matched.sql} AS m ON m.__parent = t.__ord"]
        if created_rows is not None:
            parts.append(f"SELECT {column_list('u', old)}{column_list('c', new)}u.__ord = r.__rep"
                         f" AS __created, u.__ord AS __o1, 0 AS __o2{created_rows}")
        combined_sql = " UNION ALL ".join(parts)
        combined_sql = (f"(SELECT * EXCLUDE (__o1, __o2), row_number() OVER (ORDER BY __o1, __o2) AS __ord FROM"
                        f" ({combined_sql}))")
        if not (clause.on_create or clause.on_match):  # read once, by the next clause: not stored
            return WriteResult(Relation(f"(SELECT * EXCLUDE (__created) FROM {combined_sql})",
                                        variables + new_variables), counters)
        combined = self.run.materialize(combined_sql, variables + new_variables, dense=True)
        # rows that share a pattern with an earlier row match what it created: only one row per pattern creates
        created_all = (matched is None or self.run.row_counts[matched.sql] == 0) and creating == self._row_count(table)
        return self._merge_sets(clause, combined, counters, matched_all=creating == 0, created_all=created_all)

    def _one_row(self, clause: b.BMerge, table: Relation, matched: Relation | None,
                 variables: list[Any]) -> WriteResult | None:
        """MERGE over one row (ADR-0085, ADR-0095): no keys table and no groups, as one row is one group; and
        no table of the rows after it, which are read off tables that no write changes (the matches' ids,
        or the new ids, which are constants of the SQL). None where the general path runs: more rows, or a
        row that matched nothing but whose `__ord` is not 1."""
        if self._row_count(table) != 1:
            return None
        found = 0 if matched is None else self.run.row_counts[matched.sql]
        if found and matched is not None:  # nothing to create
            nothing = self.create_paths([clause.path], table, ranked_rows=0)  # its variables; no SQL runs
            new_variables = _new_variables(nothing, variables)
            row = "" if table.sql == SEED_ROW else f" JOIN {table.sql} AS t ON m.__parent = t.__ord"  # binds nothing
            combined = Relation(
                f"(SELECT {column_list('t', [v.column for v in variables])}"
                f"{column_list('m', [v.column for v in new_variables])}false AS __created, m.__k AS __ord"
                f" FROM {matched.sql} AS m{row})",
                variables + new_variables, rows=found)
            return self._merge_sets(clause, combined, Counter(), matched_all=True, created_all=False)
        if table.sql != SEED_ROW and table.sql not in self.run.dense:
            return None
        return self._create_one(clause, table, variables)

    def _set_in_place(self, clause: b.BMerge, table: Relation, match_sql: str, values: list[Any],
                      scan: NodeScan | None) -> WriteResult | None:
        """`MERGE (x ...) ON MATCH SET x.key = value` as the statement's last clause, from its seed row (ADR-0095):
        the SET's UPDATE reads the pattern's match SELECT itself, and the count of properties it sets is the
        count of matches, as each match gains the value (a literal or parameter that is not null, on a key the
        pattern does not match on), so no table of the matches is stored; where the matches are a `scan` of
        `nodes`, the UPDATE filters the table by its condition (ADR-0104). Nothing matched: the pattern is
        created as `_one_row` does. Where the clause's last run created (merge_order.py), the node is first
        inserted where that condition finds none, and the UPDATE runs only where it found one (ADR-0113). None
        where this does not apply (rows read after the MERGE, another SET)."""
        path = clause.path
        if self.rows_read_after or table.sql != SEED_ROW or path.relationships or len(clause.on_match) != 1:
            return None
        (node,), (item,) = path.nodes, clause.on_match
        keys = self._property_entries(node.properties)
        if (item.kind != "property" or not isinstance(item.target, b.BVariable)
                or item.target.variable is not node.variable or not isinstance(item.key, str) or item.value is None
                or not known_present(item.value) or any(key == item.key or not known_present(value)
                                                         for key, value in keys)):
            return None
        nothing = self.create_paths([path], table, ranked_rows=0)  # its variables; no SQL runs
        new_variables = _new_variables(nothing, [])
        rows = Relation(f"(SELECT {column_list('m', [v.column for v in new_variables])}false AS __created,"
                        f" m.__k AS __ord FROM ({match_sql}) AS m)", new_variables, values=tuple(values),
                        unique=frozenset({id(node.variable)}), scan=scan)
        rest = replace(clause, on_match=[])
        if not self._quiet_unless_created(rest):  # SQL may follow the UPDATE: it is not the one write (ADR-0110)
            self.run.begin()
        if scan is not None and creates_first(clause) and self._inserts_alone(rest, item):
            # the ON MATCH SET's column as its SET makes it, matched or not: the same columns either way
            self.store.ensure_property_column("node", item.key, item.value.type)
            created = self._create_one(rest, table, [], absent=rows)
            if created.counters["nodes_created"]:
                return created
            # a node matched: the INSERT wrote nothing, so the UPDATE is still the statement's one write
        counters = Counter(self.set_items(clause.on_match, rows).counters)
        went(clause, created=not counters["properties_set"])
        if not counters["properties_set"]:  # matched nothing, so wrote nothing: the creation opens the transaction
            self.run.begin()
            return self._create_one(rest, table, [])
        return self._merge_sets(rest, replace(rows, rows=counters["properties_set"]), counters, matched_all=True,
                                created_all=False)

    def _quiet_unless_created(self, clause: b.BMerge) -> bool:
        """Whether the ON CREATE SET items of `_set_in_place`'s MERGE run no SQL over the rows created when it
        matched (none): each a property set to a literal or parameter, storable and not null, whose column
        takes it as it is (no ALTER TABLE). Others (labels, maps, values read off the node) may look at their
        rows even when known to be none."""
        return all(item.kind == "property" and isinstance(item.key, str) and item.value is not None
                   and known_present(item.value) and is_storable(item.value.type) is True
                   and column_takes(self.store.catalog, "node", item.key, item.value.type)
                   for item in clause.on_create)

    def _inserts_alone(self, clause: b.BMerge, item: b.BoundSetItem) -> bool:
        """Whether the node of `_set_in_place`'s MERGE (`clause` without its ON MATCH SET `item`) may be created by
        one INSERT where no node matches (`create_paths`' `absent`, ADR-0113) with nothing run after it: its
        labels the statement's own, every property value, ON CREATE SET ones folded in, a literal or parameter
        that is not null, no ON CREATE SET item left to run, the SET's value storable (else it fails, matched
        or not), and no constraint to check or index to keep (as for a write run alone, write_alone.py)."""
        catalog = self.store.catalog
        if catalog.constraints or maintained(catalog.indexes) or item.value is None or not is_storable(
                item.value.type):
            return False
        creation, left = self._folded(clause)
        (node,) = creation.nodes
        return not left.on_create and not node.dynamic and all(
            isinstance(value, b.BLiteral | b.BParameter) and known_present(value)
            for _, value in self._property_entries(node.properties))

    def _create_one(self, clause: b.BMerge, table: Relation, variables: list[Any], *,
                    absent: Relation | None = None) -> WriteResult:
        """The MERGE's pattern created over its one row, numbered 1 (`_one_row`); with `absent`, only where that
        scan finds no node (`create_paths`): where it found one, nothing is created or counted."""
        self._check_merge_keys(clause.path, table)
        creation, clause = self._folded(clause)
        created = self.create_paths([creation], Relation(f"(SELECT *, 1::BIGINT AS __rank FROM {table.sql})",
                                                            variables), ranked_rows=1,
                                    distinct=self._merged_on(clause.path), absent=absent)
        if absent is not None and not created.counters["nodes_created"]:
            return created
        combined = Relation(f"(SELECT *, true AS __created FROM {created.relation.sql})", created.relation.variables,
                            rows=1)
        return self._merge_sets(clause, combined, Counter(created.counters), matched_all=False, created_all=True)

    def _folded(self, clause: b.BMerge) -> tuple[b.BoundPath, b.BMerge]:
        """The pattern to create with the leading ON CREATE SET items that its INSERT can store itself, and the
        clause with the items left: `x.key = value` on an element the pattern creates (named once in it), of a key
        neither the pattern nor an earlier such item gives, the value always storable and reading neither the
        elements the pattern creates nor anything a write can change. Stored with the element, such a value
        counts as the SET counts it (a value stored, none for null on a new element), and fails as the clause;
        folding stops at the first other item, which then runs after them as it would."""
        path = clause.path
        if not clause.on_create:
            return path, clause
        elements = [*path.nodes, *path.relationships]
        named = Counter(id(element.variable) for element in elements)
        entries = {id(element.variable): self._property_entries(element.properties) for element in elements
                   if element.is_new and named[id(element.variable)] == 1}
        new = {id(element.variable) for element in elements if element.is_new}
        folded: list[b.BoundSetItem] = []
        for item in clause.on_create:
            target, value = item.target, item.value
            if not (item.kind == "property" and isinstance(item.key, str) and isinstance(target, b.BVariable)
                    and id(target.variable) in entries and value is not None and value.type.kind is not Kind.NULL
                    and is_storable(value.type) is True and not _reads_graph(value, set())
                    and not b.reads_any(value, new)
                    and all(key != item.key for key, _ in entries[id(target.variable)])):
                break
            entries[id(target.variable)].append((item.key, value))
            folded.append(item)
        if not folded:
            return path, clause
        grown = {id(item.target.variable) for item in folded if isinstance(item.target, b.BVariable)}

        def with_folded(element: Any) -> Any:
            if id(element.variable) not in grown:
                return element
            return replace(element, properties=b.BMap(tuple(entries[id(element.variable)]), type=t.MAP,
                                                      span=element.span))
        creation = replace(path, nodes=[with_folded(node) for node in path.nodes],
                           relationships=[with_folded(rel) for rel in path.relationships])
        return creation, replace(clause, on_create=clause.on_create[len(folded):])

    def _finds_at_most_one(self, path: b.BoundPath) -> bool:
        """Whether the MERGE's match finds at most one node for a row: its pattern is one node, and a uniqueness
        constraint (or node key) of one of its labels is on properties it matches on, each given a value of a kind
        whose equality is the grouping the constraint's check runs (EXACT_KEYS, in a column of that kind). The
        graph holds to it: every write before the MERGE was checked."""
        (node, *others), catalog = path.nodes, self.store.catalog
        if others or path.relationships or node.dynamic or not catalog.constraints:
            return False
        labels = set(label_names(node.labels, node.span))
        entries = dict(self._property_entries(node.properties))
        return any(
            constraint.kind in UNIQUE_KINDS and constraint.entity == "node" and constraint.label in labels
            and all(key in entries and entries[key].type.kind in EXACT_KEYS
                    and catalog.column_type("node", key) == t.CypherType(entries[key].type.kind)
                    for key in constraint.properties)
            for constraint in catalog.constraints.values())

    def _merged_on(self, path: b.BoundPath) -> frozenset[str]:
        """The keys of a MERGE of one node of one label that the nodes it creates hold no other node's values
        of (`constraints.Write.distinct`: no uniqueness check of them runs): every row creating one matched no
        node of that label on them, rows of equal values create one node, and the values are strings, integers
        or booleans, stored in columns of their type, whose equality is the one the uniqueness check groups
        by. Empty where that does not hold."""
        (node, *others), catalog = path.nodes, self.store.catalog
        if others or path.relationships or not node.is_new or node.dynamic or len(label_names(node.labels,
                                                                                            node.span)) != 1:
            return frozenset()
        entries = self._property_entries(node.properties)
        for key, value in entries:
            column_type = catalog.column_type("node", key)
            if value.type.kind not in EXACT_KEYS or column_type not in (None, t.CypherType(value.type.kind)):
                return frozenset()
        return frozenset(key for key, _ in entries)

    def _merge_sets(self, clause: b.BMerge, combined: Relation, counters: Counter[str], *, matched_all: bool,
                    created_all: bool) -> WriteResult:
        """ON CREATE and ON MATCH SET, each over its side of the rows after MERGE (`combined`, with `__created`)."""
        if not (clause.on_create or clause.on_match):
            return WriteResult(Relation(f"(SELECT * EXCLUDE (__created) FROM {combined.sql})", combined.variables,
                                        values=combined.values), counters)
        for items, created_flag in ((clause.on_create, True), (clause.on_match, False)):
            if items:
                every = created_all if created_flag else matched_all
                none = matched_all if created_flag else created_all
                subset = combined if every else Relation(
                    f"(SELECT * FROM {combined.sql} WHERE __created = {str(created_flag).lower()})",
                    combined.variables, rows=0 if none else None, values=combined.values)  # the match's, if it binds
                counters += self.set_items(items, subset).counters
        rows = f"(SELECT * EXCLUDE (__created) FROM {combined.sql})"
        if not self.run.stored(combined):  # one row's, read off tables no write changes (`_one_row`)
            return WriteResult(Relation(rows, combined.variables, values=combined.values), counters)
        # the rows without the flag: a later writer reads them as the table they are (nothing copied)
        return WriteResult(self.run.projection(combined, rows), counters)

    def _check_merge_sets(self, clause: b.BMerge, table: Relation) -> None:
        """Refuse ON CREATE / ON MATCH SET of a property the pattern matches on (or of every property) over more
        than one row: a later row would see an earlier row's write (MERGE runs row by row in Neo4j: a row whose
        match a SET renamed creates anew), which set-based matching cannot reproduce. Over one row there is
        no later row. `SET n += map` sets the map's keys: those the statement gives are checked here, those
        known only when it runs (`+= row.properties`) on the rows."""
        matched_keys: dict[int, set[str]] = {}
        for element in [*clause.path.nodes, *clause.path.relationships]:
            keys = {key for key, _ in self._property_entries(element.properties)} if isinstance(
                element.properties, b.BMap) or (element.properties is not None and element.properties.type.is_record
                                                ) else set()
            if keys:
                matched_keys.setdefault(id(element.variable), set()).update(keys)
        for item in [*clause.on_create, *clause.on_match]:
            if not isinstance(item.target, b.BVariable) or id(item.target.variable) not in matched_keys:
                continue
            matched = matched_keys[id(item.target.variable)]
            names = _runtime_keys(item)
            if names is not None:
                if self._row_count(table) > 1 and self._sets_any_key(names, table, matched):
                    raise UnsupportedFeature("ON CREATE or ON MATCH SET of a property the MERGE pattern matches on,"
                                             " over more than one row", item.span)
                continue
            if item.kind == "all" or (item.kind == "merge" and matched & {
                    key for key, _ in self._property_entries(item.value)}) or (item.kind == "property" and (
                    item.key in matched)):
                if self._row_count(table) > 1:
                    raise UnsupportedFeature("ON CREATE or ON MATCH SET of a property the MERGE pattern matches on,"
                                             " over more than one row", item.span)
                return

    def _sets_any_key(self, names_sql: Callable[[ExpressionCompiler], str], table: Relation, keys: set[str]) -> bool:
        """Whether a row of `table` sets one of `keys` (`names_sql`: the SQL of the names a row's item sets)."""
        _, compiler, alias, parameters = self.compiler(table)
        names = names_sql(compiler)
        wanted = "[" + ", ".join(parameters.text(key) for key in sorted(keys)) + "]::VARCHAR[]"
        (found,) = self.run.fetchone(
            f"SELECT count(*) FROM {table.sql} AS {alias}{compiler.context.join_text()}"
            f" WHERE list_has_any(({names})::VARCHAR[], {wanted})", parameters.values)
        return bool(found)

    def _row_count(self, table: Relation) -> int:
        counted = 1 if table.sql == SEED_ROW else self.run.row_counts.get(table.sql)
        if counted is None:
            (counted,) = self.run.fetchone(f"SELECT count(*) FROM {table.sql}", table.values)
        return counted

    def _check_merge_keys(self, path: b.BoundPath, row: Relation) -> None:
        """Fail as the keys of one row to create from fail (a null property value), without storing them:
        nothing to run when every property value is a literal or parameter that is not null."""
        if all(known_present(value) for element in [*path.nodes, *path.relationships]
               for _, value in self._property_entries(element.properties)):
            return
        select, _, values, _ = self._keyed_select(path, row)
        self.run.fetchone(f"SELECT count(*) FROM {select}", values)

    def _keyed_select(self, path: b.BoundPath, unmatched: Relation) -> tuple[str, list[str], list[Any], bool]:
        """The unmatched rows with one key column per thing the created pattern depends on (the bound variables
        it connects, the labels and types read off the row, its property values; rows with equal keys create
        one pattern), as a SELECT: with its key columns' names, its parameters' values, and whether it reads
        the rows' own columns alone (joins nothing)."""
        _, compiler, alias, parameters = self.compiler(unmatched)
        keys: list[str] = []
        property_keys: list[tuple[str, str]] = []
        elements: list[b.BoundNode | b.BoundRelationship] = [*path.nodes, *path.relationships]
        seen: set[int] = set()
        for element in elements:
            if not element.is_new and id(element.variable) not in seen:
                seen.add(id(element.variable))
                reference = b.BVariable(element.variable, type=element.variable.type, span=element.span)
                keys.append(f"{compiler.compile(reference)} AS k{len(keys)}")
        key_of: dict[str, Callable[[str], str]] = {}
        for element in elements:
            for names in element.dynamic:  # labels (a type) read off the row: rows naming others create others
                keys.append(f"{label_list_sql(compiler.variant(names))} AS k{len(keys)}")
            for key, value in self._property_entries(element.properties):
                name = f"k{len(keys)}"
                sql, key_of[name] = group_key_parts(compiler.compile(value), value.type)
                keys.append(f"{sql} AS {name}")
                property_keys.append((key, f"{name} IS NULL"))
        columns = "".join(f", {key}" for key in keys)
        where = ""
        if property_keys:
            # a row that would create a pattern with a null property fails the statement
            nulls = " OR ".join(condition for _, condition in property_keys)
            names = ", ".join(key for key, _ in property_keys)
            refused = error_sql("SemanticError", "MergeReadOwnWrites", parameters.text(
                f"cannot merge a pattern with a null property value ({names})"))
            where = f" WHERE CASE WHEN {nulls} THEN {refused} ELSE true END"
        # a property value's key is taken above the SELECT that computes it (`group_key_parts`)
        key_columns = "".join(f", {key(name)} AS {name}" for name, key in key_of.items())
        select = (f"(SELECT * REPLACE ({key_columns[2:]}) FROM (SELECT {alias}.*{columns} FROM {unmatched.sql} AS"
                  f" {alias}{compiler.context.join_text()}){where})" if key_of else
                  f"(SELECT {alias}.*{columns} FROM {unmatched.sql} AS {alias}{compiler.context.join_text()}{where})")
        return select, [f"k{i}" for i in range(len(keys))], parameters.values, not compiler.context.join_text()


def _new_variables(created: WriteResult, variables: list[Any]) -> list[Any]:
    """The variables a MERGE's pattern binds that the rows before it do not."""
    return [v for v in created.relation.variables if all(v is not w for w in variables)]


def _runtime_keys(item: b.BoundSetItem) -> Callable[[ExpressionCompiler], str] | None:
    """The SQL of the property keys a SET item writes, where they are known only on the rows: `SET n += map`
    of a map whose keys the statement does not give, and `SET n[key] = v` of a key read off the row (a key
    that is no string sets nothing: the SET raises its TypeError); None where the statement gives them."""
    value, key = item.value, item.key
    if item.kind == "merge" and value is not None and not (isinstance(value, b.BMap) or value.type.is_record):
        return lambda compiler: compiler.compile(
            b.BFunction("keys", (value,), type=t.list_of(t.STRING), span=value.span))
    if item.kind == "property" and isinstance(key, b.BoundExpression):
        return lambda compiler: let([compiler.variant(key)],
                                    lambda name: f"[CASE WHEN cy_kind({name}) = 4 THEN {name}::VARCHAR END]")
    return None
