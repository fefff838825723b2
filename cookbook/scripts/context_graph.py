"""Build the data of `cookbook/02-context-graph.md`: a frozen snapshot of this repository as a context graph.

    python cookbook/scripts/context_graph.py              # snapshot of HEAD, written into the page
    python cookbook/scripts/context_graph.py --rev 43e8062 --page other.md

The files are read from a commit (`git show REV:PATH`), never from the working tree, so the snapshot is
exactly that commit's tree whatever else is being edited. The page's ```json data=NAME``` fences get new
contents; every other byte of the page stays as it was. Decisions behind the rules below: ADR-0021.

- crates: every directory under `engine/` and `runner/` that holds Python modules, named with dots
  (`engine.sqlgen`). Its description is the first paragraph of its `__init__` docstring (else of its
  first module that has one); DEPENDS_ON comes from its modules' import statements, read with `ast`:
  kind `type` when every import of the other crate sits under `if TYPE_CHECKING:`, `normal` otherwise.
- docs: every ADR in `docs/adr/`, and `README.md` and `docs/*.md`; SUPERSEDES from the ADRs' status lines.
- chunks: each doc cut at its `##` headings (the text before the first is "Preamble"); a section longer
  than CHUNK_LIMIT characters is cut again between paragraphs, list items or sentences.
- terms: `normalize()`, which normalizes the page's questions too, so both sides of the search agree.
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import re
import subprocess
import sys
import tokenize
from collections.abc import Iterable
from pathlib import Path, PurePosixPath
from typing import NamedTuple

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "cookbook" / "02-context-graph.md"
CRATE_ROOTS = ("engine", "runner")

# English function words: they carry no topic, so they are neither indexed nor searched.
STOPWORDS = frozenset(re.findall(r"\S+", """
a about above after again against all also am an and any are as at be because been before being below
between both but by can could did do does doing done down during each either else for from further had has
have having he her here hers herself him himself his how i if in into is it its itself just let may me
might more most much must my myself neither no nor not now of off on once only or other our ours ourselves
out over own same shall she should since so some such than that the their theirs them themselves then there
these they this those though through thus to too under until up upon us very was we were what when where
whether which while who whom whose why will with within without would yet you your yours yourself
"""))
# Crude stemming: the first of these suffixes the word ends with is cut off, if MIN_STEM characters remain.
SUFFIXES = ("ing", "ed", "es", "s", "e", "er", "ly")
MIN_STEM = 3
WORD = re.compile(r"[^\W_]+")

CHUNK_LIMIT = 600          # characters of section text above which a section is cut between paragraphs
EXCERPT = 160              # characters of a chunk's text kept in the data
ADR_REFERENCE = re.compile(r"\bADR-(\d{4})\b")
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
LIST_ITEM = re.compile(r"^(?:[-*+]|\d+[.)]) ")
SENTENCE_END = re.compile(r"(?<=[.;?!])\s+(?=[A-Z0-9`*(\"])")

# The page's questions. Their structural words name a relationship to follow, not text to find: they stay
# out of the search, and the page's hops use them instead.
QUESTIONS = [
    ("variant", "What replaced the one-VARIANT-column storage decision, and was it replaced again later?"),
    ("sqlgen", "What depends on engine.sqlgen?"),
    ("parser", "What builds on the parser?"),
    ("merge", "Did ON MATCH SET change the set-based MERGE decision?"),
]
STRUCTURAL = frozenset({"replac", "lat", "decision", "depend", "build", "chang", "supersed", "cit"})
K = 6                      # seeds kept per question
RATIO = 0.85               # a seed within this share of the best score becomes an anchor
FIRST_QUESTION = "variant"  # the question the page's first searches use (the `question` block)


# --- text -------------------------------------------------------------------------------------------------

def stem(word: str) -> str:
    for suffix in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= MIN_STEM:
            return word[: -len(suffix)]
    return word


def normalize(text: str) -> list[str]:
    """The distinct terms of `text`, in order of first appearance: lowercase words (runs of letters and
    digits) that are not stopwords, not a single character and not a bare number, crudely stemmed."""
    terms: dict[str, None] = {}
    for word in WORD.findall(text.lower()):
        if len(word) < 2 or word.isdigit() or word in STOPWORDS:
            continue
        terms.setdefault(stem(word), None)
    return list(terms)


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """The first `limit` characters of `text` with its whitespace collapsed, and " …" when it was cut."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit].rstrip() + " …"


