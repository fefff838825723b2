"""Neo4j's `classic` analyzer, Lucene's `ClassicAnalyzer`, as SQL: ClassicTokenizer, ClassicFilter,
LowerCaseFilter, then the English stop words (the `stop` filter).

ClassicTokenizer is a JFlex scanner: at each token start it takes the longest text any of its rules
matches (ALPHANUM, APOSTROPHE, ACRONYM, COMPANY, EMAIL, HOST, NUM, CJ, ACRONYM_DEP), a tie going to the
rule listed first, whose type ClassicFilter reads. RE2 is leftmost-first, and no single pattern here is
shown to pick the longest of the union, so the scanner is reproduced rule by rule (ADR-0099):

- A token holds letters, digits and Thai signs joined by single separators (`'.&@-_/,`), with at most a
  trailing dot, so the text is first cut into such pieces (`PIECE`) and CJ characters; a piece without a
  separator inside is one ALPHANUM token and skips the rest.
- Each rule's own pattern is deterministic: its runs are maximal and each choice is decided by the next
  character, so RE2's greedy leftmost-first match of it, anchored at a position, is its longest. NUM (every
  other segment has a digit) is written twice, once with the digits in the odd segments and once in the
  even, each in that form. The scanner's match is the longest of the rules' matches; its type the first
  rule reaching that length.
- A fold over the piece's positions (`list_reduce`) walks it as the scanner does: at the next start, a
  letter or digit begins the longest match, anything else is skipped.

The character classes are those of Lucene 8.7's generated scanner (`%unicode 3.0`: letters and digits of
Unicode 3.0, the Thai block, the CJ blocks), read from its `ZZ_CMAP`. A token longer than 255 characters
is dropped, its position kept (ClassicTokenizer skips it; it does not cut it).
"""

from __future__ import annotations

from engine.fulltext import analyzer
from engine.quoting import sql_string


def _class(ranges: str) -> str:
    """An RE2 class body from space-separated code points and ranges (`0041-005A 00AA`)."""
    return "".join("-".join(f"\\x{{{point}}}" for point in item.split("-")) for item in ranges.split())


