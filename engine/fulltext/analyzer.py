"""The analyzer Neo4j's full-text indexes use by default, `standard-no-stop-words`, as SQL.

That analyzer is Lucene's `StandardAnalyzer` with an empty stop set: `StandardTokenizer` (the word breaks
of Unicode UAX#29, as Lucene's JFlex grammar `StandardTokenizerImpl.jflex` writes them), then
`LowerCaseFilter`. Here the grammar is one RE2 regular expression, so `regexp_extract_all` yields a text's
tokens in order, set-based over any number of texts; `ft_tokens(text)` is the whole analyzer.

The word-break classes are approximated with Unicode general categories and scripts (RE2 has no
Word_Break property):

- AHLetter: letters (`\\p{L}`) outside Han, Hiragana, Katakana and the South-East Asian scripts; Numeric:
  decimal digits (`\\p{Nd}`); Katakana: the Katakana script plus the prolonged sound mark; ExtendNumLet:
  connector punctuation (`\\p{Pc}`, the underscore among them) and U+202F; Extend and Format: marks
  (`\\p{M}`) and format characters (`\\p{Cf}` but U+200B); Roman numerals and circled and squared Latin
  letters are AHLetter too.
- MidLetter, MidNum, MidNumLet and Single_Quote are the code points Unicode lists for them.
- Emoji: Lucene's emoji rule, with `Extended_Pictographic` and Emoji_Modifier_Base as code-point ranges:
  presentation and modifier sequences, ZWJ sequences (leading and trailing ZWJs kept), tag sequences,
  keycaps and flag pairs; a lone regional indicator is not a token, a lone skin tone is.
- South-East Asian scripts (Thai, Lao, Myanmar, Khmer, Tai Le, New Tai Lue, Tai Tham, Tai Viet) form one
  token per run, as Lucene does without a dictionary; each Han ideograph and each Hiragana character is a
  token of its own.

What differs from Lucene, all outside Latin, Greek, Cyrillic, Hebrew, Arabic, CJK and digits: letters whose
Word_Break value is not ALetter although their category is L (and the reverse, e.g. some modifier symbols),
code points assigned after Unicode 9 that RE2 knows and Lucene's tables do not, and two of the six
pictographs that are letters joined by a ZWJ before a letter (docs/fulltext.md). A token longer than 255
characters is cut into 255-character tokens, as Lucene's scanner buffer does.
"""

from __future__ import annotations

from engine.quoting import sql_string

MAX_TOKEN_LENGTH = 255

# WB4: X (Extend | Format | ZWJ)* -> X. FF9E and FF9F (the halfwidth katakana sound marks) are letters by
# category, Extend by Word_Break. The skin tones are not Extend in Lucene's Unicode 9 tables but E_Modifier:
# emoji of their own.
_EXTEND = r"(?:\p{M}|[^\P{Cf}\x{200B}]|[\x{FF9E}\x{FF9F}])*"

_SOUTH_EAST_ASIAN = r"\p{Thai}\p{Lao}\p{Myanmar}\p{Khmer}\p{Tai_Le}\p{New_Tai_Lue}\p{Tai_Tham}\p{Tai_Viet}"
_KATAKANA_CLASS = r"\p{Katakana}\x{30FC}\x{3031}-\x{3035}\x{309B}\x{309C}\x{30A0}\x{FF70}"
# Han and Hiragana as Lucene's tables (Unicode 9) have them: the iteration marks 3005 and 303B are ALetter,
# 3006 is no word character, the Hentaigana (1B002-1B11E, Unicode 10) and late Bopomofo letters unknown.
_UNKNOWN = r"\x{312E}\x{312F}\x{31BB}-\x{31BF}\x{1B002}-\x{1B11E}"
HAN = r"[^\P{Han}\x{3005}\x{3006}\x{303B}]"
HIRAGANA = rf"[^\P{{Hiragana}}{_UNKNOWN}]"

# Roman numerals, circled and squared Latin letters: no letters by category, ALetter by Word_Break
_LETTER_SYMBOL = (r"[\x{2160}-\x{2182}\x{2185}-\x{2188}\x{24B6}-\x{24E9}\x{1F130}-\x{1F149}\x{1F150}-\x{1F169}"
                  r"\x{1F170}-\x{1F189}]")