# --- documents and chunks ---------------------------------------------------------------------------------

class Section(NamedTuple):
    heading: str
    body: str
    named: bool = True  # False for the "Preamble": a name the document does not write


def _fence_after(line: str, fence: str | None) -> str | None:
    """The marker of the fenced code block open after `line`, given the one open before it (None: none)."""
    opening = FENCE.match(line)
    if not opening or (opening[1][0] == "`" and "`" in line[opening.end():]):
        return fence  # no fence; a backtick fence's info string holds no backtick (CommonMark)
    if fence is None:
        return opening[1]
    marker = opening[1]
    if marker[0] == fence[0] and len(marker) >= len(fence) and not line.strip()[len(marker):].strip():
        return None
    return fence


def sections(markdown: str) -> list[Section]:
    """`markdown` cut at its level-2 headings (not inside fenced code); the text before the first one is
    the "Preamble", dropped when blank."""
    found: list[Section] = []
    heading, lines, fence = "Preamble", [], None
    for line in markdown.splitlines():
        inside = fence is not None
        fence = _fence_after(line, fence)
        if not inside and line.startswith("## "):
            found.append(Section(heading, "\n".join(lines).strip("\n"), named=bool(found)))
            heading, lines = line[3:].strip(), []
            continue
        lines.append(line)
    found.append(Section(heading, "\n".join(lines).strip("\n"), named=bool(found)))
    return [s for s in found if s.named or s.body.strip()]


def blocks(body: str) -> list[tuple[str, str]]:
    """`body` cut at blank lines and before top-level list items, never inside fenced code: (the break
    before it, "\n\n" or "\n", text) for each block."""
    found, lines, fence, brk, blank = [], [], None, "", False
    for line in body.splitlines():
        inside = fence is not None
        fence = _fence_after(line, fence)
        if not inside and not line.strip():
            blank = True
            continue
        if lines and not inside and (blank or LIST_ITEM.match(line)):
            found.append((brk, "\n".join(lines)))
            lines, brk = [], "\n\n" if blank else "\n"
        blank = False
        lines.append(line)
    if lines:
        found.append((brk, "\n".join(lines)))
    return found


def sentences(block: str) -> list[str]:
    """`block` cut after each sentence end (., ; ? or ! before whitespace and a capital, digit or mark-up)."""
    return [part for part in SENTENCE_END.split(block) if part.strip()]


def pieces(body: str, limit: int | None = None) -> list[str]:
    """A section's text as chunk texts: whole when it has at most `limit` characters; else cut into blocks
    (paragraphs and list items; a block still too long, into sentences) packed in order into pieces of at
    most `limit` characters. A single sentence longer than that is a piece of its own."""
    limit = CHUNK_LIMIT if limit is None else limit
    if len(body) <= limit:
        return [body]
    units: list[tuple[str, str]] = []  # (separator before it, text)
    for brk, block in blocks(body):
        parts = [block] if len(block) <= limit else sentences(block)
        units += [(brk if i == 0 else " ", part) for i, part in enumerate(parts)]
    packed: list[str] = []
    for separator, unit in units:
        if packed and len(packed[-1]) + len(separator) + len(unit) <= limit:
            packed[-1] += separator + unit
        else:
            packed.append(unit)
    return packed or [body]


