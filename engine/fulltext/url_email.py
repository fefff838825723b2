"""Neo4j's `url_or_email` analyzer (also named `url` and `email`), Lucene's `UAX29URLEmailAnalyzer`, as SQL:
UAX29URLEmailTokenizer, LowerCaseFilter, then the English stop words.

The tokenizer is StandardTokenizer's grammar (analyzer.TOKEN_PATTERN) plus rules for URLs, e-mail addresses
and bare host names, which JFlex matches longest-first, a host name only when the character after it is
not `-` or a word character (trailing context). RE2 is leftmost-first without lookahead, so the alternatives
are ordered by what always wins at a position, which the grammar lets one show:

1. `mailto:` before an e-mail address: the word `mailto`, then the address (or a URL that holds it).
2. URLs with a scheme; an address at a bracketed host; a URL without a scheme that reaches the first `@`
   (it is then at least as long as the address there); the address; any other URL without a scheme. None of them is ever
   shorter than the word the standard rules would cut at the same place.
3. A host name (its TLD in Lucene's list) that the standard word rule cannot cover (it holds `-`, a `.`
   between a letter and a digit, ends with the root `.`, or is a bracketed IPv6 address), followed by a
   character that is not `-` or a word character, or by the end of the text. That character is consumed
   with it; when it starts a token of its own (an emoji, a quoted e-mail address, ...), that token is
   matched too, and split off afterwards, so no token is lost.
4. The standard rules. A host name they cover comes out as the same text, except where the standard word
   also swallowed one format character after it (soft hyphen, ZWJ, U+202F): the host name wins that tie
   and the character is dropped (`_strip`).

The host name of rule 3 is the pattern's group 1, so a match is split as `[group 1, rest]`. Lucene's other
state (AVOID_BAD_URL lasting over skipped characters) only shows after `[::]`-like bracketed hosts; see
docs/fulltext.md.
"""

from __future__ import annotations

from engine.fulltext import analyzer
from engine.fulltext.tlds import TLD_PATTERN, TLDS, trie
from engine.quoting import sql_string

_LABEL = "[A-Za-z0-9](?:[-A-Za-z0-9]*[A-Za-z0-9])?"
_TLD_NO_DOT = rf"\.{TLD_PATTERN}"
_TLD = _TLD_NO_DOT + r"\.?"
_DOMAIN = rf"{_LABEL}(?:\.{_LABEL})*{_TLD}"
_LOOSE_DOMAIN = rf"{_LABEL}(?:\.{_LABEL})*"

_OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|0?[1-9][0-9]|0{0,2}[0-9])"
_IPV4 = rf"{_OCTET}(?:\.{_OCTET}){{3}}"
_H16 = "[0-9A-Fa-f]{1,4}"
_LS32 = f"(?:{_IPV4}|{_H16}:{_H16})"
_IPV6 = "(?:" + "|".join([
    f"(?:{_H16}:){{6}}{_LS32}",
    f"::(?:{_H16}:){{5}}{_LS32}",
    f"(?:{_H16})?::(?:{_H16}:){{4}}{_LS32}",
    f"(?:(?:{_H16}:){{0,1}}{_H16})?::(?:{_H16}:){{3}}{_LS32}",
    f"(?:(?:{_H16}:){{0,2}}{_H16})?::(?:{_H16}:){{2}}{_LS32}",
    f"(?:(?:{_H16}:){{0,3}}{_H16})?::{_H16}:{_LS32}",
    f"(?:(?:{_H16}:){{0,4}}{_H16})?::{_LS32}",
    f"(?:(?:{_H16}:){{0,5}}{_H16})?::{_H16}",
    f"(?:(?:{_H16}:){{0,6}}{_H16})?::",
]) + ")"
_BRACKETED = rf"\[{_IPV6}\]"
_HOST = f"(?:{_BRACKETED}|{_DOMAIN}|{_IPV4})"
_LOOSE_HOST = f"(?:{_BRACKETED}|{_LOOSE_DOMAIN})"