_HEBREW_LETTER = r"[^\P{L}\P{Hebrew}]" + _EXTEND
_AHLETTER = (rf"(?:[^\P{{L}}\p{{Han}}\p{{Hiragana}}{_KATAKANA_CLASS}{_SOUTH_EAST_ASIAN}"
             rf"\x{{FF9E}}\x{{FF9F}}\x{{3006}}{_UNKNOWN}]|[\x{{3005}}\x{{303B}}]|{_LETTER_SYMBOL})") + _EXTEND
_NUMERIC = r"\p{Nd}" + _EXTEND
_KATAKANA = f"[{_KATAKANA_CLASS}]" + _EXTEND
EXTEND, KATAKANA = _EXTEND, _KATAKANA  # for the cjk analyzer's token types
_EXTEND_NUM_LET = r"[\p{Pc}\x{202F}]" + _EXTEND
_MID_NUM_LET_Q = r".\x{2018}\x{2019}\x{2024}\x{FE52}\x{FF07}\x{FF0E}'"
_MID_LETTER = (rf"[:\x{{B7}}\x{{387}}\x{{55F}}\x{{5F4}}\x{{2027}}\x{{FE13}}\x{{FE55}}\x{{FF1A}}"
               rf"{_MID_NUM_LET_Q}]") + _EXTEND
_MID_NUMERIC = (rf"[,;\x{{37E}}\x{{589}}\x{{60C}}\x{{60D}}\x{{66C}}\x{{7F8}}\x{{2044}}\x{{FE10}}\x{{FE14}}\x{{FE50}}"
                rf"\x{{FE54}}\x{{FF0C}}\x{{FF1B}}{_MID_NUM_LET_Q}]") + _EXTEND
_SINGLE_QUOTE = "'" + _EXTEND
_DOUBLE_QUOTE = '"' + _EXTEND