# Lucene 8.7 ClassicTokenizerImpl's character classes: [:letter:] of Unicode 3.0 but CJ, [:digit:], the
# Thai block's other code points, and CJ (Chinese and Japanese).
_LETTER = _class(
    "0041-005A 0061-007A 00AA 00B5 00BA 00C0-00D6 00D8-00F6 00F8-021F 0222-0233 0250-02AD 02B0-02B8 02BB-02C1"
    " 02D0-02D1 02E0-02E4 02EE 037A 0386 0388-038A 038C 038E-03A1 03A3-03CE 03D0-03D7 03DA-03F3 0400-0481"
    " 048C-04C4 04C7-04C8 04CB-04CC 04D0-04F5 04F8-04F9 0531-0556 0559 0561-0587 05D0-05EA 05F0-05F2 0621-063A"
    " 0640-064A 0671-06D3 06D5 06E5-06E6 06FA-06FC 0710 0712-072C 0780-07A5 0905-0939 093D 0950 0958-0961"
    " 0985-098C 098F-0990 0993-09A8 09AA-09B0 09B2 09B6-09B9 09DC-09DD 09DF-09E1 09F0-09F1 0A05-0A0A 0A0F-0A10"
    " 0A13-0A28 0A2A-0A30 0A32-0A33 0A35-0A36 0A38-0A39 0A59-0A5C 0A5E 0A72-0A74 0A85-0A8B 0A8D 0A8F-0A91"
    " 0A93-0AA8 0AAA-0AB0 0AB2-0AB3 0AB5-0AB9 0ABD 0AD0 0AE0 0B05-0B0C 0B0F-0B10 0B13-0B28 0B2A-0B30 0B32-0B33"
    " 0B36-0B39 0B3D 0B5C-0B5D 0B5F-0B61 0B85-0B8A 0B8E-0B90 0B92-0B95 0B99-0B9A 0B9C 0B9E-0B9F 0BA3-0BA4"
    " 0BA8-0BAA 0BAE-0BB5 0BB7-0BB9 0C05-0C0C 0C0E-0C10 0C12-0C28 0C2A-0C33 0C35-0C39 0C60-0C61 0C85-0C8C"
    " 0C8E-0C90 0C92-0CA8 0CAA-0CB3 0CB5-0CB9 0CDE 0CE0-0CE1 0D05-0D0C 0D0E-0D10 0D12-0D28 0D2A-0D39 0D60-0D61"
    " 0D85-0D96 0D9A-0DB1 0DB3-0DBB 0DBD 0DC0-0DC6 0E01-0E30 0E32-0E33 0E40-0E46 0E81-0E82 0E84 0E87-0E88 0E8A"
    " 0E8D 0E94-0E97 0E99-0E9F 0EA1-0EA3 0EA5 0EA7 0EAA-0EAB 0EAD-0EB0 0EB2-0EB3 0EBD 0EC0-0EC4 0EC6 0EDC-0EDD"
    " 0F00 0F40-0F47 0F49-0F6A 0F88-0F8B 1000-1021 1023-1027 1029-102A 1050-1055 10A0-10C5 10D0-10F6 1100-1159"
    " 115F-11A2 11A8-11F9 1200-1206 1208-1246 1248 124A-124D 1250-1256 1258 125A-125D 1260-1286 1288 128A-128D"
    " 1290-12AE 12B0 12B2-12B5 12B8-12BE 12C0 12C2-12C5 12C8-12CE 12D0-12D6 12D8-12EE 12F0-130E 1310 1312-1315"
    " 1318-131E 1320-1346 1348-135A 13A0-13F4 1401-166C 166F-1676 1681-169A 16A0-16EA 1780-17B3 1820-1877"
    " 1880-18A8 1E00-1E9B 1EA0-1EF9 1F00-1F15 1F18-1F1D 1F20-1F45 1F48-1F4D 1F50-1F57 1F59 1F5B 1F5D 1F5F-1F7D"
    " 1F80-1FB4 1FB6-1FBC 1FBE 1FC2-1FC4 1FC6-1FCC 1FD0-1FD3 1FD6-1FDB 1FE0-1FEC 1FF2-1FF4 1FF6-1FFC 207F 2102"
    " 2107 210A-2113 2115 2119-211D 2124 2126 2128 212A-212D 212F-2131 2133-2139 3005-3006 3031-3035 3131-318E"
    " 31A0-31B7 A000-A48C AC00-D7A3 FB00-FB06 FB13-FB17 FB1D FB1F-FB28 FB2A-FB36 FB38-FB3C FB3E FB40-FB41"
    " FB43-FB44 FB46-FBB1 FBD3-FD3D FD50-FD8F FD92-FDC7 FDF0-FDFB FE70-FE72 FE74 FE76-FEFC FF21-FF3A FF41-FF5A"
    " FFA0-FFBE FFC2-FFC7 FFCA-FFCF FFD2-FFD7 FFDA-FFDC")
_DIGIT = _class("0030-0039 0660-0669 06F0-06F9 0966-096F 09E6-09EF 0A66-0A6F 0AE6-0AEF 0B66-0B6F 0BE7-0BEF"
                " 0C66-0C6F 0CE6-0CEF 0D66-0D6F 0E50-0E59 0ED0-0ED9 0F20-0F29 1040-1049 1369-1371 17E0-17E9"
                " 1810-1819 FF10-FF19")
_THAI = _class("0E00 0E31 0E34-0E3F 0E47-0E4F")
_CJ = _class("3040-312F 31F0-31FF 3300-337F 3400-4DBF 4E00-9FFF F900-FAFF FF65-FF9F")