_PCT = "%[0-9A-Fa-f]{2}"
_LOGIN_SEGMENT = rf"(?:[-._~A-Za-z0-9!$&'()*+,;=]|{_PCT})*"
_LOGIN = f"{_LOGIN_SEGMENT}(?::{_LOGIN_SEGMENT})?@"
_PORT = ":[0-9]{1,5}"
_SEGMENT_CHAR = f"(?:[-._~A-Za-z0-9;:@&=/]|{_PCT})"  # a path: `/` then segments joined by `/`
_QUERY_CHAR = f"(?:[-._~A-Za-z0-9!$&'()*+,;=:@/?]|{_PCT})"
_PATH, _QUERY, _FRAGMENT = f"/{_SEGMENT_CHAR}*", rf"\?{_QUERY_CHAR}*", f"#{_QUERY_CHAR}*"
_PATH_AT, _QUERY_AT, _FRAGMENT_AT = (f"/{_SEGMENT_CHAR}*?@{_SEGMENT_CHAR}*", rf"\?{_QUERY_CHAR}*?@{_QUERY_CHAR}*",
                                     f"#{_QUERY_CHAR}*?@{_QUERY_CHAR}*")

_HTTP = (f"[hH][tT][tT][pP][sS]?://(?:{_LOGIN})?{_LOOSE_HOST}(?:{_PORT})?(?:{_PATH})?(?:{_QUERY})?"
         f"(?:{_FRAGMENT})?")
_FTP_SEGMENT = f"(?:[-._~A-Za-z0-9?:@&=]|{_PCT})*"
_FTP_PATH = f"/{_FTP_SEGMENT}(?:/{_FTP_SEGMENT})*"
_FTP = (f"[fF][tT][pP]://(?:{_LOGIN})?{_LOOSE_HOST}(?:{_PORT})?{_FTP_PATH}(?:;[tT][yY][pP][eE]=[aAiIdD])?"
        f"(?:{_FRAGMENT})?")
_FILE = f"[fF][iI][lL][eE]://(?:{_LOOSE_HOST})?{_FTP_PATH}(?:{_FRAGMENT})?"
_SCHEME_URL = f"(?:{_HTTP}|{_FTP}|{_FILE})"
# Without a scheme: a strict host and at least one of port, path, query, fragment.
_URL_REST = (f"(?:{_PORT}(?:{_PATH})?(?:{_QUERY})?(?:{_FRAGMENT})?|{_PATH}(?:{_QUERY})?(?:{_FRAGMENT})?"
             f"|{_QUERY}(?:{_FRAGMENT})?|{_FRAGMENT})")
_BARE_URL = f"{_HOST}{_URL_REST}"
_BARE_URL_AT = (f"{_HOST}(?:{_PORT})?(?:{_PATH_AT}(?:{_QUERY})?(?:{_FRAGMENT})?|(?:{_PATH})?{_QUERY_AT}"
                f"(?:{_FRAGMENT})?|(?:{_PATH})?(?:{_QUERY})?{_FRAGMENT_AT})")

_QUOTED = r'"(?:[\x01-\x08\x0B\x0C\x0E-\x21\x23-\x5B\x5D-\x7E]|\\[\x00-\x7F])*"'
# `+-/` is a range in Lucene's grammar (`EMAILatomText`, Lucene 8 and 9 alike): `,` and `.` are atoms too
_ATOMS = r"[A-Za-z0-9!#$%&'*+,\-./=?^_`{|}~]+"
_EMAIL_LABEL = f"(?:{_ATOMS}|{_QUOTED})"
_BRACKET_DOMAIN = r"\[(?:[\x01-\x08\x0B\x0C\x0E-\x5A\x5E-\x7F]|\\[\x00-\x7F])*\]"
_EMAIL_DOMAIN = rf"(?:{_DOMAIN}|{_BRACKET_DOMAIN})"
_LOCAL_PART = rf"{_EMAIL_LABEL}(?:\.{_EMAIL_LABEL})*@"
_EMAIL = _LOCAL_PART + _EMAIL_DOMAIN
# An address at a bracketed host: a URL reaching its `@` stops at the `[`, so the address is longer.
_BRACKET_EMAIL = _LOCAL_PART + _BRACKET_DOMAIN
# an address starting where a host name ended: its first character is not `-` or a word character
_EMAIL_AFTER = (rf"(?:{_QUOTED}|[!#$%&'*+,./=?^`{{|}}~][A-Za-z0-9!#$%&'*+,\-./=?^_`{{|}}~]*)"
                rf"(?:\.{_EMAIL_LABEL})*@{_EMAIL_DOMAIN}")