# Extended_Pictographic (Unicode emoji data), as ranges, but the six that are letters (Word_Break ALetter):
# where the word rule is as long, it cuts them.
_NOT_LETTER = (
    r"[\x{A9}\x{AE}\x{203C}\x{2049}\x{2122}\x{2194}-\x{2199}\x{21A9}\x{21AA}\x{231A}\x{231B}"
    r"\x{2328}\x{2388}\x{23CF}\x{23E9}-\x{23F3}\x{23F8}-\x{23FA}\x{25AA}\x{25AB}\x{25B6}\x{25C0}"
    r"\x{25FB}-\x{25FE}\x{2600}-\x{2605}\x{2607}-\x{2612}\x{2614}-\x{2685}\x{2690}-\x{2705}\x{2708}-\x{2712}"
    r"\x{2714}\x{2716}\x{271D}\x{2721}\x{2728}\x{2733}\x{2734}\x{2744}\x{2747}\x{274C}\x{274E}"
    r"\x{2753}-\x{2755}\x{2757}\x{2763}-\x{2767}\x{2795}-\x{2797}\x{27A1}\x{27B0}\x{27BF}\x{2934}\x{2935}"
    r"\x{2B05}-\x{2B07}\x{2B1B}\x{2B1C}\x{2B50}\x{2B55}\x{3030}\x{303D}\x{3297}\x{3299}"
    r"\x{1F000}-\x{1F0FF}\x{1F10D}-\x{1F10F}\x{1F12F}\x{1F16C}-\x{1F16F}\x{1F18E}"
    r"\x{1F191}-\x{1F19A}\x{1F1AD}-\x{1F1E5}\x{1F201}-\x{1F20F}\x{1F21A}\x{1F22F}\x{1F232}-\x{1F23A}"
    r"\x{1F23C}-\x{1F23F}\x{1F249}-\x{1F3FA}\x{1F400}-\x{1F53D}\x{1F546}-\x{1F64F}\x{1F680}-\x{1F6FF}"
    r"\x{1F774}-\x{1F77F}\x{1F7D5}-\x{1F7FF}\x{1F80C}-\x{1F80F}\x{1F848}-\x{1F84F}\x{1F85A}-\x{1F85F}"
    r"\x{1F888}-\x{1F88F}\x{1F8AE}-\x{1F8FF}\x{1F90C}-\x{1F93A}\x{1F93C}-\x{1F945}\x{1F947}-\x{1FAFF}"
    r"\x{1FC00}-\x{1FFFD}]"
)
_PICTOGRAPHIC = _NOT_LETTER[:-1] + r"\x{2139}\x{24C2}\x{1F170}\x{1F171}\x{1F17E}\x{1F17F}]"
# Emoji_Modifier_Base (Unicode emoji data 11.0, Lucene's): the emoji a skin tone joins
_MODIFIER_BASE = (
    r"[\x{261D}\x{26F9}\x{270A}-\x{270D}\x{1F385}\x{1F3C2}-\x{1F3C4}\x{1F3C7}\x{1F3CA}-\x{1F3CC}\x{1F442}"
    r"\x{1F443}\x{1F446}-\x{1F450}\x{1F466}-\x{1F469}\x{1F46E}\x{1F470}-\x{1F478}\x{1F47C}\x{1F481}-\x{1F483}"
    r"\x{1F485}-\x{1F487}\x{1F4AA}\x{1F574}\x{1F575}\x{1F57A}\x{1F590}\x{1F595}\x{1F596}\x{1F645}-\x{1F647}"
    r"\x{1F64B}-\x{1F64F}\x{1F6A3}\x{1F6B4}-\x{1F6B6}\x{1F6C0}\x{1F6CC}\x{1F918}-\x{1F91C}\x{1F91E}\x{1F91F}"
    r"\x{1F926}\x{1F930}-\x{1F939}\x{1F93D}\x{1F93E}\x{1F9B5}\x{1F9B6}\x{1F9B8}\x{1F9B9}\x{1F9D1}-\x{1F9DD}]"
)
_ZWJ, _FE0F, _MODIFIER = r"\x{200D}", r"\x{FE0F}", r"[\x{1F3FB}-\x{1F3FF}]"
# Lucene's emoji rule (UTS #51's emoji_sequence): elements `ZWJ* Pictographic S* FE0F?`,
# `(ZWJ* ModifierBase S*)? Modifier S*`, each joined to the next by a ZWJ, where S (ExtFmtZwjSansPresSel) is
# Extend, Format and ZWJ but the presentation selectors; `[#*] S* FE0F? 20E3 S*` (a keycap on a digit is
# the same text as the word rule's number); two regional indicators, each with Extend, Format and ZWJ.
# JFlex takes the longest match, RE2 the first: each joined element is an item that ends with its ZWJ, the
# last element (its S run taking trailing ZWJs) closes the run, so the first match found is the longest.
_S = r"(?:[^\P{M}\x{FE0E}\x{FE0F}]|[^\P{Cf}\x{200B}]|[\x{FF9E}\x{FF9F}])*"
_WITH_MODIFIER = rf"(?:{_ZWJ}*{_MODIFIER_BASE}{_S}{_MODIFIER}|{_MODIFIER}){_S}"
_ELEMENT = rf"(?:{_WITH_MODIFIER}|{_ZWJ}*{_PICTOGRAPHIC}{_S}{_FE0F}?)"
_EMOJI = (rf"(?:(?:{_ELEMENT}{_ZWJ})+{_ELEMENT}|{_WITH_MODIFIER}"
          rf"|(?:{_ZWJ}+{_PICTOGRAPHIC}|{_NOT_LETTER}){_S}{_FE0F}?"
          rf"|[#*]{_S}{_FE0F}?\x{{20E3}}{_S}"
          rf"|[\x{{1F1E6}}-\x{{1F1FF}}]{_EXTEND}[\x{{1F1E6}}-\x{{1F1FF}}]{_EXTEND})")