def crate_mentions(text: str, crates: Iterable[str]) -> list[str]:
    """The crates `text` names as code: a dotted or slashed path starting at a crate root (`engine.sqlgen`,
    `engine/sqlgen/generator.py`, `runner.page.read_page`: the longest crate it starts with), a root alone
    with a slash or in backticks (`engine/`, `runner`), or a sub-package's last name with a slash when only
    one crate has that name (`sqlgen/`). Prose words ("the engine") are not mentions."""
    crates = sorted(crates)
    by_last: dict[str, list[str]] = {}
    for crate in crates:
        if "." in crate:
            by_last.setdefault(crate.rsplit(".", 1)[1], []).append(crate)
    roots = "|".join(CRATE_ROOTS)
    found: set[str] = set()
    for match in re.finditer(rf"(?<![\w./-])((?:{roots})(?:[./][A-Za-z_]\w*)+)", text):
        crate = crate_of(match[1].replace("/", "."), crates)
        if crate:
            found.add(crate)
    for match in re.finditer(rf"(?<![\w./-])({roots})/(?![\w.])|`({roots})`", text):
        found.add(match[1] or match[2])
    for match in re.finditer(r"(?<![\w./-])([a-z_]\w*)/", text):
        owners = by_last.get(match[1], [])
        if len(owners) == 1:
            found.add(owners[0])
    return sorted(found)


def adr_references(text: str) -> list[str]:
    return sorted(set(ADR_REFERENCE.findall(text)))


def chunks_of(path: str, markdown: str, crates: Iterable[str] = ()) -> list[dict]:
    """One row per chunk of the document at `path`. A section's heading is part of each of its chunks'
    text for terms and mentions, except the "Preamble", which the document does not say."""
    crates = list(crates)
    rows = []
    for section in sections(markdown):
        for text in pieces(section.body):
            whole = section.heading + "\n" + text if section.named else text
            rows.append({"id": f"{path}#{len(rows)}", "doc": path, "ord": len(rows), "heading": section.heading,
                         "text": excerpt(text), "terms": " ".join(normalize(whole)),
                         "crates": crate_mentions(whole, crates), "cites": adr_references(whole)})
    return rows


def supersessions(number: str, status: str) -> list[tuple[str, str, bool]]:
    """(newer, older, partial) for each supersession an ADR's status line states: "Supersedes ADR-0003 in
    part" on the newer ADR, "Superseded in part by ADR-0009" on the older one."""
    found = []
    for match in re.finditer(r"\bSupersedes ADR-(\d{4})( in part)?", status):
        found.append((number, match[1], bool(match[2])))
    for match in re.finditer(r"\bSuperseded( in part)? by ADR-(\d{4})", status):
        found.append((match[2], number, bool(match[1])))
    return found


def doc_row(path: str, markdown: str) -> dict:
    lines = markdown.splitlines()
    title = next((line[2:].strip() for line in lines if line.startswith("# ")), PurePosixPath(path).stem)
    adr = path.startswith("docs/adr/")
    status = next((line.split(":", 1)[1].strip() for line in lines if line.startswith("Status:")), None)
    number = None
    if adr:
        named = re.match(r"ADR-(\d{4})", title) or re.match(r"(\d{4})", PurePosixPath(path).name)
        number = named[1] if named else None
    date = DATE.search(status) if status else None
    return {"path": path, "title": title, "adr": adr, "number": number, "status": status if adr else None,
            "date": date[0] if adr and date else None, "terms": " ".join(normalize(title))}


# --- crates -----------------------------------------------------------------------------------------------

def crate_of(module: str, crates: Iterable[str]) -> str | None:
    """The longest crate `module` is, or lies in."""
    best = None
    for crate in crates:
        if (module == crate or module.startswith(crate + ".")) and (best is None or len(crate) > len(best)):
            best = crate
    return best