# A bare URL reaching the first `@` that is also an address (only atoms before the `@`, a domain after it):
# after `mailto:` it is the token, where a URL that is no address leaves `mailto` a word (JFlex's `mailto`
# rule wants an address after the `:`).
_ATOM_PATH, _ATOM_QUERY = f"(?:[-._~A-Za-z0-9&=/]|{_PCT})", f"(?:[-._~A-Za-z0-9!$&'*+,=/?]|{_PCT})"
_BARE_URL_AT_EMAIL = (f"(?:{_DOMAIN}|{_IPV4})(?:/{_ATOM_PATH}*@{_DOMAIN}{_SEGMENT_CHAR}*(?:{_QUERY})?(?:{_FRAGMENT})?"
                      rf"|(?:/{_ATOM_PATH}*)?\?{_ATOM_QUERY}*@{_DOMAIN}{_QUERY_CHAR}*(?:{_FRAGMENT})?"
                      rf"|(?:/{_ATOM_PATH}*)?(?:\?{_ATOM_QUERY}*)?#{_ATOM_QUERY}*@{_DOMAIN}{_QUERY_CHAR}*)")
_MAILTO = f"[mM][aA][iI][lL][tT][oO]:(?:{_BRACKET_EMAIL}|{_BARE_URL_AT_EMAIL}|{_EMAIL})"

# Host names the standard word rule does not cover (without the root `.`): a bracketed IPv6 address, or a
# domain with `-` in a label or its TLD, a `.` between a letter and a digit, or a digit before the TLD.
# The labels before the first such feature are taken greedily and the labels after it too, so the first
# match is the longest such name.
_ENDS_LETTER, _ENDS_DIGIT = "(?:[A-Za-z0-9][-A-Za-z0-9]*)?[A-Za-z]", "(?:[A-Za-z0-9][-A-Za-z0-9]*)?[0-9]"
_STARTS_LETTER, _STARTS_DIGIT = "[A-Za-z](?:[-A-Za-z0-9]*[A-Za-z0-9])?", "[0-9](?:[-A-Za-z0-9]*[A-Za-z0-9])?"
_FEATURE = "|".join(["[A-Za-z0-9][-A-Za-z0-9]*-[-A-Za-z0-9]*[A-Za-z0-9]", rf"{_ENDS_LETTER}\.{_STARTS_DIGIT}",
                     rf"{_ENDS_DIGIT}\.{_STARTS_LETTER}"])
_XN_TLD = "(?i:xn--" + trie([tld[4:] for tld in TLDS if tld.startswith("xn--")]) + ")"
_NOT_A_WORD_HOST = (rf"(?:{_BRACKETED}|(?:{_LABEL}\.)*(?:(?:{_FEATURE})(?:\.{_LABEL})*{_TLD_NO_DOT}"
                    rf"|{_ENDS_DIGIT}{_TLD_NO_DOT}|{_LABEL}\.{_XN_TLD}))")
# A domain ending with the root `.`: the standard word rule stops before that `.`.
_ROOTED_DOMAIN = rf"{_LABEL}(?:\.{_LABEL})*{_TLD_NO_DOT}\."

# JFlex's \w (letters, marks, digits, letter numbers, connector punctuation) and `-`: what may not follow
# a host name. Anything else may, the end of the text too (but not after the root `.`).
_OTHER_CHAR = r"[^-\p{L}\p{M}\p{Nd}\p{Nl}\p{Pc}]"
_EXTEND, _ENL = analyzer.EXTEND, analyzer.EXTEND_NUM_LET
_EMOJI_AFTER = analyzer.EMOJI
# the token that starts at the character after a host name, when one does
# a word starting with U+202F (ExtendNumLet outside JFlex's \w)
_ENL = analyzer.EXTEND_NUM_LET
_WORD_AFTER = (rf"\x{{202F}}{analyzer.EXTEND}(?:{_ENL})*{analyzer.WORD_CORE}(?:(?:{_ENL})+{analyzer.WORD_CORE})*"
               rf"(?:{_ENL})*")
_NEXT = f"(?:{_EMAIL_AFTER}|{_EMOJI_AFTER}|{_WORD_AFTER}|{_BRACKETED}(?:{_URL_REST}|{_OTHER_CHAR}|$))"

PATTERN = "|".join([
    _MAILTO,
    _SCHEME_URL, _BRACKET_EMAIL, _BARE_URL_AT, _EMAIL, _BARE_URL,
    f"(?:{_ROOTED_DOMAIN}|{_NOT_A_WORD_HOST})(?:{_NEXT}|{_OTHER_CHAR}|$)",
    analyzer.TOKEN_PATTERN,
])
"""One match per token, but two for `mailto:` and for a host name of rule 3 followed by a token."""

