"""Lucene's regular expression syntax (`org.apache.lucene.util.automaton.RegExp`, the `/re/` of a full-text
query) as an RE2 expression that DuckDB's `regexp_full_match` runs over the index's terms.

Lucene's language is not RE2's: it always matches the whole term, `^` and `$` are ordinary characters,
`"..."` quotes a literal string, any character may be escaped with `\\`, and `.` is any code point. Its
grammar, read here by recursive descent as RegExp.java parses it: union `a|b`, concatenation, repeats `?`,
`*`, `+`, `{n}`, `{n,}`, `{n,m}`, classes `[abc]`, `[^a-z]`, groups `( )`, and the classes `\\d`, `\\s`, `\\w`
(and their negations). Its optional operators, intersection `&`, complement `~`, `#` (the empty
language), `@` (any string) and `<n-m>` (a numeric interval), raise UnsupportedFeature. A malformed
expression raises ValueError with Lucene's message.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import UnsupportedFeature

_CLASSES = {"d": "0-9", "s": " \\t\\n\\r", "w": "a-zA-Z_0-9"}
_OPTIONAL = {"&": "intersection (&)", "~": "complement (~)", "#": "the empty language (#)",
             "@": "any string (@)", "<": "numeric intervals (<n-m>)"}


def lucene_regexp(source: str) -> str:
    """The RE2 expression (anchored by full matching) for the Lucene regular expression `source`."""
    reader = _Reader(source)
    expression = reader.union()
    if reader.more():
        raise ValueError(f"end-of-string expected at position {reader.position}")
    return "(?s)" + expression


def _literal(char: str) -> str:
    """One code point as RE2 text."""
    return char if char.isalnum() or char == "_" else f"\\x{{{ord(char):X}}}"


@dataclass
class _Reader:
    source: str
    position: int = 0

    def more(self) -> bool:
        return self.position < len(self.source)

    def peek(self, chars: str) -> bool:
        return self.more() and self.source[self.position] in chars

    def match(self, char: str) -> bool:
        if self.peek(char):
            self.position += 1
            return True
        return False

    def next(self) -> str:
        if not self.more():
            raise ValueError("unexpected end-of-string")
        char = self.source[self.position]
        self.position += 1
        return char

    def union(self) -> str:
        expression = self.concatenation()
        if self.match("|"):
            return f"(?:{expression}|{self.union()})"
        return expression

    def concatenation(self) -> str:
        parts = []
        while self.more() and not self.peek(")|"):
            if self.peek("&"):
                raise UnsupportedFeature("regular expression intersection (&) in a full-text query")
            parts.append(self.repeat())
        return "".join(parts)

    def repeat(self) -> str:
        expression = self.char_class()
        while self.peek("?*+{"):
            operator = self.next()
            if operator != "{":
                expression = f"(?:{expression}){operator}"
                continue
            start = self.position
            while self.peek("0123456789"):
                self.position += 1
            if start == self.position:
                raise ValueError(f"integer expected at position {self.position}")
            low = self.source[start:self.position]
            high = low
            if self.match(","):
                start = self.position
                while self.peek("0123456789"):
                    self.position += 1
                high = self.source[start:self.position]
                if high and int(high) < int(low):
                    raise ValueError(f"invalid repetition range(out of order): {low}..{high}")
                high = "," + high
            else:
                high = ""
            if not self.match("}"):
                raise ValueError(f"expected '}}' at position {self.position}")
            expression = f"(?:{expression}){{{low}{high}}}"
        return expression

    def char_class(self) -> str:
        if self.peek("~"):
            raise UnsupportedFeature("regular expression complement (~) in a full-text query")
        if not self.match("["):
            return self.simple()
        negated = self.match("^")
        items = []
        while True:
            items.append(self.class_item())
            if not self.more():
                raise ValueError(f"expected ']' at position {self.position}")
            if self.match("]"):
                break
        return f"[{'^' if negated else ''}{''.join(items)}]"

    def class_item(self) -> str:
        if self.peek("\\") and self.position + 1 < len(self.source) \
                and self.source[self.position + 1].lower() in _CLASSES:
            self.position += 1
            return self.shorthand(inside=True)
        low = self.char()
        if self.match("-"):
            high = self.char()
            if ord(high) < ord(low):
                raise ValueError(f"invalid range: from ({low}) cannot be > to ({high})")
            return f"{_literal(low)}-{_literal(high)}"
        return _literal(low)

    def shorthand(self, inside: bool) -> str:
        """`\\d`, `\\s`, `\\w` and the negated `\\D`, `\\S`, `\\W`, the backslash already read."""
        letter = self.next()
        chars = _CLASSES[letter.lower()]
        if letter.isupper():
            if inside:
                raise UnsupportedFeature(f"\\{letter} inside a regular expression class in a full-text query")
            return f"[^{chars}]"
        return chars if inside else f"[{chars}]"

    def simple(self) -> str:
        if self.match("."):
            return "."
        for char, name in _OPTIONAL.items():
            if self.peek(char):
                raise UnsupportedFeature(f"regular expression {name} in a full-text query")
        if self.match('"'):
            end = self.source.find('"', self.position)
            if end < 0:
                raise ValueError(f"expected '\"' at position {self.position}")
            text = self.source[self.position:end]
            self.position = end + 1
            return "".join(_literal(char) for char in text)
        if self.match("("):
            if self.match(")"):
                return ""
            expression = self.union()
            if not self.match(")"):
                raise ValueError(f"expected ')' at position {self.position}")
            return f"(?:{expression})"
        if self.peek("\\") and self.position + 1 < len(self.source) \
                and self.source[self.position + 1].lower() in _CLASSES:
            self.position += 1
            return self.shorthand(inside=False)
        return _literal(self.char())

    def char(self) -> str:
        """A character, escaped or not (Lucene's parseCharExp)."""
        self.match("\\")
        return self.next()