def crate_names(paths: Iterable[str]) -> list[str]:
    """Every directory under a crate root that holds a Python module, dotted."""
    names = set()
    for path in paths:
        pure = PurePosixPath(path)
        if pure.suffix == ".py" and pure.parts[0] in CRATE_ROOTS and "__pycache__" not in pure.parts:
            names.add(".".join(pure.parent.parts))
    return sorted(names)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(source: str, module: str, is_package: bool) -> list[tuple[str, bool]]:
    """(imported module, only for type checking) for every import in `source`, the text of `module`;
    `from X import name` counts as importing `X.name`, relative imports are made absolute."""
    found: list[tuple[str, bool]] = []
    package = module if is_package else module.rpartition(".")[0]

    def visit(node: ast.AST, typing_only: bool) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                visit(child, True)
            for child in node.orelse:
                visit(child, typing_only)
            return
        if isinstance(node, ast.Import):
            found.extend((alias.name, typing_only) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            found.extend((f"{base}.{alias.name}", typing_only) for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child, typing_only)

    visit(ast.parse(source), False)
    return found


def docstring_and_comments(source: str) -> str:
    """The docstrings (module, classes, functions) and comments of a module, one per line."""
    texts = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node)
            if doc:
                texts.append(doc)
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            texts.append(token.string)
    return "\n".join(texts)


def first_paragraph(doc: str | None) -> str | None:
    if not doc:
        return None
    return " ".join(doc.strip().split("\n\n", 1)[0].split())


def crate_rows(files: dict[str, str]) -> tuple[list[dict], list[dict], list[dict]]:
    """crates, deps and crate_cites from the Python files (path → text) under the crate roots."""
    python = {path: text for path, text in files.items() if path.endswith(".py")}
    names = crate_names(python)
    modules: dict[str, list[str]] = {name: [] for name in names}
    for path in sorted(python):
        crate = ".".join(PurePosixPath(path).parent.parts)
        if crate in modules:
            modules[crate].append(path)
    crates, kinds, cites = [], {}, set()
    for name in names:
        paths = modules[name]
        init = f"{name.replace('.', '/')}/__init__.py"
        described = [init] if init in paths else []
        described += [p for p in paths if p != init]
        description = next(
            (d for d in (first_paragraph(ast.get_docstring(ast.parse(python[p]))) for p in described) if d), "")
        crates.append({"name": name, "description": description,
                       "terms": " ".join(normalize(name + " " + description))})
        for path in paths:
            source = python[path]
            pure = PurePosixPath(path)
            is_package = pure.name == "__init__.py"
            module = name if is_package else f"{name}.{pure.stem}"
            for imported, typing_only in imports_of(source, module, is_package):
                target = crate_of(imported, names)
                if target and target != name:
                    kind = "type" if typing_only else "normal"
                    if kinds.get((name, target)) != "normal":
                        kinds[(name, target)] = kind
            for number in adr_references(docstring_and_comments(source)):
                cites.add((name, number))
    deps = [{"src": src, "dst": dst, "kind": kind} for (src, dst), kind in sorted(kinds.items())]
    crate_cites = [{"src": src, "adr": adr} for src, adr in sorted(cites)]
    return crates, deps, crate_cites


# --- the snapshot -----------------------------------------------------------------------------------------

def is_doc(path: str) -> bool:
    pure = PurePosixPath(path)
    return pure.suffix == ".md" and (path == "README.md" or pure.parent.as_posix() in ("docs", "docs/adr"))


def snapshot(files: dict[str, str]) -> dict[str, dict]:
    """The page's data blocks (name → JSON object) from a repository tree given as path → text."""
    crates, deps, crate_cites = crate_rows(
        {p: t for p, t in files.items() if PurePosixPath(p).parts[0] in CRATE_ROOTS})
    names = [c["name"] for c in crates]
    docs, chunks, pairs = [], [], {}
    for path in sorted(p for p in files if is_doc(p)):
        doc = doc_row(path, files[path])
        docs.append(doc)
        chunks.extend(chunks_of(path, files[path], names))
        if doc["adr"] and doc["number"] and doc["status"]:
            for newer, older, partial in supersessions(doc["number"], doc["status"]):
                pairs[(newer, older)] = pairs.get((newer, older), False) or partial
    supersedes = [{"new": new, "old": old, "partial": partial} for (new, old), partial in sorted(pairs.items())]
    questions = []
    for qid, text in QUESTIONS:
        normalized = normalize(text)
        questions.append({"id": qid, "text": text, "normalized": normalized,
                          "terms": [t for t in normalized if t not in STRUCTURAL]})
    first = next(q for q in questions if q["id"] == FIRST_QUESTION)
    return {
        "docs": {"docs": docs, "supersedes": supersedes},
        "crates": {"crates": crates, "deps": deps, "crate_cites": crate_cites},
        "chunks": {"chunks": chunks},
        "question": {"question": first["text"], "terms": first["terms"], "query": " ".join(first["terms"]), "k": K},
        "questions": {"questions": questions, "k": K, "ratio": RATIO},
    }


