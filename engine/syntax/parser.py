"""Tokens → syntax tree: a recursive-descent parser driven by tables.

* `STATEMENT_PARSERS` picks the statement kind by its first word (schema commands; anything else is a query),
  `CLAUSE_PARSERS` the clause by its first keyword, `ATOM_PARSERS` an expression atom by its first token.
* Operator precedence is a table too: `BINARY_OPERATORS` maps each infix token to its binding power and name,
  and `parse_expression` is one precedence-climbing loop over it (one call per operand, not one per level).
  Comparisons (`COMPARISON_OPERATORS`) chain: `a < b < c` is `a < b AND b < c`, sharing the node of `b`;
  predicates (`PREDICATE_OPERATORS`: STARTS WITH, IN, ...; IS NULL, IS :: TYPE) take several words.
* Errors are `CypherSyntaxError`s with the span of the offending token and a message saying what was expected,
  e.g. "expected ')' to close the node pattern opened at 1:7, found RETURN". `detail` is the openCypher TCK's
  name for the error (`InvalidRelationshipPattern`, `IntegerOverflow`, ...), `UnexpectedSyntax` by default.

Checks made here rather than in the binder are the ones that need no scope: literal ranges, pattern shapes
that CREATE / MERGE cannot write, parameters used as MATCH/MERGE property maps, mixed UNION kinds, YIELD *
inside a larger query, updates inside EXISTS { }, and bare patterns used where a value (not a predicate) is
expected.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import replace
from typing import NoReturn, TypeVar

from engine.errors import CypherSyntaxError, UnsupportedFeature
from engine.span import Span
from engine.storage import graphs
from engine.syntax import ast
from engine.syntax.tokenizer import tokenize
from engine.syntax.tokens import KEYWORDS, VARIABLE_KEYWORDS, WORD_TYPES, Token, TokenKind, TokenType

T = TypeVar("T")
TT = TokenType

INT64_MAX = 2**63 - 1

# Binding powers, loosest first. `a OR b AND c` is `a OR (b AND c)`; NOT is a prefix between AND and the
# comparisons (`NOT a = b` is `NOT (a = b)`); unary + and - bind tighter than every infix operator, so that
# `-2 ^ 2` is `(-2) ^ 2` as in openCypher's grammar.
OR_POWER, XOR_POWER, AND_POWER, NOT_POWER = 1, 2, 3, 4
COMPARISON_POWER, PREDICATE_POWER, ADDITIVE_POWER, MULTIPLICATIVE_POWER, EXPONENT_POWER = 5, 6, 7, 8, 9

# Left-associative binary operators: token → (binding power, operator name in ast.BinaryOp).
BINARY_OPERATORS: dict[TokenKind, tuple[int, str]] = {
    TT.OR: (OR_POWER, "OR"),
    TT.XOR: (XOR_POWER, "XOR"),
    TT.AND: (AND_POWER, "AND"),
    TT.PLUS: (ADDITIVE_POWER, "+"),
    TT.MINUS: (ADDITIVE_POWER, "-"),
    TT.DPIPE: (ADDITIVE_POWER, "||"),
    TT.STAR: (MULTIPLICATIVE_POWER, "*"),
    TT.SLASH: (MULTIPLICATIVE_POWER, "/"),
    TT.PERCENT: (MULTIPLICATIVE_POWER, "%"),
    TT.CARET: (EXPONENT_POWER, "^"),
}
# Chains of these operators longer than BALANCED_CHAIN are parsed as balanced trees, not left-deep ones: the
# operators are associative (in three-valued logic too), so the value is the same, and a 10,000-term OR is a
# tree some 14 levels deep, which every recursive walk after the parser (binder, SQL generation, DuckDB's own
# expression depth) takes. `+` is not associative in Cypher (`'a' + 1 + 2` is 'a12') and stays left-deep.
ASSOCIATIVE_OPERATORS = frozenset({"AND", "OR", "XOR"})
BALANCED_CHAIN = 16
# Comparisons chain: `a < b <= c` is `a < b AND b <= c`, the two sharing the node of `b`.
COMPARISON_OPERATORS = {TT.EQ: "=", TT.NEQ: "<>", TT.LT: "<", TT.GT: ">", TT.LTE: "<=", TT.GTE: ">="}
# Predicates on the operand to their left: token → (second token required, operator name). IS (NULL, TYPED)
# and `::` are predicates of the same power, read by parse_is and parse_type.
PREDICATE_OPERATORS: dict[TokenKind, tuple[TokenKind | None, str]] = {
    TT.STARTS: (TT.WITH, "STARTS WITH"),
    TT.ENDS: (TT.WITH, "ENDS WITH"),
    TT.CONTAINS: (None, "CONTAINS"),
    TT.IN: (None, "IN"),
    TT.REGEX_MATCH: (None, "=~"),
}
PREDICATE_TOKENS = frozenset({*PREDICATE_OPERATORS, TT.IS, TT.COLONCOLON})

VARIABLE_TYPES = frozenset({TT.IDENTIFIER, TT.QUOTED_IDENTIFIER, *VARIABLE_KEYWORDS})
# After an identifier, the tokens that make it more than a variable: a call, COLLECT { } or a map projection,
# a namespaced function name.
NAME_ATOM_FOLLOWERS = frozenset({TT.LPAREN, TT.LBRACE, TT.DOT})
SET_QUANTIFIER_OPERANDS = frozenset({
    TT.IDENTIFIER, TT.QUOTED_IDENTIFIER, TT.STRING, TT.INTEGER, TT.FLOAT, TT.PARAMETER, TT.LBRACKET, TT.LBRACE,
    TT.NULL, TT.TRUE, TT.FALSE, TT.CASE})
"""What may follow `ALL` in `count(ALL x)` for the `ALL` to be the set quantifier, not a variable `all` nor
the start of `all(x IN list WHERE ...)`."""
LABEL_OPERATORS = frozenset({TT.PIPE, TT.AMP})
POSTFIX_TOKENS = frozenset({TT.DOT, TT.LBRACKET, TT.COLON, TT.IS})
# The words after IS that make it no label predicate (`n IS A`): IS NULL, IS NOT, IS TYPED, IS NORMALIZED.
IS_PREDICATE_WORDS = frozenset({"NULL", "NOT", "TYPED", "NORMALIZED", "NFC", "NFD", "NFKC", "NFKD"})
PROPERTY_MAP_STARTS = frozenset({TT.LBRACE, TT.PARAMETER})
OPENING_BRACKETS = frozenset({TT.LPAREN, TT.LBRACKET, TT.LBRACE})
CLOSING_BRACKETS = frozenset({TT.RPAREN, TT.RBRACKET, TT.RBRACE})

# Clauses that write: not allowed inside EXISTS { } / COUNT { } / COLLECT { }.
UPDATING_CLAUSES = (ast.Create, ast.Merge, ast.SetClause, ast.Remove, ast.Delete, ast.Foreach)

INDEX_KINDS = {"RANGE": "range", "BTREE": "range", "TEXT": "text", "POINT": "point", "FULLTEXT": "fulltext",
               "VECTOR": "vector", "LOOKUP": "lookup"}
PATH_MODES = {"WALK": "walk", "TRAIL": "trail", "ACYCLIC": "acyclic"}
# Words of a type after IS :: (the ones that cannot appear first are still accepted: the binder judges types).
TYPE_WORDS = frozenset({
    "ANY", "NOTHING", "NULL", "BOOL", "BOOLEAN", "STRING", "VARCHAR", "INT", "INTEGER", "SIGNED", "INTEGER64",
    "FLOAT", "FLOAT64", "DATE", "LOCAL", "ZONED", "TIME", "DATETIME", "TIMESTAMP", "ZONE", "DURATION",
    "POINT", "TIMEZONE",
    "NODE", "VERTEX", "RELATIONSHIP", "EDGE", "MAP", "LIST", "ARRAY", "PATH", "PROPERTY", "VALUE", "NOT",
    "VECTOR", "INT8", "INT16", "INT32", "INT64", "INTEGER8", "INTEGER16", "INTEGER32", "FLOAT32",
})
CLAUSE_WORDS = ("MATCH", "OPTIONAL MATCH", "WITH", "RETURN", "UNWIND", "CREATE", "MERGE", "SET", "REMOVE",
                "DELETE", "DETACH DELETE", "FOREACH", "CALL", "UNION", "FINISH", "LET", "FILTER", "ORDER BY",
                "SKIP", "OFFSET", "LIMIT", "FOR", "INSERT", "NODETACH DELETE", "LOAD CSV")


def parse(text: str) -> ast.Statement:
    """The one statement in `text` (a trailing `;` is allowed)."""
    tokens = tokenize(text)
    parser = Parser(text, tokens)
    statement = with_graph(parser.parse_statement_guarded(), parser.uses)
    while parser.match(TT.SEMICOLON):
        pass
    if parser.current.type is not TT.EOF:
        after = "after ';' (parse_script reads several statements)" if parser.previous.type is TT.SEMICOLON \
            else "after the statement"
        parser.fail(f"expected end of input {after}, found {parser.current.describe()}")
    return statement


def with_graph(statement: ast.Statement, uses: list[tuple[str, Span]]) -> ast.Statement:
    """`statement` (a query or a schema command) with the graph its USE clauses name (ADR-0068): every USE of
    a statement (in a UNION's parts, in subqueries) must name the same graph, since a statement runs on one
    graph in one transaction; several are Neo4j's composite queries, refused by name."""
    if not uses:
        return statement
    name, _ = uses[0]
    for other, span in uses[1:]:
        if other != name:
            raise UnsupportedFeature(f"USE {other} in a statement on {name} (a statement runs on one graph; "
                                     "Neo4j's composite queries are not run)", span)
    if isinstance(statement, ast.DatabaseCommand):
        raise UnsupportedFeature("USE before a database command (it acts on the database, not on a graph)",
                                 uses[0][1])
    return replace(statement, graph=name)


def parse_expression(text: str) -> ast.Expression:
    """The one expression in `text` (function macros are written as Cypher: `semantic.extensions`)."""
    parser = Parser(text, tokenize(text))
    expression = parser.parse_expression()
    if parser.current.type is not TT.EOF:
        parser.fail(f"expected end of the expression, found {parser.current.describe()}")
    return expression


def parse_script(text: str) -> list[tuple[ast.Statement, Span]]:
    """Every statement of `text`, split on top-level `;`, with spans relative to the whole text."""
    tokens = tokenize(text)
    statements: list[tuple[ast.Statement, Span]] = []
    segment: list[Token] = []
    for token in tokens:
        if token.type is TT.SEMICOLON or token.type is TT.EOF:
            if segment:
                parser = Parser(text, [*segment, token._replace(type=TT.EOF, text="", value=None)])
                statement = with_graph(parser.parse_statement_guarded(), parser.uses)
                if parser.current.type is not TT.EOF:
                    parser.fail(f"expected ';' or end of input after the statement, found "
                                f"{parser.current.describe()}")
                statements.append((statement, segment[0].span.cover(segment[-1].span)))
                segment = []
        else:
            segment.append(token)
    return statements


_new_tuple = tuple.__new__


def _join(first: Span, last: Span) -> Span:
    """The span from the start of `first` to the end of `last` (`first` starts no later than `last`)."""
    return _new_tuple(Span, (first.line, first.column, first.start, last.end))


def _balanced(expression: ast.Expression) -> ast.Expression:
    """`expression`, a left-deep chain of one associative operator longer than BALANCED_CHAIN, as a balanced
    tree of the same operands in the same order; anything else as it is. Iterative: the chain may be long."""
    if not isinstance(expression, ast.BinaryOp) or expression.op not in ASSOCIATIVE_OPERATORS:
        return expression
    op, operands, node = expression.op, [], expression
    while isinstance(node, ast.BinaryOp) and node.op == op and len(operands) <= BALANCED_CHAIN:
        operands.append(node.right)
        node = node.left
    if len(operands) <= BALANCED_CHAIN:
        return expression
    operands, node = [], expression
    while isinstance(node, ast.BinaryOp) and node.op == op:
        operands.append(node.right)
        node = node.left
    operands.append(node)
    operands.reverse()
    while len(operands) > 1:
        pairs = [ast.BinaryOp(op, left, right, span=_join(left.span, right.span))
                 for left, right in zip(operands[::2], operands[1::2], strict=False)]
        operands = pairs + operands[len(pairs) * 2:]
    return operands[0]


def _conjunction(labels: ast.LabelExpression) -> bool:
    """Whether a label expression only names labels joined by `&` or `:`: all that CREATE and MERGE can write
    (`$(e)` and `$all(e)` name labels to write; `$any(e)` does not)."""
    if isinstance(labels, ast.LabelName):
        return True
    if isinstance(labels, ast.DynamicLabels):
        return labels.quantifier == "all"
    return isinstance(labels, ast.LabelAnd) and _conjunction(labels.left) and _conjunction(labels.right)


def _as_pattern(path: ast.PathPattern) -> ast.Pattern:
    return ast.Pattern((ast.PatternPart(None, path, None, None, span=path.span),), span=path.span)


class Parser:
    """One statement's tokens → ast. `current` is the next token to read, `previous` the last one read."""

    def __init__(self, text: str, tokens: list[Token]) -> None:
        self.text = text
        self.tokens = tokens
        self.index = 0
        self.current = tokens[0]
        self.previous = tokens[0]
        # Inside a comprehension's WHERE, FOREACH's or reduce's list: `|` ends the expression, it is
        # no label OR.
        self._pipe_ends_expression = False
        # The symbols the label expression being parsed uses (`:`, `|`, `|:`, `&`, `!`, `%`, `(`), and those
        # of the last one parsed, which node and relationship patterns check.
        self._label_symbols: set[str] = set()
        self.last_label_symbols: frozenset[str] = frozenset()
        # The symbols of every label expression of the clause being parsed: `:A:B` in one element and `&` in
        # another is mixing too. `|` counts only in node patterns: between relationship types it is legacy
        # syntax, allowed with either.
        self._clause_label_symbols: set[str] = set()
        # Bare patterns parsed as expressions, with whether each sits where a predicate is expected.
        self._pattern_expressions: list[tuple[ast.PatternExpression, bool]] = []
        self._predicate_depth = 0
        self.uses: list[tuple[str, Span]] = []
        """The graph names of the USE clauses read, with their spans (`with_graph` checks them)."""
        # Ids of bare patterns that are an operand of AND, OR, XOR or NOT: predicates wherever they stand.
        self._boolean_operands: set[int] = set()

    # --------------------------------------------------------------------------------------------------------
    # Token helpers

    def advance(self) -> Token:
        token = self.current
        self.previous = token
        if token.type is not TT.EOF:
            self.index += 1
            self.current = self.tokens[self.index]
        return token

    def peek(self, offset: int = 1) -> Token:
        index = self.index + offset
        return self.tokens[index] if index < len(self.tokens) else self.tokens[-1]

    def match(self, kind: TokenKind) -> Token | None:
        token = self.current
        if token.type is not kind:
            return None
        self.previous = token  # advance(), inline: this is the parser's most frequent call
        if kind is not TT.EOF:
            self.index += 1
            self.current = self.tokens[self.index]
        return token

    def match_word(self, *words: str) -> Token | None:
        """Read the current token if it is one of `words` (upper case; keywords or contextual words)."""
        if self.current.upper in words:
            return self.advance()
        return None

    def expect(self, kind: TokenKind, purpose: str = "") -> Token:
        token = self.current
        if token.type is kind:
            self.previous = token  # advance(), inline
            if kind is not TT.EOF:
                self.index += 1
                self.current = self.tokens[self.index]
            return token
        purpose = f" {purpose}" if purpose else ""
        self.fail(f"expected '{kind.value}'{purpose}, found {self.current.describe()}")

    def expect_word(self, word: str, purpose: str = "") -> Token:
        if self.current.upper == word:
            return self.advance()
        self.fail(f"expected {word}{' ' + purpose if purpose else ''}, found {self.current.describe()}")

    def fail(self, message: str | tuple[str | Span, ...], token: Token | None = None, detail: str = "UnexpectedSyntax",
             span: Span | None = None) -> NoReturn:
        where = span or (token or self.current).span
        raise CypherSyntaxError(message, where, detail=detail, source=self.text)

    def span_from(self, start: Token | Span) -> Span:
        """From the start of `start` (a token or a span) to the end of the last token read."""
        return _new_tuple(Span, (start.line, start.column, start.start, max(self.previous.end, start.end)))

    @staticmethod
    def token_span(token: Token) -> Span:
        return Span(token.line, token.column, token.start, token.end)

    def at_word(self, word: str, offset: int = 0) -> bool:
        return (self.peek(offset) if offset else self.current).upper == word

    def comma_separated(self, parse_item: Callable[[], T]) -> tuple[T, ...]:
        items = [parse_item()]
        while self.match(TT.COMMA):
            items.append(parse_item())
        return tuple(items)

    def closer_of(self, index: int) -> int:
        """Index of the token closing the bracket at `index` (or of EOF when it is never closed)."""
        tokens = self.tokens
        depth = 0
        for position in range(index, len(tokens)):
            kind = tokens[position].type
            if kind in OPENING_BRACKETS:
                depth += 1
            elif kind in CLOSING_BRACKETS:
                depth -= 1
                if depth == 0:
                    return position
        return len(tokens) - 1

    # --------------------------------------------------------------------------------------------------------
    # Names

    @staticmethod
    def is_variable_token(token: Token) -> bool:
        return token.type in VARIABLE_TYPES


    def parse_name(self, what: str = "a name") -> str:
        """Any word (keywords included, e.g. `n.count`, `:Match`, `{end: 1}`)."""
        token = self.current
        if token.type in WORD_TYPES:
            self.advance()
            return token.value
        self.fail(f"expected {what}, found {token.describe()}")

    def parse_variable(self, what: str = "a variable name") -> ast.Variable:
        token = self.current
        if token.type in VARIABLE_TYPES:
            self.advance()
            return ast.Variable(token.value, span=token.span)
        self.fail(f"expected {what}, found {token.describe()}")

    def parse_symbolic_name(self) -> str:
        """A dotted name (`db.labels`, `apoc.coll.sum`) of a procedure or function."""
        parts = [self.parse_name("a procedure name")]
        while self.current.type is TT.DOT and self.peek().is_word:
            self.advance()
            parts.append(self.parse_name())
        return ".".join(parts)

    # --------------------------------------------------------------------------------------------------------
    # Statements

    def parse_statement_guarded(self) -> ast.Statement:
        """parse_statement, with Python's recursion limit turned into a syntax error at the token reached."""
        try:
            return self.parse_statement()
        except RecursionError:
            self.fail("the statement is nested too deeply to parse")

    def parse_statement(self) -> ast.Statement:
        self.skip_query_options()
        self.parse_use()  # before a schema command too; a query's parts read theirs in parse_single_query
        parser = STATEMENT_PARSERS.get(self.current.upper)
        statement = parser(self) if parser else None
        if statement is None:
            statement = self.parse_query()
        self.check_pattern_expressions()
        return statement

    def parse_query(self, closing: TokenKind = TT.EOF) -> ast.Query:
        """Queries joined by UNION, and those joined by NEXT (Cypher 25 sequential queries), left to right; a
        part may be a conditional query (WHEN ... THEN ... ELSE ...)."""
        query = self.parse_part(closing)
        while (next_word := self.match_word("NEXT")) is not None:
            query = self.sequential(query, next_word, self.parse_part(closing))
        return query

    def parse_part(self, closing: TokenKind) -> ast.Query:
        return self.parse_conditional(closing) if self.current.type is TT.WHEN else self.parse_union(closing)

    def parse_conditional(self, closing: TokenKind) -> ast.Query:
        """`WHEN p1 THEN q1 [WHEN p2 THEN q2 ...] [ELSE q]` (Cypher 25): the first branch whose predicate is
        true runs. As UNION ALL of the branches, each guarded by its predicate and the falsity of those
        before (`WITH *, true AS __when WHERE ...`): the others match no row, so they neither return nor write."""
        start = self.current
        guards: list[ast.Expression] = []
        parts: list[ast.SingleQuery] = []
        previous: ast.Expression | None = None
        while self.current.type is TT.WHEN or (parts and self.current.type is TT.ELSE):
            is_else = self.advance().type is TT.ELSE
            predicate = None
            if not is_else:
                predicate = self.parse_expression()
                self.expect(TT.THEN, "after the WHEN predicate")
            branch = self.parse_single_query(closing)
            span = branch.span
            taken = ast.FunctionCall("coalesce", (predicate, ast.Literal(False, span=span)), False, span=span) \
                if predicate is not None else None
            guard = taken
            if previous is not None:
                skipped = ast.UnaryOp("NOT", previous, span=span)
                guard = skipped if taken is None else ast.BinaryOp("AND", skipped, taken, span=span)
                previous = previous if taken is None else ast.BinaryOp("OR", previous, taken, span=span)
            else:
                previous = taken
            guards.append(guard if guard is not None else ast.Literal(True, span=span))
            parts.append(branch)
            if is_else:
                break
        guarded = []
        for guard, branch in zip(guards, parts, strict=True):
            item = ast.ProjectionItem(ast.Literal(True, span=branch.span), "__when", "true", span=branch.span)
            projection = ast.Projection((item,), True, False, (), None, None, span=branch.span)
            guarded.append(ast.SingleQuery((ast.With(projection, guard, span=branch.span), *branch.clauses),
                                           span=branch.span))
        return ast.Query(tuple(guarded), (True,) * (len(guarded) - 1), span=self.span_from(start))

    def parse_union(self, closing: TokenKind) -> ast.Query:
        start = self.current
        parts = [self.parse_single_query(closing)]
        union_all: list[bool] = []
        while self.current.type is TT.UNION:
            union = self.advance()
            is_all = self.match(TT.ALL) is not None
            if union_all and union_all[0] != is_all:
                self.fail("cannot mix UNION and UNION ALL in one query", union,
                          detail="InvalidClauseComposition", span=self.span_from(union))
            union_all.append(is_all)
            parts.append(self.parse_single_query(closing))
        return ast.Query(tuple(parts), tuple(union_all), span=self.span_from(start))

    def sequential(self, first: ast.Query, next_word: Token, rest: ast.Query) -> ast.Query:
        """`A NEXT B`: B runs on the rows A returns, A's columns its variables, as `CALL () { A } B` would; a B of
        several parts (a UNION, a conditional query) as `CALL () { A } CALL (*) { B } RETURN <B's columns>`."""
        call = ast.CallSubquery(first, (), False, False, False, span=first.span.cover(next_word.span))
        span = first.span.cover(rest.span)
        if len(rest.parts) == 1:
            part = rest.parts[0]
            return ast.Query((ast.SingleQuery((call, *part.clauses), span=span),), (), span=span)
        clauses: list[ast.Clause] = [call, ast.CallSubquery(rest, (), True, False, False, span=rest.span)]
        last = rest.parts[0].clauses[-1]
        if isinstance(last, ast.Return):
            if last.projection.star:
                self.fail("RETURN * in a part after NEXT that has several parts (name the columns)",
                          detail="UnsupportedFeature", span=last.span)
            columns = tuple(ast.ProjectionItem(ast.Variable(item.column, span=item.span), None, item.column,
                                               span=item.span)
                            for item in last.projection.items)
            clauses.append(ast.Return(ast.Projection(columns, False, False, (), None, None, span=last.span),
                                      span=last.span))
        return ast.Query((ast.SingleQuery(tuple(clauses), span=span),), (), span=span)

    def parse_single_query(self, closing: TokenKind) -> ast.SingleQuery:
        start = self.current
        self.parse_use()
        clauses: list[ast.Clause] = []
        while True:
            kind = self.current.type
            if kind in (TT.UNION, closing, TT.SEMICOLON, TT.EOF, TT.WHEN, TT.ELSE) or self.current.upper == "NEXT":
                break
            clauses.append(self.parse_clause())
        if not clauses:
            self.fail(f"expected a clause ({', '.join(CLAUSE_WORDS)}), found {self.current.describe()}")
        if len(clauses) > 1:
            for clause in clauses:
                if isinstance(clause, ast.CallProcedure) and clause.yield_star:
                    self.fail("YIELD * is only allowed in a standalone procedure call", span=clause.span)
        return ast.SingleQuery(tuple(clauses), span=self.span_from(start))

    def skip_query_options(self) -> None:
        """`CYPHER [version] [name=value ...]` before a statement (engine/syntax/prefix.py says why it changes
        nothing)."""
        if self.current.upper != "CYPHER":
            return
        self.advance()
        self.match(TT.INTEGER)
        while self.current.type in WORD_TYPES and self.peek().type is TT.EQ:
            self.advance()
            self.advance()
            self.advance()

    def parse_use(self) -> None:
        """`USE name` before a query: the graph it runs on (ADR-0068), checked by `graphs.checked_name` and
        noted in `uses`; `parse` puts it on the statement. `USE graph.byName(...)` and dotted names
        (Neo4j's composite databases) are refused by name."""
        if self.current.upper != "USE" or self.peek().type not in WORD_TYPES:
            return
        start = self.advance()
        name = self.parse_name("a graph name after USE")
        while self.match(TT.DOT):
            name += "." + self.parse_name("a graph name")
        if self.current.type is TT.LPAREN:
            raise UnsupportedFeature(f"USE {name}(...) (composite databases)", self.span_from(start))
        span = self.span_from(start)
        self.uses.append((graphs.checked_name(name, span), span))

    def parse_graph_name(self, what: str) -> str:
        """A database name after CREATE/DROP/SHOW DATABASE: a word, or a dotted name (refused by
        `graphs.checked_name`); a parameter is refused by name."""
        start = self.current
        if start.type is TT.PARAMETER:
            raise UnsupportedFeature("a database name given as a parameter", self.token_span(start))
        name = self.parse_name(what)
        while self.match(TT.DOT):
            name += "." + self.parse_name(what)
        return graphs.checked_name(name, self.span_from(start))

    def parse_database_command(self, action: str, start: Token) -> ast.DatabaseCommand:
        """The rest of `CREATE DATABASE`/`DROP DATABASE` after the word DATABASE (ADR-0068)."""
        name = self.parse_graph_name("a database name")
        if_exists = self.parse_if_not_exists() if action == "create" else self.parse_if_exists()
        for word in ("OPTIONS", "WAIT", "NOWAIT", "TOPOLOGY", "DUMP", "DESTROY", "RESTRICT", "CASCADE"):
            if self.at_word(word):
                raise UnsupportedFeature(f"{action.upper()} DATABASE ... {word}", self.token_span(self.current))
        return ast.DatabaseCommand(action, name, if_exists, span=self.span_from(start))

    def parse_clause(self) -> ast.Clause:
        token = self.current
        parser = CLAUSE_PARSERS.get(token.type) or CONTEXTUAL_CLAUSE_PARSERS.get(token.upper)
        if parser is None:
            hint = ""
            if token.type is TT.IDENTIFIER:
                close = difflib.get_close_matches(token.text.upper(), [*KEYWORDS, *CONTEXTUAL_CLAUSE_PARSERS], n=1)
                hint = f" (did you mean {close[0]}?)" if close else ""
            self.fail(f"expected a clause ({', '.join(CLAUSE_WORDS)}), found {token.describe()}{hint}")
        saved, self._clause_label_symbols = self._clause_label_symbols, set()
        clause = parser(self)
        if ":" in self._clause_label_symbols and self._clause_label_symbols & {"|", "&", "!", "%", "("}:
            self.fail("mixing label expression symbols ('|', '&', '!', and '%') with colon (':') between labels "
                      "in one clause is not allowed; use one set of symbols", detail="InvalidLabelExpression",
                      span=clause.span)
        self._clause_label_symbols = saved
        return clause

    # --------------------------------------------------------------------------------------------------------
    # Reading clauses

    def parse_match(self) -> ast.Clause:
        start = self.current
        optional = self.match(TT.OPTIONAL) is not None
        if optional and self.current.type is TT.CALL:
            return self.parse_call(start, optional=True)
        self.expect(TT.MATCH, "after OPTIONAL" if optional else "")
        mode = None
        if self.current.upper == "REPEATABLE" and self.peek().upper in ("ELEMENT", "ELEMENTS"):
            self.advance()
            self.advance()
            mode = "repeatable_elements"
        elif self.current.upper == "DIFFERENT" and self.peek().upper in ("RELATIONSHIP", "RELATIONSHIPS"):
            self.advance()
            self.advance()
            mode = "different_relationships"
        pattern = self.parse_pattern()
        self.check_no_parameter_maps(pattern, "MATCH")
        search = self.parse_search() if self.at_word("SEARCH") and self.peek(2).type is TT.IN else None
        hints = self.parse_hints()
        where = self.parse_where()
        return ast.Match(optional, pattern, where, hints, mode, search, span=self.span_from(start))

    def parse_search(self) -> ast.Search:
        """`SEARCH v IN (FULLTEXT|VECTOR INDEX name FOR query [WHERE ...] LIMIT k) [SCORE AS s]`."""
        start = self.advance()
        variable = self.parse_variable("the variable to search for")
        self.expect(TT.IN, "after the SEARCH variable")
        opened = self.expect(TT.LPAREN, "after SEARCH ... IN")
        kind_token = self.match_word("FULLTEXT", "VECTOR")
        if kind_token is None:
            self.fail(f"expected FULLTEXT or VECTOR, found {self.current.describe()}")
        self.expect_word("INDEX", f"after {kind_token.upper}")
        index = self.parse_name("an index name")
        self.expect(TT.FOR, "after the index name")
        query = self.parse_expression()
        where = self.parse_expression() if self.match(TT.WHERE) else None
        self.expect(TT.LIMIT, "in SEARCH (the number of results to take from the index)")
        limit = self.parse_expression()
        self.expect_closing(TT.RPAREN, "the SEARCH source", opened)
        score = None
        if self.at_word("SCORE") and self.peek().type is TT.AS:
            self.advance()
            self.advance()
            score = self.parse_variable("the score variable")
        kind = "fulltext" if kind_token.upper == "FULLTEXT" else "vector"
        return ast.Search(variable, kind, index, query, limit, where, score, span=self.span_from(start))

    def parse_hints(self) -> tuple[ast.Hint, ...]:
        hints: list[ast.Hint] = []
        while self.current.type is TT.USING:
            start = self.advance()
            if self.match_word("JOIN"):
                self.expect(TT.ON, "after USING JOIN")
                variables = self.comma_separated(self.parse_variable)
                hints.append(ast.UsingJoin(variables, span=self.span_from(start)))
                continue
            is_index = self.match_word("INDEX") is not None
            if not is_index:
                self.expect_word("SCAN", "or INDEX or JOIN after USING")
            seek = is_index and self.match_word("SEEK") is not None
            variable = self.parse_variable()
            self.expect(TT.COLON, "before the label of the hint")
            label = self.parse_name("a label")
            if not is_index:
                hints.append(ast.UsingScan(variable, label, span=self.span_from(start)))
                continue
            opened = self.expect(TT.LPAREN, "before the indexed properties")
            properties = self.comma_separated(lambda: self.parse_name("a property key"))
            self.expect_closing(TT.RPAREN, "the property list", opened)
            hints.append(ast.UsingIndex(variable, label, properties, seek, span=self.span_from(start)))
        return tuple(hints)

    def parse_where(self) -> ast.Expression | None:
        if self.match(TT.WHERE) is None:
            return None
        return self.parse_predicate()

    def parse_predicate(self) -> ast.Expression:
        """An expression in a position that expects a boolean, where a bare pattern may stand."""
        self._predicate_depth += 1
        try:
            return self.parse_expression()
        finally:
            self._predicate_depth -= 1

    def parse_unwind(self) -> ast.Unwind:
        start = self.advance()
        expression = self.parse_expression()
        self.expect(TT.AS, "after the UNWIND expression")
        variable = self.parse_variable()
        return ast.Unwind(expression, variable, span=self.span_from(start))

    def parse_for(self) -> ast.Unwind:
        """GQL's `FOR x IN list`: `UNWIND list AS x`."""
        start = self.advance()
        variable = self.parse_variable()
        self.expect(TT.IN, "after the FOR variable")
        expression = self.parse_expression()
        return ast.Unwind(expression, variable, span=self.span_from(start))

    def parse_with(self) -> ast.With:
        start = self.advance()
        projection = self.parse_projection(start)
        where = self.parse_where()
        return ast.With(projection, where, span=self.span_from(start))

    def parse_return(self) -> ast.Return:
        start = self.advance()
        projection = self.parse_projection(start)
        return ast.Return(projection, span=self.span_from(start))

    def parse_projection(self, keyword: Token, *, items_allowed: bool = True) -> ast.Projection:
        distinct = items_allowed and self.match(TT.DISTINCT) is not None
        star = not items_allowed or self.match(TT.STAR) is not None
        items: tuple[ast.ProjectionItem, ...] = ()
        if items_allowed and (not star or self.match(TT.COMMA)):
            items = self.comma_separated(self.parse_projection_item)
        order_by: tuple[ast.SortItem, ...] = ()
        if self.current.type is TT.ORDER:
            self.advance()
            self.expect(TT.BY, "after ORDER")
            order_by = self.comma_separated(self.parse_sort_item)
        skip = limit = None
        if self.match(TT.SKIP) or self.match_word("OFFSET"):
            skip = self.parse_expression()
            self.check_not_negative(skip, "SKIP")
        if self.match(TT.LIMIT):
            limit = self.parse_expression()
            self.check_not_negative(limit, "LIMIT")
        return ast.Projection(items, star, distinct, order_by, skip, limit, span=self.span_from(keyword))

    def check_not_negative(self, expression: ast.Expression, clause: str) -> None:
        if isinstance(expression, ast.Literal) and isinstance(expression.value, int) \
                and not isinstance(expression.value, bool) and expression.value < 0:
            self.fail(f"{clause} must be a non-negative integer, got {expression.value}",
                      detail="NegativeIntegerArgument", span=expression.span)

    def parse_projection_item(self) -> ast.ProjectionItem:
        start = self.current
        expression = self.parse_expression()
        text = self.text[start.start:self.previous.end]
        if isinstance(expression, ast.Variable) and text.startswith("`"):
            # an unaliased variable projects under its name, as Neo4j names it: `WITH `x`` keeps `x` in scope
            # (and `RETURN `x`` names its column x), not a variable spelled with the backticks
            text = expression.name
        alias = None
        if self.match(TT.AS):
            alias = self.parse_name("an alias after AS")
        return ast.ProjectionItem(expression, alias, text, span=self.span_from(start))

    def parse_sort_item(self) -> ast.SortItem:
        start = self.current
        expression = self.parse_expression()
        descending = False
        if self.match(TT.DESC) or self.match(TT.DESCENDING):
            descending = True
        elif not self.match(TT.ASC):
            self.match(TT.ASCENDING)
        nulls_first = None
        if self.match_word("NULLS"):
            if self.match_word("FIRST"):
                nulls_first = True
            elif self.match_word("LAST"):
                nulls_first = False
            else:
                self.fail(f"expected FIRST or LAST after NULLS, found {self.current.describe()}")
        return ast.SortItem(expression, descending, nulls_first, span=self.span_from(start))

    # --------------------------------------------------------------------------------------------------------
    # Updating clauses

    def parse_create(self) -> ast.Create:
        start = self.advance()
        pattern = self.parse_pattern()
        for part in pattern.parts:
            self.check_writable(part, "CREATE")
        return ast.Create(pattern, span=self.span_from(start))

    def parse_merge(self) -> ast.Merge:
        start = self.advance()
        part = self.parse_pattern_part()
        self.check_writable(part, "MERGE")
        self.check_no_parameter_maps(ast.Pattern((part,), span=part.span), "MERGE")
        actions: list[ast.MergeAction] = []
        while self.current.type is TT.ON:
            on_token = self.advance()
            if self.match(TT.CREATE):
                on = "create"
            elif self.match(TT.MATCH):
                on = "match"
            else:
                self.fail(f"expected CREATE or MATCH after ON, found {self.current.describe()}")
            self.expect(TT.SET, f"after ON {on.upper()}")
            items = self.comma_separated(self.parse_set_item)
            actions.append(ast.MergeAction(on, items, span=self.span_from(on_token)))
        return ast.Merge(part, tuple(actions), span=self.span_from(start))

    def check_writable(self, part: ast.PatternPart, clause: str) -> None:
        """CREATE and MERGE write each relationship: one type, a direction (CREATE), a single hop."""
        for element in part.element.elements:
            if isinstance(element, ast.QuantifiedPath):
                self.fail(f"{clause} cannot use a quantified path pattern", detail="CreatingVarLength",
                          span=element.span)
            if isinstance(element, ast.NodePattern) and element.labels is not None and not _conjunction(
                    element.labels):
                self.fail(f"label expressions with '|', '!' or '%' are not allowed in a {clause} clause, only in "
                          "MATCH and in expressions", detail="InvalidLabelExpression", span=element.labels.span)
            if not isinstance(element, ast.RelationshipPattern):
                continue
            if element.length is not None or element.quantifier is not None:
                self.fail(f"{clause} cannot use a variable-length relationship", detail="CreatingVarLength",
                          span=element.span)
            # Without a type and with a variable, the variable may be bound already: the binder decides.
            single = isinstance(element.types, ast.LabelName) or (
                isinstance(element.types, ast.DynamicLabels) and element.types.quantifier == "all")
            if not single and (element.types or element.variable is None):
                problem = "without a type" if element.types is None else "with more than one type"
                self.fail(f"{clause} needs exactly one relationship type, found a relationship {problem}",
                          detail="NoSingleRelationshipType", span=element.span)
            if clause == "CREATE" and element.direction == "both":
                self.fail("CREATE needs a directed relationship: use -[...]-> or <-[...]-",
                          detail="RequiresDirectedRelationship", span=element.span)
        if part.selector is not None or part.function is not None:
            self.fail(f"{clause} cannot use a path selector or {part.function or 'shortest path'}",
                      span=part.span)

    def check_no_parameter_maps(self, pattern: ast.Pattern, clause: str) -> None:
        for part in pattern.parts:
            for element in part.element.elements:
                if isinstance(getattr(element, "properties", None), ast.Parameter):
                    self.fail(f"a parameter cannot stand for the property map of a {clause} pattern; write "
                              "{key: $param.key} instead", detail="InvalidParameterUse",
                              span=element.properties.span)

    def parse_set(self) -> ast.SetClause:
        start = self.advance()
        items = self.comma_separated(self.parse_set_item)
        return ast.SetClause(items, span=self.span_from(start))

    def parse_set_item(self) -> ast.SetItem:
        start = self.current
        target = self.parse_postfix(self.parse_atom(), labels=False)
        if isinstance(target, ast.Variable) and self.current.type in (TT.COLON, TT.IS):
            labels = self.parse_label_list()
            return ast.SetLabels(target, labels, span=self.span_from(start))
        if self.match(TT.PLUS_EQ):
            if not isinstance(target, ast.Variable):
                self.fail("expected a variable before '+='", span=target.span)
            return ast.MergeProperties(target, self.parse_expression(), span=self.span_from(start))
        self.expect(TT.EQ, "in the SET item")
        value = self.parse_expression()
        if isinstance(target, ast.PropertyLookup):
            return ast.SetProperty(target, value, span=self.span_from(start))
        if isinstance(target, ast.Subscript):
            return ast.SetDynamicProperty(target, value, span=self.span_from(start))
        if isinstance(target, ast.Variable):
            return ast.SetAllProperties(target, value, span=self.span_from(start))
        self.fail("expected a property (n.key), a variable or n[key] to SET", span=target.span)

    def parse_label_list(self) -> tuple[str | ast.DynamicLabels, ...]:
        """`:A:B` or `IS A` / `IS A&B` after a variable in SET and REMOVE."""
        labels: list[str | ast.DynamicLabels] = []
        if self.match(TT.IS):
            labels.append(self.parse_dynamic_labels() or self.parse_name("a label"))
            while self.match(TT.AMP) or self.match(TT.COLON):
                labels.append(self.parse_dynamic_labels() or self.parse_name("a label"))
            return tuple(labels)
        while self.match(TT.COLON):
            labels.append(self.parse_dynamic_labels() or self.parse_name("a label after ':'"))
        return tuple(labels)

    def parse_remove(self) -> ast.Remove:
        start = self.advance()

        def item() -> ast.RemoveItem:
            first = self.current
            target = self.parse_postfix(self.parse_atom(), labels=False)
            if isinstance(target, ast.Variable) and self.current.type in (TT.COLON, TT.IS):
                return ast.RemoveLabels(target, self.parse_label_list(), span=self.span_from(first))
            if isinstance(target, (ast.PropertyLookup, ast.Subscript)):
                return ast.RemoveProperty(target, span=self.span_from(first))
            self.fail("expected a property (n.key) or labels (n:Label) to REMOVE", span=target.span)

        return ast.Remove(self.comma_separated(item), span=self.span_from(start))

    def parse_delete(self) -> ast.Delete:
        start = self.advance()
        detach = start.type is TT.DETACH
        if detach:
            self.expect(TT.DELETE, "after DETACH")
        elif start.upper == "NODETACH":  # GQL: a DELETE that refuses a node with relationships, as DELETE does
            self.expect(TT.DELETE, "after NODETACH")
        expressions = self.comma_separated(self.parse_expression)
        for expression in expressions:
            if isinstance(expression, ast.HasLabels):
                self.fail("DELETE removes nodes, relationships or paths; use REMOVE n:Label to remove a "
                          "label", detail="InvalidDelete", span=expression.span)
        return ast.Delete(expressions, detach, span=self.span_from(start))

    def parse_foreach(self) -> ast.Foreach:
        start = self.advance()
        opened = self.expect(TT.LPAREN, "after FOREACH")
        variable = self.parse_variable()
        self.expect(TT.IN, "after the FOREACH variable")
        source = self.parse_expression_before_pipe()
        self.expect(TT.PIPE, "before the FOREACH clauses")
        clauses: list[ast.Clause] = []
        while self.current.type is not TT.RPAREN and self.current.type is not TT.EOF:
            clauses.append(self.parse_clause())
        if not clauses:
            self.fail(f"expected an updating clause in FOREACH, found {self.current.describe()}")
        self.expect_closing(TT.RPAREN, "FOREACH", opened)
        return ast.Foreach(variable, source, tuple(clauses), span=self.span_from(start))

    def parse_load_csv(self) -> ast.LoadCsv:
        """`LOAD CSV [WITH HEADERS] FROM url AS row [FIELDTERMINATOR 'c']`."""
        start = self.advance()
        self.expect_word("CSV", "after LOAD")
        headers = self.match(TT.WITH) is not None
        if headers:
            self.expect_word("HEADERS", "after LOAD CSV WITH")
        self.expect_word("FROM", "after LOAD CSV")
        url = self.parse_expression()
        self.expect(TT.AS, "after the LOAD CSV url")
        variable = self.parse_variable()
        terminator = None
        if self.match_word("FIELDTERMINATOR"):
            token = self.expect(TT.STRING, "after FIELDTERMINATOR")
            terminator = str(token.value)
            if len(terminator) != 1:
                self.fail("FIELDTERMINATOR must be one character", span=token.span)
        return ast.LoadCsv(url, variable, headers, terminator, span=self.span_from(start))

    def parse_let(self) -> ast.Let:
        """`LET name = expression, ...`: each item as `expression AS name`."""
        start = self.advance()

        def item() -> ast.ProjectionItem:
            begin = self.current
            name = self.parse_name("a variable after LET")
            self.expect(TT.EQ, f"after the LET variable {name}")
            expression_start = self.current
            expression = self.parse_expression()
            text = self.text[expression_start.start:self.previous.end]
            return ast.ProjectionItem(expression, name, text, span=self.span_from(begin))

        return ast.Let(self.comma_separated(item), span=self.span_from(start))

    def parse_filter(self) -> ast.Filter:
        start = self.advance()
        self.match(TT.WHERE)  # `FILTER WHERE condition` is the same clause
        return ast.Filter(self.parse_expression(), span=self.span_from(start))

    def parse_page(self) -> ast.Page:
        """ORDER BY / SKIP / OFFSET / LIMIT starting a clause of their own."""
        start = self.current
        projection = self.parse_projection(start, items_allowed=False)
        return ast.Page(projection, span=self.span_from(start))

    def parse_finish(self) -> ast.Finish:
        start = self.advance()
        return ast.Finish(span=self.span_from(start))

    # --------------------------------------------------------------------------------------------------------
    # CALL

    def parse_call_clause(self) -> ast.Clause:
        return self.parse_call(self.current, optional=False)

    def parse_call(self, start: Token, optional: bool) -> ast.Clause:
        self.expect(TT.CALL)
        if self.current.type in (TT.LBRACE, TT.LPAREN):
            return self.parse_call_subquery(start, optional)
        if optional:
            self.fail(f"expected '{{' or '(' after OPTIONAL CALL, found {self.current.describe()}")
        return self.parse_call_procedure(start)

    def parse_call_subquery(self, start: Token, optional: bool) -> ast.CallSubquery:
        importing: tuple[ast.Variable, ...] | None = None
        import_all = False
        if self.current.type is TT.LPAREN:
            opened = self.advance()
            if self.match(TT.STAR):
                import_all = True
                importing = ()
            elif self.current.type is TT.RPAREN:
                importing = ()
            else:
                importing = self.comma_separated(self.parse_variable)
            self.expect_closing(TT.RPAREN, "the CALL scope", opened)
        query = self.parse_braced_query("the CALL subquery")
        in_transactions = concurrent = False
        batch_size = concurrency = None
        on_error = None
        report_status = None
        if self.current.type is TT.IN and self._at_transactions_modifier():
            self.advance()
            if not self.at_word("CONCURRENT") and not self.at_word("TRANSACTIONS"):
                concurrency = self.parse_expression()
            concurrent = self.match_word("CONCURRENT") is not None
            if self.match_word("TRANSACTIONS") is None:
                self.fail(f"expected TRANSACTIONS, found {self.current.describe()}")
            in_transactions = True
            if self.match_word("OF"):
                batch_size = self.parse_expression()
                if not self.match_word("ROWS", "ROW"):
                    self.fail(f"expected ROWS after IN TRANSACTIONS OF n, found {self.current.describe()}")
            if self.current.type is TT.ON and self.at_word("ERROR", 1):
                self.advance()
                self.advance()
                mode = self.match_word("CONTINUE", "BREAK", "FAIL")
                if mode is None:
                    self.fail("expected CONTINUE, BREAK or FAIL after ON ERROR, found "
                              f"{self.current.describe()}")
                on_error = mode.upper.lower()
            if self.at_word("REPORT") and self.at_word("STATUS", 1):
                self.advance()
                self.advance()
                if self.match(TT.AS) is None:
                    self.fail(f"expected AS after REPORT STATUS, found {self.current.describe()}")
                report_status = self.parse_variable()
        return ast.CallSubquery(query, importing, import_all, optional, in_transactions, batch_size, on_error,
                                report_status, concurrency, concurrent, span=self.span_from(start))

    def _at_transactions_modifier(self) -> bool:
        """After a CALL subquery's `}`: `IN TRANSACTIONS`, `IN CONCURRENT TRANSACTIONS` or `IN n CONCURRENT
        TRANSACTIONS` (n an integer literal or a parameter)."""
        if self.at_word("TRANSACTIONS", 1) or self.at_word("CONCURRENT", 1):
            return True
        return self.peek().type in (TT.INTEGER, TT.PARAMETER) and self.at_word("CONCURRENT", 2)

    def parse_braced_query(self, what: str) -> ast.Query:
        opened = self.expect(TT.LBRACE, f"to open {what}")
        query = self.parse_query(closing=TT.RBRACE)
        self.expect_closing(TT.RBRACE, what, opened)
        return query

    def parse_call_procedure(self, start: Token) -> ast.CallProcedure:
        name = self.parse_symbolic_name()
        arguments: tuple[ast.Expression, ...] | None = None
        if self.current.type is TT.LPAREN:
            opened = self.advance()
            arguments = ()
            if self.current.type is not TT.RPAREN:
                arguments = self.comma_separated(self.parse_expression)
            self.expect_closing(TT.RPAREN, "the procedure arguments", opened)
        yield_items: tuple[ast.YieldItem, ...] | None = None
        yield_star = False
        where = None
        if self.match(TT.YIELD):
            if self.match(TT.STAR):
                yield_star = True
            else:
                yield_items = self.comma_separated(self.parse_yield_item)
                where = self.parse_where()
        return ast.CallProcedure(name, arguments, yield_items, yield_star, where, span=self.span_from(start))

    def parse_yield_item(self) -> ast.YieldItem:
        start = self.current
        field = self.parse_name("a procedure output name")
        alias = self.parse_variable("an alias after AS") if self.match(TT.AS) else None
        return ast.YieldItem(field, alias, span=self.span_from(start))

    # --------------------------------------------------------------------------------------------------------
    # Patterns

    def parse_pattern(self) -> ast.Pattern:
        start = self.current
        parts = self.comma_separated(self.parse_pattern_part)
        return ast.Pattern(parts, span=self.span_from(start))

    def parse_pattern_part(self) -> ast.PatternPart:
        start = self.current
        variable = None
        if start.type in VARIABLE_TYPES and self.peek().type is TT.EQ:
            variable = self.parse_variable()
            self.advance()
        selector = self.parse_path_selector()
        function = None
        if self.current.type is TT.IDENTIFIER and self.current.upper in ("SHORTESTPATH", "ALLSHORTESTPATHS") \
                and self.peek().type is TT.LPAREN:
            function = "shortestPath" if self.current.upper == "SHORTESTPATH" else "allShortestPaths"
            self.advance()
            opened = self.advance()
            element = self.parse_path_pattern()
            self.expect_closing(TT.RPAREN, function, opened)
        else:
            element = self.parse_path_pattern()
        return ast.PatternPart(variable, element, selector, function, span=self.span_from(start))

    def parse_path_selector(self) -> ast.PathSelector | None:
        start = self.current
        if start.type is TT.LPAREN:
            return None
        kind: str | None = None
        count: int | ast.Parameter | None = None
        if self.match(TT.ANY):
            if self.match_word("SHORTEST"):
                kind = "any_shortest"
            else:
                kind = "any"
                if self.current.type in (TT.INTEGER, TT.PARAMETER):
                    count = self._selector_count()
        elif self.match(TT.ALL):
            kind = "all_shortest" if self.match_word("SHORTEST") else "all"
        elif self.match_word("SHORTEST"):
            if self.current.type in (TT.INTEGER, TT.PARAMETER):
                count = self._selector_count()
            elif self.current.upper in ("GROUP", "GROUPS") or (self.current.upper in ("PATH", "PATHS")
                                                               and self.peek().upper in ("GROUP", "GROUPS")):
                count = 1  # `SHORTEST GROUPS` is `SHORTEST 1 GROUPS`
            else:
                self.fail(f"expected the number of paths after SHORTEST, found {self.current.describe()}")
            kind = "shortest_k"
        mode = None
        mode_token = self.match_word(*PATH_MODES)
        if mode_token is not None:
            mode = PATH_MODES[mode_token.upper]
        if kind is None and mode is None:
            return None
        self.match_word("PATH", "PATHS")
        if self.match_word("GROUP", "GROUPS"):
            if kind != "shortest_k":
                self.fail("GROUPS goes with SHORTEST k", token=self.previous)
            kind = "shortest_groups"
        return ast.PathSelector(kind or "all", count, mode, span=self.span_from(start))

    def _selector_count(self) -> int | ast.Parameter:
        """The k of `ANY k` / `SHORTEST k`: an integer literal or a parameter (bound to its value later)."""
        token = self.advance()
        return token.value if token.type is TT.INTEGER else ast.Parameter(token.value, span=token.span)

    def parse_path_pattern(self) -> ast.PathPattern:
        start = self.current
        elements: list[ast.NodePattern | ast.RelationshipPattern | ast.QuantifiedPath] = []
        while True:
            kind = self.current.type
            if kind is TT.LPAREN:
                after_node = elements and isinstance(elements[-1], ast.NodePattern)
                if after_node and self.peek().type is not TT.LPAREN:
                    break
                if self.peek().type is TT.LPAREN or (self.peek().type in VARIABLE_TYPES
                                                     and self.peek(2).type is TT.EQ):
                    elements.append(self.parse_quantified_path())
                else:
                    elements.append(self.parse_node_pattern())
            elif (kind is TT.MINUS or (kind is TT.LT and self._arrow_head())) and elements:
                if isinstance(elements[-1], ast.RelationshipPattern):
                    break
                elements.append(self.parse_relationship_pattern())
                if self.current.type is not TT.LPAREN:
                    self.fail(f"expected '(' to start the node pattern after the relationship, found "
                              f"{self.current.describe()}")
            else:
                break
        if not elements:
            self.fail(f"expected a pattern starting with '(', found {self.current.describe()}")
        return ast.PathPattern(tuple(elements), span=self.span_from(start))

    def _arrow_head(self) -> bool:
        """Whether the `<` here opens a relationship, `<-[` or `<--` (whitespace between the symbols allowed, as
        in Neo4j's grammar: `(a) < -[:R]- (b)`), not a comparison after a pattern predicate
        (`(n)<-[:R]-() < false`, `(n)-->() < -1`)."""
        return self.peek().type is TT.MINUS and self.peek(2).type in (TT.LBRACKET, TT.MINUS)

    def parse_node_pattern(self) -> ast.NodePattern:
        opened = self.expect(TT.LPAREN, "to open a node pattern")
        variable = self.parse_variable() if self.current.type in VARIABLE_TYPES else None
        labels = None
        if self.current.type is TT.COLON or self.current.type is TT.IS:
            labels = self.parse_label_expression(node=True)
            self.check_no_colon_disjunction(labels)
        properties = self.parse_pattern_properties() if self.current.type in PROPERTY_MAP_STARTS else None
        where = self.parse_predicate() if self.current.type is TT.WHERE and self.advance() else None
        self.expect_closing(TT.RPAREN, "the node pattern", opened)
        return ast.NodePattern(variable, labels, properties, where, span=self.span_from(opened))

    def parse_pattern_properties(self) -> ast.MapLiteral | ast.Parameter | None:
        if self.current.type is TT.LBRACE:
            return self.parse_map_literal()
        if self.current.type is TT.PARAMETER:
            token = self.advance()
            return ast.Parameter(token.value, span=token.span)
        return None

    def parse_relationship_pattern(self) -> ast.RelationshipPattern:
        start = self.current
        left = self.match(TT.LT) is not None
        self.expect(TT.MINUS, "in the relationship pattern")
        variable = types = properties = where = length = None
        if self.current.type is TT.LBRACKET:
            opened = self.advance()
            if self.current.type in VARIABLE_TYPES:
                variable = self.parse_variable()
            symbols: frozenset[str] = frozenset()
            if self.current.type is TT.COLON or self.current.type is TT.IS:
                types = self.parse_label_expression()
                symbols = self.last_label_symbols
                if ":" in symbols:
                    self.fail("relationship types in a relationship type expression may not be combined using ':'",
                              detail="InvalidRelationshipPattern", span=types.span)
            if self.current.type is TT.STAR:
                length = self.parse_var_length()
                if types is not None and symbols & {"&", "!", "%"}:
                    self.fail("variable length relationships must not use relationship type expressions with "
                              "'&', '!' or '%'", detail="InvalidRelationshipPattern", span=types.span)
            elif self.current.type in (TT.DOTDOT, TT.INTEGER):
                self.fail(f"expected '*' before the length of a variable-length relationship, found "
                          f"{self.current.describe()}", detail="InvalidRelationshipPattern")
            if self.current.type in PROPERTY_MAP_STARTS:
                properties = self.parse_pattern_properties()
            if self.match(TT.WHERE):
                where = self.parse_predicate()
            if types is not None and "|:" in symbols and (variable or length or properties or where):
                self.fail("the legacy '|:' between relationship types cannot be used with a variable, properties, "
                          "WHERE or a variable length; separate the types with '|' alone",
                          detail="InvalidRelationshipPattern", span=types.span)
            self.expect_closing(TT.RBRACKET, "the relationship pattern", opened)
        self.expect(TT.MINUS, "to finish the relationship pattern")
        right = self.match(TT.GT) is not None
        direction = "left" if left and not right else "right" if right and not left else "both"
        quantifier = self.parse_quantifier()
        return ast.RelationshipPattern(variable, types, properties, direction, length, quantifier,
                                       where, span=self.span_from(start))

    def parse_var_length(self) -> ast.VarLength:
        star = self.advance()
        low = high = None
        if self.current.type is TT.MINUS:
            self.fail("the length of a variable-length relationship cannot be negative",
                      detail="InvalidRelationshipPattern")
        if self.current.type is TT.INTEGER:
            low = self.advance().value
        if self.match(TT.DOTDOT):
            if self.current.type is TT.MINUS:
                self.fail("the length of a variable-length relationship cannot be negative",
                          detail="InvalidRelationshipPattern")
            if self.current.type is TT.INTEGER:
                high = self.advance().value
        elif low is not None:
            high = low
        if self.current.type in (TT.FLOAT, TT.BAD_NUMBER):
            self.fail(f"expected an integer length, found {self.current.describe()}",
                      detail="InvalidRelationshipPattern")
        return ast.VarLength(low, high, span=self.span_from(star))

    def parse_quantifier(self) -> ast.Quantifier | None:
        kind = self.current.type
        if kind is TT.PLUS:
            token = self.advance()
            return ast.Quantifier(1, None, span=token.span)
        if kind is TT.STAR:
            token = self.advance()
            return ast.Quantifier(0, None, span=token.span)
        if kind is not TT.LBRACE:
            return None
        opened = self.advance()
        low = high = None
        if self.current.type is TT.INTEGER:
            low = self.parse_quantifier_bound()
        if self.match(TT.COMMA):
            if self.current.type is TT.INTEGER:
                high = self.parse_quantifier_bound()
        else:
            if low is None:
                self.fail(f"expected a number in the quantifier, found {self.current.describe()}")
            high = low
        self.expect_closing(TT.RBRACE, "the quantifier", opened)
        return ast.Quantifier(low, high, span=self.span_from(opened))

    def parse_quantifier_bound(self) -> int:
        """A bound of `{m,n}`: an unsigned integer no larger than Long.MAX_VALUE (Cypher manual, Quantifiers)."""
        token = self.advance()
        if token.value > INT64_MAX:
            self.fail(f"integer literal {token.text} in the quantifier is outside the 64-bit integer range",
                      detail="IntegerOverflow", span=token.span)
        return token.value

    def parse_quantified_path(self) -> ast.QuantifiedPath:
        opened = self.advance()
        variable = None
        if self.current.type in VARIABLE_TYPES and self.peek().type is TT.EQ:
            variable = self.parse_variable()
            self.advance()
        pattern = self.parse_path_pattern()
        where = self.parse_predicate() if self.match(TT.WHERE) else None
        self.expect_closing(TT.RPAREN, "the parenthesised path", opened)
        quantifier = self.parse_quantifier()
        return ast.QuantifiedPath(pattern, where, quantifier, variable, span=self.span_from(opened))

    def expect_closing(self, kind: TokenKind, what: str, opened: Token) -> Token:
        if self.current.type is kind:
            return self.advance()
        closer = kind.value if kind.value in KEYWORDS else f"'{kind.value}'"
        self.fail((f"expected {closer} to close {what} opened at ", opened.span,
                   f", found {self.current.describe()}"))

    # --------------------------------------------------------------------------------------------------------
    # Label expressions: `|` (or), `&` (and), `!` (not), `%`, parentheses; legacy `:A:B` and `:A|:B`.

    def parse_label_expression(self, node: bool = False) -> ast.LabelExpression:
        """After `:` (or `IS`): a label expression, with the legacy `:A:B` conjunction. The legacy colons
        may not be mixed with `|`, `&`, `!`, `%` (Neo4j's 42I10, "invalid label expression"), here nor elsewhere
        in the clause (`node`: a node pattern's, where `|` is no legacy syntax)."""
        saved, self._label_symbols = self._label_symbols, set()
        start = self.advance()
        token = self.current
        if token.type in WORD_TYPES and self.peek().type not in LABEL_OPERATORS:  # `:Name`, the common case
            self.advance()
            expression: ast.LabelExpression = ast.LabelName(token.value, span=token.span)
        else:
            expression = self.parse_label_or()
        while self.current.type is TT.COLON and start.type is TT.COLON:
            self.advance()
            self._label_symbols.add(":")
            right = self.parse_label_or()
            expression = ast.LabelAnd(expression, right, span=expression.span.cover(right.span))
        symbols, self._label_symbols = frozenset(self._label_symbols), saved
        if symbols & {":", "|:"} and symbols & {"|", "&", "!", "%", "("}:
            self.fail("mixing label expression symbols ('|', '&', '!', and '%') with colon (':') between labels "
                      "is not allowed; use one set of symbols", detail="InvalidLabelExpression",
                      span=expression.span)
        self.last_label_symbols = symbols
        self._clause_label_symbols |= symbols if node else symbols - {"|", "|:"}
        return expression

    def is_label_predicate(self) -> bool:
        """At `IS`: whether a label expression follows (`n IS A|B`, Neo4j's `IS` synonym of `:`), not NULL,
        NOT, TYPED, `::` or NORMALIZED."""
        after = self.peek()
        if after.type in (TT.BANG, TT.PERCENT, TT.LPAREN):
            return True
        return after.type in WORD_TYPES and after.upper not in IS_PREDICATE_WORDS

    def check_no_colon_disjunction(self, expression: ast.LabelExpression) -> None:
        """`:A|:B` is only left for relationship types; on labels it is an error."""
        if "|:" in self.last_label_symbols:
            self.fail("label expressions are not allowed to contain '|:'; write the disjunction as :A|B",
                      detail="InvalidLabelExpression", span=expression.span)

    def parse_label_or(self) -> ast.LabelExpression:
        left = self.parse_label_and()
        while self.current.type is TT.PIPE and not self._pipe_ends_expression:
            self.advance()
            self._label_symbols.add("|:" if self.match(TT.COLON) else "|")
            right = self.parse_label_and()
            left = ast.LabelOr(left, right, span=left.span.cover(right.span))
        return left

    def parse_label_and(self) -> ast.LabelExpression:
        left = self.parse_label_not()
        while self.current.type is TT.AMP:
            self.advance()
            self._label_symbols.add("&")
            right = self.parse_label_not()
            left = ast.LabelAnd(left, right, span=left.span.cover(right.span))
        return left

    def parse_label_not(self) -> ast.LabelExpression:
        if self.current.type is TT.BANG:
            start = self.advance()
            self._label_symbols.add("!")
            operand = self.parse_label_not()
            return ast.LabelNot(operand, span=self.span_from(start))
        token = self.current
        if token.type is TT.PERCENT:
            self.advance()
            self._label_symbols.add("%")
            return ast.LabelWildcard(span=token.span)
        if token.type is TT.LPAREN:
            opened = self.advance()
            self._label_symbols.add("(")
            saved, self._pipe_ends_expression = self._pipe_ends_expression, False
            expression = self.parse_label_or()
            self._pipe_ends_expression = saved
            self.expect_closing(TT.RPAREN, "the label expression", opened)
            return expression
        dynamic = self.parse_dynamic_labels()
        if dynamic is not None:
            return dynamic
        name = self.parse_name("a label or relationship type")
        return ast.LabelName(name, span=token.span)

    def parse_dynamic_labels(self) -> ast.DynamicLabels | None:
        """`$(expression)`, `$all(expression)`, `$any(expression)` where a label or type may stand (Cypher 25)."""
        token = self.current
        if token.type is TT.DOLLAR:
            quantifier = "all"
        elif (token.type is TT.PARAMETER and str(token.value).lower() in ("all", "any")
              and self.peek().type is TT.LPAREN):
            quantifier = str(token.value).lower()
        else:
            return None
        self.advance()
        opened = self.expect(TT.LPAREN, "after $")
        expression = self.parse_expression()
        self.expect_closing(TT.RPAREN, "the dynamic label", opened)
        return ast.DynamicLabels(expression, quantifier, span=self.span_from(token))

    # --------------------------------------------------------------------------------------------------------
    # Expressions, loosest binding first

    def parse_expression(self, min_power: int = OR_POWER) -> ast.Expression:
        """An expression of operators binding at least as tight as `min_power` (precedence climbing)."""
        left = self.parse_not() if self.current.type is TT.NOT else self.parse_unary()
        while True:
            kind = self.current.type
            entry = BINARY_OPERATORS.get(kind)
            if entry is not None:
                power, op = entry
                if power < min_power:
                    return _balanced(left)
                self.advance()
                right = self.parse_expression(power + 1)
                if power <= AND_POWER:
                    self.mark_boolean_operands(left, right)
                if not isinstance(left, ast.BinaryOp) or left.op != op:
                    left = _balanced(left)
                left = ast.BinaryOp(op, left, right, span=_join(left.span, right.span))
            elif kind in COMPARISON_OPERATORS:
                if min_power > COMPARISON_POWER:
                    return _balanced(left)
                left = self.parse_comparison(left)
            elif kind in PREDICATE_TOKENS:
                if min_power > PREDICATE_POWER:
                    return _balanced(left)
                left = self.parse_predicate_operator(left)
            else:
                return _balanced(left)

    def parse_expression_before_pipe(self) -> ast.Expression:
        saved, self._pipe_ends_expression = self._pipe_ends_expression, True
        try:
            return self.parse_expression()
        finally:
            self._pipe_ends_expression = saved

    def parse_not(self) -> ast.Expression:
        start = self.advance()
        self._predicate_depth += 1
        try:
            operand = self.parse_expression(NOT_POWER)
        finally:
            self._predicate_depth -= 1
        self.mark_boolean_operands(operand)
        return ast.UnaryOp("NOT", operand, span=self.span_from(start))

    def parse_comparison(self, left: ast.Expression) -> ast.Expression:
        result: ast.Expression | None = None
        while (op := COMPARISON_OPERATORS.get(self.current.type)) is not None:
            self.advance()
            right = self.parse_expression(COMPARISON_POWER + 1)
            comparison = ast.BinaryOp(op, left, right, span=_join(left.span, right.span))
            result = comparison if result is None else \
                ast.BinaryOp("AND", result, comparison, span=_join(result.span, comparison.span))
            left = right
        return result

    def parse_predicate_operator(self, left: ast.Expression) -> ast.Expression:
        kind = self.current.type
        if kind is TT.IS:
            return self.parse_is(left)
        self.advance()
        if kind is TT.COLONCOLON:
            type_name = self.parse_type()
            return ast.IsType(left, type_name, False, span=self.span_from(left.span))
        second, op = PREDICATE_OPERATORS[kind]
        if second is not None:
            self.expect(second, f"after {op.split()[0]}")
        right = self.parse_expression(PREDICATE_POWER + 1)
        return ast.BinaryOp(op, left, right, span=_join(left.span, right.span))

    def parse_is(self, operand: ast.Expression) -> ast.Expression:
        self.advance()
        negated = self.match(TT.NOT) is not None
        if self.match(TT.NULL):
            return ast.IsNull(operand, negated, span=self.span_from(operand.span))
        if self.match(TT.COLONCOLON) or self.match_word("TYPED"):
            type_name = self.parse_type()
            return ast.IsType(operand, type_name, negated, span=self.span_from(operand.span))
        form = self.current if self.current.upper in ("NFC", "NFD", "NFKC", "NFKD") and \
            self.at_word("NORMALIZED", 1) else None
        if form is not None:
            self.advance()
        if self.match_word("NORMALIZED"):
            return ast.IsNormalized(operand, form.upper if form else "NFC", negated, span=self.span_from(operand.span))
        self.fail(f"expected NULL, TYPED or '::' after IS{' NOT' if negated else ''}, "
                  f"found {self.current.describe()}")

    def parse_type(self) -> str:
        """A type after `IS ::`, normalised: `INTEGER`, `LIST<STRING NOT NULL>`, `INTEGER | FLOAT`."""
        alternatives = [self.parse_single_type()]
        while self.current.type is TT.PIPE and not self._pipe_ends_expression:
            self.advance()
            alternatives.append(self.parse_single_type())
        return " | ".join(alternatives)

    def parse_single_type(self) -> str:
        words: list[str] = []
        while True:
            token = self.current
            upper = token.upper
            type_word = upper in TYPE_WORDS and (upper != "NOT" or self.at_word("NULL", 1))
            time_zone = upper in ("WITH", "WITHOUT") and (self.at_word("TIME", 1) or self.at_word("TIMEZONE", 1))
            if type_word or time_zone:
                words.append(upper)
            elif token.type is TT.BANG and words:  # `INTEGER!` is `INTEGER NOT NULL`
                words += ["NOT", "NULL"]
            elif token.type is TT.LT and words:
                self.advance()
                inner = self.parse_type()
                self.expect(TT.GT, "to close the type's '<'")
                words[-1] += f"<{inner}>"
                continue
            elif token.type is TT.LPAREN and words and words[-1].startswith("VECTOR") and "(" not in words[-1]:
                # `VECTOR(3)`, `VECTOR<INT8>(3)`: a vector type's dimension
                self.advance()
                dimension = self.expect(TT.INTEGER, "as the dimension of a VECTOR type")
                self.expect(TT.RPAREN, "to close the VECTOR type's dimension")
                words[-1] += f"({dimension.text})"
                continue
            else:
                break
            self.advance()
        if not words:
            self.fail(f"expected a type name, found {self.current.describe()}")
        return " ".join(words)

    def parse_unary(self) -> ast.Expression:
        kind = self.current.type
        if kind is TT.MINUS or kind is TT.PLUS:
            start = self.advance()
            if kind is TT.MINUS and self.current.type in (TT.INTEGER, TT.FLOAT):
                literal = self.parse_number(negative=True, sign=start)
                return self.parse_postfix(literal)
            operand = self.parse_unary()
            return ast.UnaryOp(start.text, operand, span=self.span_from(start))
        parser = ATOM_PARSERS.get(kind)
        if parser is None:
            self.fail(f"expected an expression, found {self.current.describe()}")
        atom = parser(self)
        return self.parse_postfix(atom) if self.current.type in POSTFIX_TOKENS else atom

    def parse_number(self, negative: bool = False, sign: Token | None = None) -> ast.Literal:
        token = self.advance()
        value = token.value
        span = self.span_from(sign or token)
        if token.type is TT.INTEGER:
            limit = INT64_MAX + 1 if negative else INT64_MAX
            if value > limit:
                text = f"-{token.text}" if negative else token.text
                self.fail(f"integer literal {text} is outside the 64-bit integer range",
                          detail="IntegerOverflow", span=span)
        return ast.Literal(-value if negative else value, span=span)

    def parse_postfix(self, subject: ast.Expression, labels: bool = True) -> ast.Expression:
        while True:
            kind = self.current.type
            if kind is TT.DOT:
                self.advance()
                token = self.current
                if token.type is TT.IDENTIFIER:  # the common case of parse_name, inline
                    self.advance()
                    key = token.text
                else:
                    key = self.parse_name("a property key after '.'")
                subject = ast.PropertyLookup(subject, key, span=self.span_from(subject.span))
            elif kind is TT.LBRACKET:
                opened = self.advance()
                start = None if self.current.type is TT.DOTDOT else self.parse_expression()
                if self.match(TT.DOTDOT):
                    end = None if self.current.type is TT.RBRACKET else self.parse_expression()
                    if start is None and end is None:
                        self.fail("the start or end (or both) is required for a list slice", opened)
                    self.expect_closing(TT.RBRACKET, "the slice", opened)
                    subject = ast.Slice(subject, start, end, span=self.span_from(subject.span))
                else:
                    self.expect_closing(TT.RBRACKET, "the subscript", opened)
                    subject = ast.Subscript(subject, start, span=self.span_from(subject.span))
            elif (kind is TT.COLON or (kind is TT.IS and self.is_label_predicate())) and labels:
                expression = self.parse_label_expression()
                self.check_no_colon_disjunction(expression)
                return ast.HasLabels(subject, expression, span=self.span_from(subject.span))
            else:
                return subject

    # --------------------------------------------------------------------------------------------------------
    # Atoms

    def parse_atom(self) -> ast.Expression:
        token = self.current
        parser = ATOM_PARSERS.get(token.type)
        if parser is None:
            self.fail(f"expected an expression, found {token.describe()}")
        return parser(self)

    def parse_number_atom(self) -> ast.Expression:
        return self.parse_number()

    def parse_bad_number(self) -> NoReturn:
        token = self.current
        self.fail(f"invalid number literal {token.text!r}", detail="InvalidNumberLiteral")

    def parse_string(self) -> ast.Expression:
        token = self.advance()
        return ast.Literal(token.value, span=token.span)

    def parse_constant(self) -> ast.Expression:
        token = self.advance()
        value = {TT.TRUE: True, TT.FALSE: False, TT.NULL: None}[token.type]
        return ast.Literal(value, span=token.span)

    def parse_parameter(self) -> ast.Expression:
        token = self.advance()
        return ast.Parameter(token.value, span=token.span)

    def parse_map_literal(self) -> ast.MapLiteral:
        opened = self.expect(TT.LBRACE)
        entries: list[tuple[str, ast.Expression]] = []
        if self.current.type is not TT.RBRACE:
            while True:
                key = self.parse_name("a property key name in the map")
                self.expect(TT.COLON, f"after the map key '{key}'")
                entries.append((key, self.parse_expression()))
                if not self.match(TT.COMMA):
                    break
        self.expect_closing(TT.RBRACE, "the map", opened)
        return ast.MapLiteral(tuple(entries), span=self.span_from(opened))

    def parse_bracket(self) -> ast.Expression:
        """`[`: a list literal, a list comprehension or a pattern comprehension."""
        opened = self.current
        after = self.peek()
        if self.is_variable_token(after) and self.peek(2).type is TT.IN:
            return self.parse_list_comprehension()
        if (after.type is TT.LPAREN and self.looks_like_pattern(self.index + 1)) or (
                self.is_variable_token(after) and self.peek(2).type is TT.EQ
                and self.peek(3).type is TT.LPAREN):
            return self.parse_pattern_comprehension()
        self.advance()
        items: list[ast.Expression] = []
        if self.current.type is not TT.RBRACKET:
            items = list(self.comma_separated(self.parse_expression))
        self.expect_closing(TT.RBRACKET, "the list", opened)
        return ast.ListLiteral(tuple(items), span=self.span_from(opened))

    def parse_list_comprehension(self) -> ast.ListComprehension:
        opened = self.advance()
        variable = self.parse_variable()
        self.advance()  # IN
        source = self.parse_expression_before_pipe()
        where = self.parse_expression_before_pipe() if self.match(TT.WHERE) else None
        projection = self.parse_expression() if self.match(TT.PIPE) else None
        self.expect_closing(TT.RBRACKET, "the list comprehension", opened)
        return ast.ListComprehension(variable, source, where, projection, span=self.span_from(opened))

    def parse_pattern_comprehension(self) -> ast.PatternComprehension:
        opened = self.advance()
        variable = None
        if self.is_variable_token(self.current):
            variable = self.parse_variable()
            self.advance()  # =
        pattern = self.parse_path_pattern()
        self.check_no_parameter_maps(_as_pattern(pattern), "pattern comprehension")
        for element in pattern.elements:  # Neo4j's grammar: only `*` variable lengths in a pattern comprehension
            if isinstance(element, ast.QuantifiedPath) or getattr(element, "quantifier", None) is not None:
                self.fail("a pattern comprehension does not take quantified path patterns; write a variable-length "
                          "relationship such as -[:R*]-> instead", span=element.span)
        where = None
        if self.match(TT.WHERE):
            saved, self._pipe_ends_expression = self._pipe_ends_expression, True
            try:
                where = self.parse_predicate()
            finally:
                self._pipe_ends_expression = saved
        self.expect(TT.PIPE, "before the projection of the pattern comprehension")
        projection = self.parse_expression()
        self.expect_closing(TT.RBRACKET, "the pattern comprehension", opened)
        return ast.PatternComprehension(variable, pattern, where, projection, span=self.span_from(opened))

    def looks_like_pattern(self, index: int) -> bool:
        """Whether the `(` at `index` opens a node pattern followed by a relationship: `(a)-->`, `(:A)<-[`."""
        tokens = self.tokens
        inner = tokens[index + 1]
        if self.is_variable_token(inner):
            inner = tokens[index + 2]
        if inner.type not in (TT.RPAREN, TT.COLON, TT.LBRACE, TT.PARAMETER, TT.WHERE, TT.IS):
            return False
        close = self.closer_of(index)
        if close + 2 >= len(tokens):
            return False
        first, second = tokens[close + 1].type, tokens[close + 2].type
        if first is TT.MINUS:
            return second is TT.MINUS or second is TT.LBRACKET
        return first is TT.LT and second is TT.MINUS

    def parse_parenthesis(self) -> ast.Expression:
        if self.looks_like_pattern(self.index):
            return self.parse_pattern_expression()
        opened = self.advance()
        expression = self.parse_nested_expression()
        self.expect_closing(TT.RPAREN, "the parenthesised expression", opened)
        return replace(expression, span=self.span_from(opened))  # the span takes in the parentheses

    def parse_pattern_expression(self) -> ast.PatternExpression:
        pattern = self.parse_path_pattern()
        self.check_no_parameter_maps(_as_pattern(pattern), "pattern expression")
        expression = ast.PatternExpression(pattern, span=pattern.span)
        self._pattern_expressions.append((expression, self._predicate_depth > 0))
        return expression

    def parse_case(self) -> ast.Case:
        start = self.advance()
        subject = None if self.current.type is TT.WHEN else self.parse_expression()
        alternatives: list[tuple[ast.Expression, ast.Expression]] = []
        while self.match(TT.WHEN):
            condition = self.parse_expression()
            self.expect(TT.THEN, "after the WHEN condition")
            alternatives.append((condition, self.parse_expression()))
        if not alternatives:
            self.fail(f"expected WHEN in CASE, found {self.current.describe()}")
        default = self.parse_expression() if self.match(TT.ELSE) else None
        self.expect_closing(TT.END, "the CASE expression", start)
        return ast.Case(subject, tuple(alternatives), default, span=self.span_from(start))

    def parse_count(self) -> ast.Expression:
        following = self.peek().type
        if following is TT.LBRACE:
            start = self.advance()
            query, pattern, where = self.parse_subquery_body("COUNT")
            return ast.CountSubquery(query, pattern, where, span=self.span_from(start))
        if following is TT.LPAREN and self.peek(2).type is TT.STAR and self.peek(3).type is TT.RPAREN:
            start = self.advance()
            self.advance()
            self.advance()
            self.advance()
            return ast.CountStar(span=self.span_from(start))
        return self.parse_name_atom()

    def parse_exists(self) -> ast.Expression:
        start = self.advance()
        if self.current.type is TT.LBRACE:
            query, pattern, where = self.parse_subquery_body("EXISTS")
            return ast.ExistsSubquery(query, pattern, where, span=self.span_from(start))
        if self.current.type is TT.LPAREN:
            arguments = self.parse_arguments_after_name("exists")
            if len(arguments) == 1 and isinstance(arguments[0], ast.PatternExpression):
                # the predicate function exists(pattern) (Cypher manual, Predicate functions): EXISTS { pattern }
                path = arguments[0].pattern
                part = ast.PatternPart(None, path, None, None, span=path.span)
                return ast.ExistsSubquery(None, ast.Pattern((part,), span=path.span), None,
                                          span=self.span_from(start))
            return ast.FunctionCall(start.text, arguments, False, span=self.span_from(start))
        self.fail(f"expected '{{' or '(' after EXISTS, found {self.current.describe()}")

    def parse_subquery_body(self, keyword: str) -> tuple[ast.Query | None, ast.Pattern | None,
                                                         ast.Expression | None]:
        """The braces after EXISTS / COUNT: a full query, or a pattern with an optional WHERE."""
        opened = self.expect(TT.LBRACE)
        token = self.current
        if token.type in CLAUSE_PARSERS or token.upper in CONTEXTUAL_CLAUSE_PARSERS:
            query = self.parse_query(closing=TT.RBRACE)
            self.expect_closing(TT.RBRACE, f"the {keyword} subquery", opened)
            for part in query.parts:
                for clause in part.clauses:
                    if isinstance(clause, UPDATING_CLAUSES):
                        self.fail(f"{'An' if keyword == 'EXISTS' else 'A'} {keyword.title()} Expression cannot contain"
                                  " any updates",
                                  detail="InvalidClauseComposition", span=clause.span)
            return query, None, None
        saved = self._predicate_depth
        self._predicate_depth = 0
        pattern = self.parse_pattern()
        self.check_no_parameter_maps(pattern, "MATCH")  # `EXISTS { pattern }` is `EXISTS { MATCH pattern }`
        where = self.parse_where()
        self._predicate_depth = saved
        self.expect_closing(TT.RBRACE, f"the {keyword} subquery", opened)
        return None, pattern, where

    def parse_quantifier_word(self) -> ast.Expression:
        token = self.current
        following = self.peek().type
        if following is TT.LPAREN and self.is_variable_token(self.peek(2)) and self.peek(3).type is TT.IN:
            self.advance()
            opened = self.advance()
            variable = self.parse_variable()
            self.advance()  # IN
            source = self.parse_expression()
            where = self.parse_predicate() if self.match(TT.WHERE) else None
            self.expect_closing(TT.RPAREN, f"{token.text}(...)", opened)
            kind = token.type.value.lower()
            return ast.QuantifierExpression(kind, variable, source, where, span=self.span_from(token))
        if token.type is TT.ALL:
            self.fail(f"expected all(variable IN list WHERE predicate), found {token.describe()}")
        return self.parse_name_atom()

    def parse_name_atom(self) -> ast.Expression:
        """An identifier: a variable, a function call (dotted name), reduce(...), COLLECT { }, a map
        projection."""
        token = self.current
        following = self.peek().type
        if token.type is TT.IDENTIFIER and following not in NAME_ATOM_FOLLOWERS:  # the common case
            self.advance()
            return ast.Variable(token.text, span=token.span)
        upper = token.upper
        if following is TT.LPAREN:
            if upper == "REDUCE" and self.is_variable_token(self.peek(2)) and self.peek(3).type is TT.EQ:
                return self.parse_reduce()
            if upper in ("SHORTESTPATH", "ALLSHORTESTPATHS"):
                part = self.parse_pattern_part()
                pattern = ast.PatternExpression(part.element, span=part.element.span)
                return ast.FunctionCall(token.text, (pattern,), False, span=part.span)
            return self.parse_function_call()
        if following is TT.LBRACE:
            if upper == "COLLECT":
                self.advance()
                query = self.parse_braced_query("the COLLECT subquery")
                for part in query.parts:
                    for clause in part.clauses:
                        if isinstance(clause, UPDATING_CLAUSES):
                            self.fail("A Collect Expression cannot contain any updates",
                                      detail="InvalidClauseComposition", span=clause.span)
                return ast.CollectSubquery(query, span=self.span_from(token))
            return self.parse_map_projection()
        if following is TT.DOT:
            # A namespaced function `a.b.c(`? Otherwise a property lookup, read by parse_postfix.
            index = self.index + 1
            tokens = self.tokens
            while tokens[index].type is TT.DOT and tokens[index + 1].is_word:
                index += 2
            if tokens[index].type is TT.LPAREN:
                return self.parse_function_call()
        if not self.is_variable_token(token):
            self.fail(f"expected an expression, found {token.describe()}")
        return self.parse_variable()

    def parse_function_call(self) -> ast.FunctionCall:
        start = self.current
        name = self.parse_symbolic_name()
        opened = self.expect(TT.LPAREN)
        distinct = self.match(TT.DISTINCT) is not None
        if not distinct and self.current.type is TT.ALL and self.peek().type in SET_QUANTIFIER_OPERANDS:
            self.advance()  # GQL's `count(ALL x)`: the default set quantifier, duplicates kept
        arguments: tuple[ast.Expression, ...] = ()
        if name.lower() == "trim" and not distinct:
            trimmed = self.parse_trim_specification(start, opened)
            if isinstance(trimmed, ast.FunctionCall):
                return trimmed
            arguments = trimmed
        elif self.current.type is not TT.RPAREN:
            arguments = self.comma_separated(self.parse_argument)
        self.expect_closing(TT.RPAREN, f"the arguments of {name}()", opened)
        return ast.FunctionCall(name, arguments, distinct, span=self.span_from(start))

    def parse_argument(self) -> ast.Expression:
        """A function's argument. `SIGNED INTEGER`, the one coordinate type of two words (`vector(v, 3, SIGNED
        INTEGER)`), is read as one name, which the binder takes as the keyword it is."""
        if self.at_word("SIGNED") and self.at_word("INTEGER", 1) and self.peek(2).type in (TT.RPAREN, TT.COMMA):
            start = self.advance()
            self.advance()
            return ast.Variable("SIGNED INTEGER", span=self.span_from(start))
        return self.parse_nested_expression()

    def parse_trim_specification(self, start: Token, opened: Token) -> ast.FunctionCall | tuple[ast.Expression, ...]:
        """`trim([LEADING | TRAILING | BOTH] [characters] FROM input)` as `ltrim` / `rtrim` / `btrim(input[,
        characters])` (Cypher manual, String functions, trim()); the arguments of a plain `trim(input)` else."""
        side = None
        if self.current.upper in ("LEADING", "TRAILING", "BOTH") and self.peek(1).type not in (TT.RPAREN, TT.COMMA):
            side = self.advance().upper
        characters = None
        if side is None or not self.at_word("FROM"):
            if self.current.type is TT.RPAREN:
                return ()
            characters = self.parse_nested_expression()
            if side is None and not self.at_word("FROM"):
                return (characters, *self.comma_separated(self.parse_nested_expression)) \
                    if self.match(TT.COMMA) else (characters,)
        if not self.match_word("FROM"):
            self.fail(f"expected FROM in trim(), found {self.current.describe()}")
        text = self.parse_nested_expression()
        self.expect_closing(TT.RPAREN, "the arguments of trim()", opened)
        function = {"LEADING": "ltrim", "TRAILING": "rtrim"}.get(side or "BOTH", "btrim")
        arguments = (text,) if characters is None else (text, characters)
        return ast.FunctionCall(function, arguments, False, span=self.span_from(start))

    def parse_nested_expression(self) -> ast.Expression:
        """An expression in brackets of its own, where `|` is a label OR again, even in a comprehension."""
        if not self._pipe_ends_expression:
            return self.parse_expression()
        self._pipe_ends_expression = False
        try:
            return self.parse_expression()
        finally:
            self._pipe_ends_expression = True

    def parse_arguments_after_name(self, name: str) -> tuple[ast.Expression, ...]:
        opened = self.expect(TT.LPAREN)
        arguments: tuple[ast.Expression, ...] = ()
        if self.current.type is not TT.RPAREN:
            self._predicate_depth += 1  # exists((a)-->(b)) tests a pattern
            try:
                arguments = self.comma_separated(self.parse_expression)
            finally:
                self._predicate_depth -= 1
        self.expect_closing(TT.RPAREN, f"the arguments of {name}()", opened)
        return arguments

    def parse_reduce(self) -> ast.Reduce:
        start = self.advance()
        opened = self.advance()
        accumulator = self.parse_variable()
        self.expect(TT.EQ, "after the reduce accumulator")
        initial = self.parse_expression()
        self.expect(TT.COMMA, "after the reduce initial value")
        variable = self.parse_variable()
        self.expect(TT.IN, "after the reduce variable")
        source = self.parse_expression_before_pipe()
        self.expect(TT.PIPE, "before the reduce expression")
        expression = self.parse_expression()
        self.expect_closing(TT.RPAREN, "reduce(...)", opened)
        return ast.Reduce(accumulator, initial, variable, source, expression, span=self.span_from(start))

    def parse_map_projection(self) -> ast.MapProjection:
        variable = self.parse_variable()
        opened = self.advance()
        items: list[ast.MapProjectionItem] = []
        if self.current.type is not TT.RBRACE:
            while True:
                items.append(self.parse_map_projection_item())
                if not self.match(TT.COMMA):
                    break
        self.expect_closing(TT.RBRACE, "the map projection", opened)
        return ast.MapProjection(variable, tuple(items), span=self.span_from(variable.span))

    def parse_map_projection_item(self) -> ast.MapProjectionItem:
        start = self.current
        if self.match(TT.DOT):
            if self.match(TT.STAR):
                return ast.AllPropertiesSelector(span=self.span_from(start))
            key = self.parse_name("a property key after '.'")
            return ast.PropertySelector(key, span=self.span_from(start))
        if self.current.is_word and self.peek().type is TT.COLON:
            key = self.parse_name()
            self.advance()
            return ast.LiteralEntry(key, self.parse_expression(), span=self.span_from(start))
        variable = self.parse_variable("a map projection item (.key, .*, key: value or a variable)")
        return ast.VariableSelector(variable, span=variable.span)

    # --------------------------------------------------------------------------------------------------------
    # Schema commands

    def parse_create_statement(self) -> ast.Statement | None:
        following = self.peek()
        upper = following.upper
        if upper == "INDEX" or (upper in INDEX_KINDS and self.at_word("INDEX", 2)):
            return self.parse_create_index()
        if following.type is TT.CONSTRAINT:
            return self.parse_create_constraint()
        if upper == "DATABASE":
            start = self.advance()
            self.advance()
            return self.parse_database_command("create", start)
        if upper == "COMPOSITE" and self.at_word("DATABASE", 2):
            raise UnsupportedFeature("CREATE COMPOSITE DATABASE", self.token_span(self.current))
        return None

    def parse_schema_name(self, *stop: str) -> str | ast.Parameter | None:
        token = self.current
        if token.type is TT.PARAMETER:  # `CREATE CONSTRAINT $name ...`: the name is a parameter
            return self.parse_parameter()
        if not token.is_word or token.upper in stop:
            return None
        if token.upper == "IF" and self.peek().type is TT.NOT:
            return None
        return self.parse_name()

    def parse_if_not_exists(self) -> bool:
        if self.current.upper == "IF" and self.peek().type is TT.NOT:
            self.advance()
            self.advance()
            self.expect(TT.EXISTS, "after IF NOT")
            return True
        return False

    def parse_if_exists(self) -> bool:
        if self.current.upper == "IF" and self.peek().type is TT.EXISTS:
            self.advance()
            self.advance()
            return True
        return False

    def parse_schema_target(self) -> tuple[str, ast.Variable, tuple[str, ...]]:
        """`(n:L)`, `(n:A|B)`, `()-[r:T]-()` after FOR / ON: the entity, its variable and its labels."""
        start = self.current
        pattern = self.parse_path_pattern()
        elements = pattern.elements
        if len(elements) == 1 and isinstance(elements[0], ast.NodePattern):
            entity, element = "node", elements[0]
            expression = element.labels
        elif len(elements) == 3 and isinstance(elements[1], ast.RelationshipPattern):
            entity, element = "relationship", elements[1]
            expression = element.types
        else:
            self.fail("expected (n:Label) or ()-[r:TYPE]-() in the schema command", token=start)
        if element.variable is None:
            self.fail("expected a variable in the schema command's pattern", token=start)
        labels: list[str] = []
        pending = [expression] if expression is not None else []
        while pending:
            item = pending.pop()
            if isinstance(item, ast.LabelName):
                labels.insert(0, item.name)
            elif isinstance(item, ast.LabelOr):
                pending += [item.left, item.right]
            else:
                self.fail("expected a label, or labels joined by '|'", span=item.span)
        return entity, element.variable, tuple(labels)

    def parse_property_reference(self) -> str:
        self.parse_variable()
        self.expect(TT.DOT, "between the variable and the property key")
        return self.parse_name("a property key")

    def parse_create_index(self) -> ast.CreateIndex:
        start = self.advance()
        kind_token = self.match_word(*INDEX_KINDS)
        kind = INDEX_KINDS[kind_token.upper] if kind_token else "range"
        self.expect_word("INDEX")
        name = self.parse_schema_name("FOR", "ON")
        if_not_exists = self.parse_if_not_exists()
        self.expect(TT.FOR, "before the indexed pattern")
        entity, variable, labels = self.parse_schema_target()
        self.expect(TT.ON, "before the indexed properties")
        properties: tuple[str, ...] = ()
        function = None
        if kind == "lookup":
            self.match_word("EACH")
            function = self.parse_name("labels or type")
            opened = self.expect(TT.LPAREN)
            self.parse_variable()
            self.expect_closing(TT.RPAREN, f"{function}(...)", opened)
        elif self.match_word("EACH"):
            opened = self.expect(TT.LBRACKET, "after ON EACH")
            properties = self.comma_separated(self.parse_property_reference)
            self.expect_closing(TT.RBRACKET, "the property list", opened)
        elif kind == "vector" and self.current.type is not TT.LPAREN:  # Neo4j's `ON n.embedding`
            properties = (self.parse_property_reference(),)
        else:
            opened = self.expect(TT.LPAREN, "before the indexed properties")
            properties = self.comma_separated(self.parse_property_reference)
            self.expect_closing(TT.RPAREN, "the property list", opened)
        options = self.parse_map_literal() if self.match_word("OPTIONS") else None
        return ast.CreateIndex(name, kind, entity, variable, labels, properties, if_not_exists, options,
                               function, span=self.span_from(start))

    def parse_create_constraint(self) -> ast.CreateConstraint:
        start = self.advance()
        self.advance()  # CONSTRAINT
        name = self.parse_schema_name("FOR", "ON")
        if_not_exists = self.parse_if_not_exists()
        legacy = self.match(TT.ON) is not None
        if not legacy:
            self.expect(TT.FOR, "before the constrained pattern")
        entity, variable, labels = self.parse_schema_target()
        if len(labels) != 1:
            self.fail("a constraint applies to exactly one label or relationship type", token=start)
        if legacy:
            self.expect_word("ASSERT", "after the constrained pattern")
        else:
            self.expect_word("REQUIRE", "after the constrained pattern")
        kind, properties, property_type = self.parse_constraint_predicate()
        options = self.parse_map_literal() if self.match_word("OPTIONS") else None
        return ast.CreateConstraint(name, kind, entity, variable, labels[0], properties, if_not_exists,
                                    property_type, options, span=self.span_from(start))

    def parse_constraint_predicate(self) -> tuple[str, tuple[str, ...], str | None]:
        if self.current.type is TT.EXISTS:  # legacy ASSERT exists(n.p)
            self.advance()
            opened = self.expect(TT.LPAREN)
            prop = self.parse_property_reference()
            self.expect_closing(TT.RPAREN, "exists(...)", opened)
            return "not_null", (prop,), None
        if self.current.type is TT.LPAREN:
            opened = self.advance()
            properties = self.comma_separated(self.parse_property_reference)
            self.expect_closing(TT.RPAREN, "the property list", opened)
        else:
            properties = (self.parse_property_reference(),)
        if self.match(TT.COLONCOLON):
            return "property_type", properties, self.parse_type()
        self.expect(TT.IS, "after the constrained properties")
        if self.match(TT.COLONCOLON) or self.match_word("TYPED"):
            return "property_type", properties, self.parse_type()
        if self.match(TT.NOT):
            self.expect(TT.NULL, "after IS NOT")
            return "not_null", properties, None
        self.match_word("NODE", "RELATIONSHIP", "REL")
        if self.match_word("UNIQUE"):
            return "unique", properties, None
        if self.match_word("KEY"):
            return "node_key", properties, None
        self.fail(f"expected UNIQUE, KEY, NOT NULL or :: TYPE, found {self.current.describe()}")

    def parse_drop_statement(self) -> ast.Statement:
        start = self.advance()
        if self.match_word("DATABASE"):
            return self.parse_database_command("drop", start)
        if self.at_word("COMPOSITE") and self.at_word("DATABASE", 1):
            raise UnsupportedFeature("DROP COMPOSITE DATABASE", self.token_span(self.current))
        if self.match_word("INDEX"):
            if self.match(TT.ON):  # legacy DROP INDEX ON :Label(prop)
                self.expect(TT.COLON, "before the label")
                label = self.parse_name("a label")
                opened = self.expect(TT.LPAREN)
                properties = self.comma_separated(lambda: self.parse_name("a property key"))
                self.expect_closing(TT.RPAREN, "the property list", opened)
                return ast.DropIndex(None, False, label, properties, span=self.span_from(start))
            name = self.parse_schema_name() or self.parse_name("an index name")
            return ast.DropIndex(name, self.parse_if_exists(), span=self.span_from(start))
        self.expect(TT.CONSTRAINT, "or INDEX after DROP")
        if self.match(TT.ON):
            entity, variable, labels = self.parse_schema_target()
            self.expect_word("ASSERT", "after the constrained pattern")
            kind, properties, _ = self.parse_constraint_predicate()
            return ast.DropConstraint(None, False, kind, entity, variable, labels[0] if labels else None,
                                      properties, span=self.span_from(start))
        name = self.parse_schema_name() or self.parse_name("a constraint name")
        return ast.DropConstraint(name, self.parse_if_exists(), span=self.span_from(start))

    def parse_show_statement(self) -> ast.Statement:
        start = self.advance()
        if self.at_word("DATABASES") or self.at_word("DATABASE"):
            plural = self.advance().upper == "DATABASES"
            name = None if plural else self.parse_graph_name("a database name after SHOW DATABASE")
            if self.current.type not in (TT.EOF, TT.SEMICOLON):
                raise UnsupportedFeature(f"SHOW DATABASE{'S' if plural else ''} followed by "
                                         f"{self.current.describe()} (YIELD, WHERE and RETURN are not yet run)",
                                         self.token_span(self.current))
            return ast.DatabaseCommand("show", name, span=self.span_from(start))
        words: list[str] = []
        nouns = ("INDEX", "INDEXES", "CONSTRAINT", "CONSTRAINTS", "PROCEDURE", "PROCEDURES", "FUNCTION", "FUNCTIONS")
        while self.current.is_word and self.current.upper not in nouns:
            words.append(self.advance().upper.lower())
        noun = self.match_word(*nouns)
        if noun is None:
            self.fail(f"expected INDEXES, CONSTRAINTS, PROCEDURES or FUNCTIONS after SHOW, found "
                      f"{self.current.describe()}")
        kind = "_".join(words) or "all"
        yield_items: tuple[ast.YieldItem, ...] | None = None
        yield_star = False
        where = None
        returns = None
        if self.match(TT.YIELD):
            if self.match(TT.STAR):
                yield_star = True
            else:
                yield_items = self.comma_separated(self.parse_yield_item)
        where = self.parse_where()
        if self.current.type is TT.RETURN:
            returns = self.parse_return()
        span = self.span_from(start)
        if noun.upper.startswith(("PROCEDURE", "FUNCTION")):
            what = "procedures" if noun.upper.startswith("PROCEDURE") else "functions"
            return ast.ShowRoutines(what, kind, yield_items, yield_star, where, returns, span=span)
        node = ast.ShowIndexes if noun.upper.startswith("INDEX") else ast.ShowConstraints
        return node(kind, yield_items, yield_star, where, returns, span=span)

    # --------------------------------------------------------------------------------------------------------

    def mark_boolean_operands(self, *operands: ast.Expression) -> None:
        for operand in operands:
            if isinstance(operand, ast.PatternExpression):
                self._boolean_operands.add(id(operand))

    def check_pattern_expressions(self) -> None:
        """Bare patterns are predicates (Cypher 5): in a projection, SET value or size(...) they are
        errors."""
        for expression, as_predicate in self._pattern_expressions:
            if not as_predicate and id(expression) not in self._boolean_operands:
                self.fail("a pattern can only be used as a predicate here (use EXISTS { ... }, COUNT { ... } "
                          "or a pattern comprehension [ (a)-->(b) | b ])", span=expression.span)


STATEMENT_PARSERS: dict[str, Callable[[Parser], ast.Statement | None]] = {
    "CREATE": Parser.parse_create_statement,  # None when it is a CREATE clause: the statement is a query
    "DROP": Parser.parse_drop_statement,
    "SHOW": Parser.parse_show_statement,
}

CLAUSE_PARSERS: dict[TokenKind, Callable[[Parser], ast.Clause]] = {
    TT.MATCH: Parser.parse_match,
    TT.OPTIONAL: Parser.parse_match,
    TT.UNWIND: Parser.parse_unwind,
    TT.WITH: Parser.parse_with,
    TT.RETURN: Parser.parse_return,
    TT.CREATE: Parser.parse_create,
    TT.MERGE: Parser.parse_merge,
    TT.SET: Parser.parse_set,
    TT.REMOVE: Parser.parse_remove,
    TT.DELETE: Parser.parse_delete,
    TT.DETACH: Parser.parse_delete,
    TT.FOREACH: Parser.parse_foreach,
    TT.CALL: Parser.parse_call_clause,
    TT.ORDER: Parser.parse_page,
    TT.SKIP: Parser.parse_page,
    TT.LIMIT: Parser.parse_page,
}

# Clauses whose first word is not reserved (matched by upper-cased text).
CONTEXTUAL_CLAUSE_PARSERS: dict[str, Callable[[Parser], ast.Clause]] = {
    "FINISH": Parser.parse_finish,
    "LET": Parser.parse_let,
    "LOAD": Parser.parse_load_csv,
    "FILTER": Parser.parse_filter,
    "OFFSET": Parser.parse_page,
    "FOR": Parser.parse_for,  # GQL synonyms: FOR for UNWIND, INSERT for CREATE, NODETACH DELETE for DELETE
    "INSERT": Parser.parse_create,
    "NODETACH": Parser.parse_delete,
}

ATOM_PARSERS: dict[TokenKind, Callable[[Parser], ast.Expression]] = {
    TT.INTEGER: Parser.parse_number_atom,
    TT.FLOAT: Parser.parse_number_atom,
    TT.BAD_NUMBER: Parser.parse_bad_number,
    TT.STRING: Parser.parse_string,
    TT.TRUE: Parser.parse_constant,
    TT.FALSE: Parser.parse_constant,
    TT.NULL: Parser.parse_constant,
    TT.PARAMETER: Parser.parse_parameter,
    TT.LBRACKET: Parser.parse_bracket,
    TT.LBRACE: Parser.parse_map_literal,
    TT.LPAREN: Parser.parse_parenthesis,
    TT.CASE: Parser.parse_case,
    TT.COUNT: Parser.parse_count,
    TT.EXISTS: Parser.parse_exists,
    TT.ALL: Parser.parse_quantifier_word,
    TT.ANY: Parser.parse_quantifier_word,
    TT.NONE: Parser.parse_quantifier_word,
    TT.SINGLE: Parser.parse_quantifier_word,
    TT.IDENTIFIER: Parser.parse_name_atom,
    TT.QUOTED_IDENTIFIER: Parser.parse_name_atom,
}
