"""Neo4j's `cjk` analyzer, Lucene's `CJKAnalyzer`, as SQL: StandardTokenizer, CJKWidthFilter,
LowerCaseFilter, CJKBigramFilter, then the CJK stop words.

CJKBigramFilter joins the tokens StandardTokenizer types as ideographic (each Han character), hiragana
(each Hiragana character), katakana (a token of Katakana only) or hangul (a token of Hangul letters only)
when each starts where the one before ended, and emits every pair of neighbouring code points of such a
run; a run of one code point is emitted alone; other tokens pass as they are. Adjacency needs what lies
between two tokens, so the tokenizer's pattern is run with the gap before each token as a group of its own
(`(.*?)(token)`: the shortest gap, then the token, which is where the plain pattern finds the next token).
Whether a token is of a CJK type is decided on its own text, and the bigrams of a token need only its
neighbours, so the whole filter is one `list_transform` over the token list.
"""

from __future__ import annotations

from engine.fulltext import analyzer
from engine.quoting import sql_string

# CJKWidthFilter: fullwidth ASCII variants to ASCII; halfwidth katakana (FF65-FF9D) to the fullwidth
# forms of its KANA_NORM table; a halfwidth (semi-)voiced sound mark after a kana it composes with becomes
# the composed kana (KANA_COMBINE_VOICED / _HALF_VOICED), otherwise the combining mark U+3099 / U+309A.
_KANA_NORM = [0x30fb, 0x30f2, 0x30a1, 0x30a3, 0x30a5, 0x30a7, 0x30a9, 0x30e3, 0x30e5, 0x30e7, 0x30c3, 0x30fc,
              0x30a2, 0x30a4, 0x30a6, 0x30a8, 0x30aa, 0x30ab, 0x30ad, 0x30af, 0x30b1, 0x30b3, 0x30b5, 0x30b7,
              0x30b9, 0x30bb, 0x30bd, 0x30bf, 0x30c1, 0x30c4, 0x30c6, 0x30c8, 0x30ca, 0x30cb, 0x30cc, 0x30cd,
              0x30ce, 0x30cf, 0x30d2, 0x30d5, 0x30d8, 0x30db, 0x30de, 0x30df, 0x30e0, 0x30e1, 0x30e2, 0x30e4,
              0x30e6, 0x30e8, 0x30e9, 0x30ea, 0x30eb, 0x30ec, 0x30ed, 0x30ef, 0x30f3]
_VOICED = {0x30a6: 78, 0x30fd: 1} | {c: 1 for c in (0x30ab, 0x30ad, 0x30af, 0x30b1, 0x30b3, 0x30b5, 0x30b7,
                                                    0x30b9, 0x30bb, 0x30bd, 0x30bf, 0x30c1, 0x30c4, 0x30c6,
                                                    0x30c8, 0x30cf, 0x30d2, 0x30d5, 0x30d8, 0x30db)} \
    | {c: 8 for c in (0x30ef, 0x30f0, 0x30f1, 0x30f2)}
_HALF_VOICED = {c: 2 for c in (0x30cf, 0x30d2, 0x30d5, 0x30d8, 0x30db)}

_WIDTH_FROM = "".join(chr(c) for c in range(0xFF01, 0xFF5F)) + "".join(chr(c) for c in range(0xFF65, 0xFF9E))
_WIDTH_TO = "".join(chr(c - 0xFEE0) for c in range(0xFF01, 0xFF5F)) + "".join(chr(c) for c in _KANA_NORM)


def _width_sql() -> str:
    text = f"translate(t, {sql_string(_WIDTH_FROM)}, {sql_string(_WIDTH_TO)})"
    for mark, table in ((0xFF9E, _VOICED), (0xFF9F, _HALF_VOICED)):
        for kana, diff in table.items():
            text = f"replace({text}, {sql_string(chr(kana) + chr(mark))}, {sql_string(chr(kana + diff))})"
    text = f"translate({text}, {sql_string(chr(0xFF9E) + chr(0xFF9F))}, {sql_string(chr(0x3099) + chr(0x309A))})"
    return f"CASE WHEN regexp_matches(t, '[\\x{{FF01}}-\\x{{FF9F}}]') THEN {text} ELSE t END"


# The token types CJKBigramFilter joins, told from a token's text (analyzer.TOKEN_PATTERN's classes).
_HANGUL = r"[^\P{L}\P{Hangul}]" + analyzer.EXTEND
CJK_TYPE = (rf"(?:{analyzer.HAN}|{analyzer.HIRAGANA}){analyzer.EXTEND}|(?:{analyzer.KATAKANA})+|(?:{_HANGUL})+")
_GAP_AND_TOKEN = f"(?s)(.*?)({analyzer.TOKEN_PATTERN})"

# Lucene's CJKAnalyzer.getDefaultStopSet (cjk/stopwords.txt), in the order its CharArraySet iterates them.
STOP_WORDS = ("but", "be", "with", "such", "if", "for", "no", "will", "not", "are", "and", "their", "then", "this",
              "on", "into", "a", "or", "there", "in", "that", "they", "was", "is", "it", "at", "the", "as", "s", "t",
              "these", "by", "to", "of", "www")

_CUT = analyzer.MAX_TOKEN_LENGTH
MACROS: list[tuple[str, str]] = [
    ("ft_width(t)", _width_sql()),
    # [gap before, token] per token, a token longer than 255 characters cut into adjacent pieces
    ("ft_cjk_pieces(text)",
     f"flatten(list_transform(list_zip(regexp_extract_all(text, {sql_string(_GAP_AND_TOKEN)}, 1),"
     f" regexp_extract_all(text, {sql_string(_GAP_AND_TOKEN)}, 2)), lambda cp:"
     f" CASE WHEN length(cp[2]) <= {_CUT} THEN [cp]"
     f" ELSE list_transform(range(0, length(cp[2]), {_CUT}),"
     f" lambda cn: (CASE WHEN cn = 0 THEN cp[1] ELSE '' END, substr(cp[2], cn + 1, {_CUT}))) END))"),
    # [joins its neighbours (a CJK type), filtered term, gap before]
    ("ft_cjk_typed(pieces)",
     f"list_transform(pieces, lambda cp: (regexp_full_match(cp[2], {sql_string(CJK_TYPE)}), lower(ft_width(cp[2])),"
     f" cp[1]))"),
    # CJKBigramFilter over the typed tokens: a CJK token emits the bigrams that start in it (the last one
    # reaching into the next token when that one continues the run), or itself when its run is one code point
    ("ft_cjk_bigrams(xs)",
     "flatten(list_transform(xs, lambda cx, ci: CASE WHEN NOT cx[1] THEN [cx[2]]"
     " WHEN length(cx[2]) = 1 AND NOT (ci > 1 AND xs[ci - 1][1] AND cx[3] = '')"
     " AND NOT (ci < len(xs) AND xs[ci + 1][1] AND xs[ci + 1][3] = '') THEN [cx[2]]"
     " ELSE list_transform(range(1, length(cx[2])), lambda ck: substr(cx[2], ck, 2))"
     " || CASE WHEN ci < len(xs) AND xs[ci + 1][1] AND xs[ci + 1][3] = ''"
     " THEN [right(cx[2], 1) || left(xs[ci + 1][2], 1)] ELSE [] END END))"),
    # the analyzer's terms before its stop words, and its stop filter
    ("ft_tokens_cjk(text)", "ft_cjk_bigrams(ft_cjk_typed(ft_cjk_pieces(text)))"),
    analyzer.value_tokens_macro("cjk"),
    ("ft_filter_cjk(toks)", analyzer.stop_filter(STOP_WORDS)),
]