def dump(block: dict) -> str:
    """A data block as JSON: one line per key, and one line per item of a list of objects."""
    def one(value: object) -> str:
        return json.dumps(value, ensure_ascii=False)

    lines = []
    for index, (key, value) in enumerate(block.items()):
        comma = "," if index < len(block) - 1 else ""
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            items = [f"    {one(v)}," for v in value]
            items[-1] = items[-1][:-1]
            lines += [f"  {one(key)}: [", *items, f"  ]{comma}"]
        else:
            lines.append(f"  {one(key)}: {one(value)}{comma}")
    return "{\n" + "\n".join(lines) + "\n}\n"


def replace_data_blocks(page: str, blocks: dict[str, str]) -> str:
    """`page` with the content of each ```json data=NAME``` fence named in `blocks` replaced; every other
    byte, line endings included, stays. A name the page has no fence for is an error."""
    lines = page.splitlines(keepends=True)
    out, index, seen = [], 0, set()
    while index < len(lines):
        line = lines[index]
        out.append(line)
        opening = re.match(r"^( {0,3})(`{3,}|~{3,})json\s+data=([^\s`]+)\s*$", line.rstrip("\r\n"))
        index += 1
        if not opening or opening[3] not in blocks:
            continue
        marker, name = opening[2], opening[3]
        ending = line[len(line.rstrip("\r\n")):] or "\n"
        close = index
        while close < len(lines) and not (lines[close].strip().startswith(marker)
                                          and not lines[close].strip().strip(marker[0])):
            close += 1
        if close == len(lines):
            raise SystemExit(f"data block {name!r} is never closed")
        out += [text + ending for text in blocks[name].splitlines()]
        index = close
        seen.add(name)
    missing = sorted(set(blocks) - seen)
    if missing:
        raise SystemExit(f"the page has no ```json data=NAME``` block for: {', '.join(missing)}")
    return "".join(out)


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(REPO), *args], check=True, capture_output=True, text=True).stdout


def read_tree(rev: str) -> dict[str, str]:
    """The crate sources and docs of commit `rev`, path → text."""
    paths = git("ls-tree", "-r", "--name-only", rev).splitlines()
    wanted = [p for p in paths if is_doc(p) or (PurePosixPath(p).parts[0] in CRATE_ROOTS and p.endswith(".py"))]
    return {path: git("show", f"{rev}:{path}") for path in wanted}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rev", default="HEAD", help="the commit to snapshot (default HEAD)")
    parser.add_argument("--page", type=Path, default=PAGE, help="the page whose data blocks to rewrite")
    args = parser.parse_args(argv)
    short = git("rev-parse", "--short=7", args.rev).strip()
    data = snapshot(read_tree(args.rev))
    texts = {name: dump(block) for name, block in data.items()}
    page = args.page.read_bytes().decode("utf-8")
    args.page.write_bytes(replace_data_blocks(page, texts).encode("utf-8"))
    docs = data["docs"]["docs"]
    print(f"snapshot of {short}: {len(data['crates']['crates'])} crates, {len(data['crates']['deps'])} deps, "
          f"{sum(d['adr'] for d in docs)} ADRs + {sum(not d['adr'] for d in docs)} other docs, "
          f"{len(data['chunks']['chunks'])} chunks, {len(data['docs']['supersedes'])} supersessions")
    for name, text in texts.items():
        print(f"  data block {name}: {len(text.encode()) / 1024:.0f} KB")
    if f"commit {short}" not in page:
        print(f"note: the page does not name commit {short} yet", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