# The word rule (WB5-WB13b): runs of letters and digits joined by the Mid* and ExtendNumLet classes. A Hebrew
# letter with a quote after it (WB7a-c) is tried before the letter alone, which would leave the quote out.
_WORD_CORE = (
    f"(?:{_KATAKANA}(?:(?:{_EXTEND_NUM_LET})*{_KATAKANA})*"
    f"|(?:{_HEBREW_LETTER}(?:{_SINGLE_QUOTE}|{_DOUBLE_QUOTE}{_HEBREW_LETTER})"
    f"|{_NUMERIC}(?:(?:(?:{_EXTEND_NUM_LET})*|{_MID_NUMERIC}){_NUMERIC})*"
    f"|{_AHLETTER}(?:(?:{_EXTEND_NUM_LET})*{_HEBREW_LETTER}(?:{_SINGLE_QUOTE}|{_DOUBLE_QUOTE}{_HEBREW_LETTER})"
    f"|(?:(?:{_EXTEND_NUM_LET})*|{_MID_LETTER}){_AHLETTER})*)+)"
)
_WORD = f"(?:{_EXTEND_NUM_LET})*{_WORD_CORE}(?:(?:{_EXTEND_NUM_LET})+{_WORD_CORE})*(?:{_EXTEND_NUM_LET})*"

# for the url_or_email analyzer's tokens after a host name (engine/fulltext/url_email.py)
WORD_CORE, EXTEND_NUM_LET, EMOJI = _WORD_CORE, _EXTEND_NUM_LET, _EMOJI

TOKEN_PATTERN = "|".join([
    _EMOJI,
    _WORD,
    f"(?:[{_SOUTH_EAST_ASIAN}]{_EXTEND})+",
    HAN + _EXTEND,
    HIRAGANA + _EXTEND,
])


# ASCII text has no marks, format characters, emoji or non-Latin letters, so the word rule above reduces to
# ASCII classes: letters, digits, `_` (ExtendNumLet), `:.'` between letters (MidLetter, MidNumLet,
# Single_Quote) and `,;.'` between digits (MidNum, MidNumLet, Single_Quote). That small pattern cuts ASCII
# text exactly as TOKEN_PATTERN does and skips its compilation (tens of milliseconds, once per SQL
# statement), which otherwise dominates small writes and queries.
_ASCII_CORE = "(?:[0-9](?:(?:_*|[,;.'])[0-9])*|[A-Za-z](?:(?:_*|[:.'])[A-Za-z])*)+"
ASCII_TEXT = "^[\\x00-\\x7F]*$"
ASCII_TOKEN_PATTERN = f"_*(?:{_ASCII_CORE})(?:_+(?:{_ASCII_CORE}))*_*"


# Java's Character.isWhitespace (WhitespaceTokenizer) and Unicode's White_Space (UnicodeWhitespaceTokenizer),
# as the classes of what is not whitespace.
_NOT_JAVA_WHITESPACE = (r"[^\t-\r\x{1C}-\x{1F} \x{1680}\x{2000}-\x{2006}\x{2008}-\x{200A}\x{2028}\x{2029}"
                        r"\x{205F}\x{3000}]")
_NOT_UNICODE_WHITESPACE = r"[^\t-\r \x{85}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}]"

# Lucene's EnglishAnalyzer.ENGLISH_STOP_WORDS_SET (the `standard`, `english` and `stop` analyzers' stop
# words), in the order its CharArraySet iterates them, which listAvailableAnalyzers shows.
ENGLISH_STOP_WORDS = ("but", "be", "with", "such", "then", "for", "no", "will", "not", "are", "and", "their", "if",
                      "this", "on", "into", "a", "or", "there", "in", "that", "they", "was", "is", "it", "an", "the",
                      "as", "at", "these", "by", "to", "of")


def _cut(tokens: str, lower: bool) -> str:
    """Each token of the list `tokens` cut into 255-character tokens (the tokenizers' longest), lower-cased
    when `lower`."""
    case = "lower" if lower else ""
    return (f"flatten(list_transform({tokens}, lambda y: CASE WHEN length(y) <= {MAX_TOKEN_LENGTH} THEN [{case}(y)]"
            f" ELSE list_transform(range(0, length(y), {MAX_TOKEN_LENGTH}),"
            f" lambda i: {case}(substr(y, i + 1, {MAX_TOKEN_LENGTH}))) END))")