L, D, LD, A = f"[{_LETTER}]", f"[{_DIGIT}]", f"[{_LETTER}{_DIGIT}]", f"[{_LETTER}{_DIGIT}{_THAI}]"
CJ = f"[{_CJ}]"
_P = "[-_/.,]"  # NUM's punctuation
_H = f"{L}*{D}{LD}*"  # a NUM segment with a digit (letters and digits only)

# The rules in the grammar's order, each deterministic (see the module's docstring); ACRONYM_DEP last.
RULES = (
    ("ALPHANUM", f"{A}+"),
    ("APOSTROPHE", f"{L}+(?:'{L}+)+"),
    ("ACRONYM", f"(?:{L}\\.){{2,}}"),
    ("COMPANY", f"{L}+[&@]{L}+"),
    ("EMAIL", f"{A}+(?:[-._]{A}+)*@{A}+(?:[-.]{A}+)+"),
    ("HOST", f"{A}+(?:\\.{A}+)+"),
    ("NUM", f"{_H}(?:{_P}{A}+{_P}{_H})*{_P}{A}+(?:{_P}{_H})?"),  # digits in the odd segments
    ("NUM", f"{A}+{_P}{_H}(?:{_P}{A}+{_P}{_H})*(?:{_P}{A}+)?"),  # digits in the even segments
    ("ACRONYM_DEP", f"{A}+\\.(?:{A}+\\.)+"),
)

PIECE = f"{A}+(?:['.&@\\-_/,]{A}+)*\\.?|{CJ}"
_SIMPLE = f"{A}+\\.?|{CJ}"
_RUN = f"{A}+|{CJ}"

_TYPES = [name for name, _ in RULES]
_LENGTHS = "[" + ", ".join(f"length(regexp_extract(r, {sql_string('^(?:' + p + ')')}))" for _, p in RULES) + "]"

MACROS: list[tuple[str, str]] = [
    # each rule's longest match at the start of r, in the rules' order
    ("ft_classic_lengths(r)", _LENGTHS),
    # the scanner over a piece: [next start, tokens as (text, rule number)]; a start that is no letter or
    # digit is skipped, otherwise the longest match is taken, the first rule reaching it its type
    ("ft_classic_scan(s)",
     f"list_reduce(range(1, length(s) + 1), lambda st, i: CASE WHEN i < st.p THEN st"
     f" WHEN NOT regexp_full_match(substr(s, i, 1), {sql_string(A)}) THEN {{p: i + 1, toks: st.toks}}"
     f" ELSE list_transform([ft_classic_lengths(substr(s, i))], lambda ls: {{p: i + list_max(ls),"
     f" toks: list_append(st.toks, {{t: substr(s, i, list_max(ls)), k: list_position(ls, list_max(ls))}})}})[1]"
     f" END, {{p: 1, toks: []::STRUCT(t VARCHAR, k INTEGER)[]}}).toks"),
    # ClassicTokenizer's length cut (a longer token is dropped), ClassicFilter by type, LowerCaseFilter
    ("ft_classic_term(t, k)",
     f"CASE WHEN length(t) > {analyzer.MAX_TOKEN_LENGTH} THEN NULL ELSE lower(CASE k"
     f" WHEN {_TYPES.index('APOSTROPHE') + 1} THEN CASE WHEN right(t, 2) IN ('''s', '''S')"
     f" THEN left(t, length(t) - 2) ELSE t END"
     f" WHEN {_TYPES.index('ACRONYM') + 1} THEN replace(t, '.', '')"
     f" WHEN {len(RULES)} THEN left(t, length(t) - 1) ELSE t END) END"),
    ("ft_tokens_classic(text)",
     f"flatten(list_transform(regexp_extract_all(text, {sql_string(PIECE)}), lambda s:"
     f" CASE WHEN regexp_full_match(s, {sql_string(_SIMPLE)})"
     f" THEN [ft_classic_term(regexp_extract(s, {sql_string(_RUN)}), 1)]"
     f" ELSE list_transform(ft_classic_scan(s), lambda x: ft_classic_term(x.t, x.k)) END))"),
    analyzer.value_tokens_macro("classic"),
]