# Splitting a match: its leading host-name characters, and what follows them. Only rule 3 leaves a host
# name the word rule does not cover followed by a character that is not `-` or a word character, and that
# is not what a URL or an e-mail address continues with (`/?#`, `:` or `@` and more, an atom of an address
# after a domain, a quoted atom after a `.`).
_HEAD = r"^(\[[^\]]*\]|[-.A-Za-z0-9]*)"
_ODD_HOST = r"\[.*|.*(?:-|[A-Za-z]\.[0-9]|[0-9]\.[A-Za-z]|\.$).*"
_ONE_CHAR_TOKEN = analyzer.EMOJI
# what a token after a host name starts with: an address (quoted, or an atom after a bracketed host), an emoji
_NEXT_START = r"^[\"!#$%&'*+,./=?^`{|}~\[\x{202F}\x{1F1E6}-\x{1F1FF}]|^" + analyzer.EMOJI
_FORMAT = r"(?:[^\P{Cf}\x{200B}]|[\x{202F}])"
_TLD_LIST = "[" + ", ".join(sql_string(tld) for tld in TLDS) + "]"


def _after_bracket(rest: str) -> str:
    """SQL: the token of `rest`, a bracketed host after a host name: with the URL it starts, or without the
    character consumed after it."""
    tail = f"regexp_extract({rest}, '^\\[[^]]*\\](.*)$', 1)"
    return (f"CASE WHEN length({tail}) > 1 OR {tail} IN ('/', '?', '#') THEN [{rest}]"
            f" ELSE [left({rest}, length({rest}) - length({tail}))] END")


def _split(m: str, head: str) -> str:
    """SQL: the tokens of the match `m` whose leading host-name characters are `head`."""
    rest, first = f"substr({m}, length({head}) + 1)", f"substr({m}, length({head}) + 1, 1)"
    rooted_tld = f"lower(regexp_extract({head}, '[.]([-A-Za-z0-9]+)[.]$', 1))"
    odd_host = (f"(regexp_full_match({head}, {sql_string(_ODD_HOST)})"
                f" AND (right({head}, 1) <> '.' OR list_contains({_TLD_LIST}, {rooted_tld})))")
    # one character consumed after the host name, or the token that starts there (rule 3)
    after = (f"{first} NOT IN ('/', '?', '#') AND (length({rest}) = 1"
             f" AND regexp_full_match({rest}, {sql_string(_OTHER_CHAR)})"
             f" OR length({rest}) > 1 AND regexp_matches({rest}, {sql_string(_NEXT_START)})"
             f" AND (left({head}, 1) = '[' OR NOT contains('!#$%&''*+,/=?^`{{|}}~', {first}))"
             f" AND NOT (right({head}, 1) = '.' AND {first} = '\"'))")
    rule3 = f"{odd_host} AND {after}"
    # a standard word that is a host name and one format character it swallowed: the host name (rule 4)
    host_and_format = (f"regexp_full_match({m}, {sql_string(f'(?:[A-Za-z0-9]+[.])+[A-Za-z]+{_FORMAT}')})"
                       f" AND list_contains({_TLD_LIST}, lower(regexp_extract({m}, '[.]([A-Za-z]+).$', 1)))"
                       f" OR regexp_full_match({m}, {sql_string(_IPV4 + _FORMAT)})")
    return (f"CASE WHEN lower(left({m}, 7)) = 'mailto:' AND contains({m}, '@') THEN ['mailto', substr({m}, 8)]"
            f" WHEN {rule3} THEN [{head}] || CASE WHEN left({rest}, 1) = '[' AND length({rest}) > 1"
            f" THEN {_after_bracket(rest)}"
            f" WHEN length({rest}) > 1 OR regexp_full_match({rest}, {sql_string(_ONE_CHAR_TOKEN)}) THEN [{rest}]"
            " ELSE [] END"
            f" WHEN {rest} = '' AND right({m}, 1) = '.' THEN [left({m}, -1)]"
            f" WHEN {host_and_format} THEN [left({m}, -1)]"
            f" ELSE [{m}] END")


_CUT = analyzer.MAX_TOKEN_LENGTH
MACROS: list[tuple[str, str]] = [
    ("ft_url_split(x)", _split("x.m", "x.h")),
    ("ft_tokens_url_or_email(text)",
     f"flatten(list_transform(flatten(list_transform(list_transform(regexp_extract_all(text, {sql_string(PATTERN)}),"
     f" lambda m: {{'m': m, 'h': regexp_extract(m, {sql_string(_HEAD)}, 1)}}), lambda x: ft_url_split(x))), lambda y:"
     f" CASE WHEN length(y) <= {_CUT} THEN [lower(y)]"
     f" ELSE list_transform(range(0, length(y), {_CUT}), lambda i: lower(substr(y, i + 1, {_CUT}))) END))"),
    analyzer.value_tokens_macro("url_or_email"),
]