def stop_filter(words: tuple[str, ...]) -> str:
    """StopFilter over the VARCHAR[] `toks`: a stop word leaves a NULL, so later terms keep their positions."""
    listed = "[" + ", ".join(sql_string(word) for word in words) + "]"
    return f"list_transform(toks, lambda t: CASE WHEN list_contains({listed}, t) THEN NULL ELSE t END)"


def value_tokens_macro(name: str) -> tuple[str, str]:
    """The macro giving tokenizer `name`'s terms of each string of a property value, in order."""
    return f"ft_value_tokens_{name}(texts)", f"flatten(list_transform(texts, lambda x: ft_tokens_{name}(x)))"


_STOP = "[" + ", ".join(sql_string(word) for word in ENGLISH_STOP_WORDS) + "]"

TOKENIZERS: dict[str, str] = {
    # LetterTokenizer, then LowerCaseFilter: runs of letters (Character.isLetter)
    "letter": _cut(r"regexp_extract_all(text, '\p{L}+')", lower=True),
    "whitespace": _cut(f"regexp_extract_all(text, {sql_string(_NOT_JAVA_WHITESPACE + '+')})", lower=False),
    "unicode_whitespace": _cut(f"regexp_extract_all(text, {sql_string(_NOT_UNICODE_WHITESPACE + '+')})",
                               lower=False),
    "keyword": "[text]",
}
"""Tokenizers other than the standard one, as SQL over `text`: a VARCHAR[] of the terms in position order."""

FILTERS: dict[str, str] = {
    "stop": stop_filter(ENGLISH_STOP_WORDS),
    # EnglishPossessiveFilter, StopFilter, PorterStemFilter (the terms are already lower case)
    "english": (f"list_transform(toks, lambda t: CASE WHEN list_contains({_STOP}, ft_possessive(t)) THEN NULL"
                f" ELSE ft_porter(ft_possessive(t)) END)"),
}
"""Token filters after the tokenizer, as SQL over the VARCHAR[] `toks`."""

MACROS: list[tuple[str, str]] = [
    # EnglishPossessiveFilter: a trailing 's (or ’s, ＇s) removed
    ("ft_possessive(t)",
     "CASE WHEN length(t) >= 2 AND t[length(t) - 1] IN ('''', '\u2019', '\uff07') AND right(t, 1) IN ('s', 'S')"
     " THEN left(t, length(t) - 2) ELSE t END"),
    # The analyzed terms of a text, in position order: the tokens, cut at 255 characters, lower-cased.
    ("ft_tokens(text)",
     f"flatten(list_transform(regexp_extract_all(text, {sql_string(TOKEN_PATTERN)}), lambda x:"
     f" CASE WHEN length(x) <= {MAX_TOKEN_LENGTH} THEN [lower(x)]"
     f" ELSE list_transform(range(0, length(x), {MAX_TOKEN_LENGTH}),"
     f" lambda i: lower(substr(x, i + 1, {MAX_TOKEN_LENGTH}))) END))"),
    # The terms of a property value that a full-text index reads: a string, or each string of a list.
    ("ft_value_tokens(texts)", "flatten(list_transform(texts, lambda x: ft_tokens(x)))"),
    # The same terms for texts that are all ASCII (see ASCII_TOKEN_PATTERN); NULL when one is not.
    ("ft_ascii_tokens(texts)",
     f"CASE WHEN list_bool_and(list_transform(texts, lambda x: regexp_matches(x, {sql_string(ASCII_TEXT)})))"
     f" THEN flatten(list_transform(texts, lambda x: flatten(list_transform("
     f"regexp_extract_all(x, {sql_string(ASCII_TOKEN_PATTERN)}), lambda y:"
     f" CASE WHEN length(y) <= {MAX_TOKEN_LENGTH} THEN [lower(y)]"
     f" ELSE list_transform(range(0, length(y), {MAX_TOKEN_LENGTH}),"
     f" lambda i: lower(substr(y, i + 1, {MAX_TOKEN_LENGTH}))) END)))) END"),
]

MACROS += [(f"ft_tokens_{name}(text)", sql) for name, sql in TOKENIZERS.items()]
MACROS += [value_tokens_macro(name) for name in TOKENIZERS]
MACROS += [(f"ft_filter_{name}(toks)", sql) for name, sql in FILTERS.items()]
