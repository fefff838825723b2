"""The builder of the context-graph page's snapshot (cookbook/scripts/context_graph.py) on tiny inputs:
the normaliser, the chunker, supersessions, mentions, imports, and the in-place rewrite of data blocks."""

from __future__ import annotations

import importlib.util
import json
import sys

import pytest

from tests.runner.helpers import ROOT

SCRIPT = ROOT / "cookbook" / "scripts" / "context_graph.py"


@pytest.fixture(scope="module")
def cg():
    spec = importlib.util.spec_from_file_location("context_graph", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("context_graph", module)
    spec.loader.exec_module(module)
    return module


def test_normalize_lowercases_drops_stopwords_and_stems(cg):
    assert cg.normalize("What did the WAL-first checkpoint decision supersede, and was it itself superseded "
                        "later?") == ["wal", "first", "checkpoint", "decision", "supersed", "lat"]
    assert cg.normalize("Checkpoints of the storage") == ["checkpoint", "storag"]
    assert cg.normalize("parser parses parsed parsing") == ["pars"]
    # a stem keeps three characters: "uses" loses only its "s", "use" nothing
    assert cg.normalize("uses use") == ["use"]
    # bare numbers and single characters are not terms; digits inside a word are
    assert cg.normalize("ADR-0009 a x neo4j 2 quickly") == ["adr", "neo4j", "quick"]


def test_sections_split_at_level_two_headings_outside_code(cg):
    text = ("# Title\n\nIntro line.\n\n## Context\nOne.\n\n```\n## not a heading\n```\n\n"
            "### Sub\nstill Context\n\n## Decision\nTwo.\n")
    sections = cg.sections(text)
    assert [s.heading for s in sections] == ["Preamble", "Context", "Decision"]
    assert sections[0].body == "# Title\n\nIntro line." and not sections[0].named and sections[1].named
    assert "## not a heading" in sections[1].body and "### Sub" in sections[1].body
    assert cg.sections("## Only\nbody\n")[0].heading == "Only"  # a blank preamble is no chunk


def test_a_long_section_is_cut_between_paragraphs_items_and_sentences(cg):
    assert cg.pieces("short", limit=50) == ["short"]
    body = "A" * 30 + "\n\n" + "B" * 30 + "\n- item one\n- item two"
    assert cg.pieces(body, limit=40) == ["A" * 30, "B" * 30, "- item one\n- item two"]
    paragraph = "First sentence here. Second sentence here. Third one."
    assert cg.pieces(paragraph, limit=30) == ["First sentence here.", "Second sentence here.", "Third one."]
    fenced = "```\nx\n\ny\n```\n\n" + "z" * 20
    assert cg.pieces(fenced, limit=15)[0] == "```\nx\n\ny\n```"


def test_chunks_carry_id_excerpt_terms_mentions_and_cites(cg):
    doc = ("# ADR-0009: Typed columns\n\nStatus: Accepted (2026-11-29). Supersedes ADR-0003 in part.\n\n"
           "## Decision\nSee `engine/storage/schema.py` and engine.sqlgen; the engine itself is prose. "
           + "word " * 40 + "\n")
    chunks = cg.chunks_of("docs/adr/0009-x.md", doc, ["engine", "engine.sqlgen", "engine.storage"])
    assert [(c["id"], c["ord"], c["heading"]) for c in chunks] == [
        ("docs/adr/0009-x.md#0", 0, "Preamble"), ("docs/adr/0009-x.md#1", 1, "Decision")]
    assert chunks[0]["cites"] == ["0003", "0009"]
    assert chunks[0]["terms"].split()[:3] == ["adr", "typ", "column"]  # "Preamble" is not the document's word
    assert chunks[1]["crates"] == ["engine.sqlgen", "engine.storage"]
    assert chunks[1]["text"].startswith("See `engine/storage/schema.py` and engine.sqlgen;")
    assert chunks[1]["text"].endswith(" …") and len(chunks[1]["text"]) <= 162
    assert chunks[1]["terms"].split()[:4] == ["decision", "see", "engin", "storag"]
    assert len(set(chunks[1]["terms"].split())) == len(chunks[1]["terms"].split())


def test_crate_mentions_follow_the_code_like_rule(cg):
    crates = ["engine", "engine.sqlgen", "runner", "runner.page"]
    assert cg.crate_mentions("`engine/` and `runner`", crates) == ["engine", "runner"]
    assert cg.crate_mentions("runner.page.read_page(path) and sqlgen/", crates) == ["engine.sqlgen", "runner.page"]
    assert cg.crate_mentions("tests/runner/fixtures/ and the engine", crates) == []


def test_supersessions_from_either_status_line(cg):
    assert cg.supersessions("0009", "Accepted (2026-11-29). Supersedes ADR-0003 in part (typed)") == [
        ("0009", "0003", True)]
    assert cg.supersessions("0006", "Accepted (2026-11-29). Superseded in part by ADR-0018 (rounds)") == [
        ("0018", "0006", True)]
    assert cg.supersessions("0002", "Superseded by ADR-0030") == [("0030", "0002", False)]
    assert cg.supersessions("0001", "Accepted (2026-11-29)") == []


def test_snapshot_of_a_tiny_tree(cg):
    files = {
        "engine/__init__.py": '"""A Cypher engine.\n\nMore."""\nfrom engine.syntax import parser\n',
        "engine/syntax/__init__.py": '"""Cypher syntax: the parser."""\n',
        "engine/syntax/parser.py": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                    "    from engine.sqlgen import x\n# see ADR-0002\nfrom .. import errors\n"),
        "engine/sqlgen/generator.py": '"""SQL generation (ADR-0004)."""\nfrom ..syntax import ast\n',
        "docs/adr/0003-a.md": "# ADR-0003: Old\n\nStatus: Accepted (2026-11-29). Superseded in part by ADR-0009\n",
        "docs/adr/0009-b.md": "# ADR-0009: New\n\nStatus: Accepted (2026-11-30). Supersedes ADR-0003 in part\n",
        "README.md": "# cookbook\n\nSee `engine/`.\n",
    }
    data = cg.snapshot(files)
    crates = {c["name"]: c for c in data["crates"]["crates"]}
    assert list(crates) == ["engine", "engine.sqlgen", "engine.syntax"]
    assert crates["engine"]["description"] == "A Cypher engine."
    assert crates["engine.sqlgen"]["terms"] == "engin sqlgen sql generation adr"
    assert data["crates"]["deps"] == [
        {"src": "engine", "dst": "engine.syntax", "kind": "normal"},
        {"src": "engine.sqlgen", "dst": "engine.syntax", "kind": "normal"},
        {"src": "engine.syntax", "dst": "engine", "kind": "normal"},
        {"src": "engine.syntax", "dst": "engine.sqlgen", "kind": "type"},
    ]
    assert data["crates"]["crate_cites"] == [{"src": "engine.sqlgen", "adr": "0004"},
                                             {"src": "engine.syntax", "adr": "0002"}]
    docs = {d["path"]: d for d in data["docs"]["docs"]}
    assert docs["docs/adr/0009-b.md"] | {"terms": None} == {
        "path": "docs/adr/0009-b.md", "title": "ADR-0009: New", "adr": True, "number": "0009",
        "status": "Accepted (2026-11-30). Supersedes ADR-0003 in part", "date": "2026-11-30", "terms": None}
    assert docs["README.md"]["adr"] is False and docs["README.md"]["number"] is None
    assert data["docs"]["supersedes"] == [{"new": "0009", "old": "0003", "partial": True}]
    assert [c["crates"] for c in data["chunks"]["chunks"] if c["doc"] == "README.md"] == [["engine"]]
    question = data["questions"]["questions"][0]
    assert set(question["terms"]) <= set(question["normalized"])
    assert not set(question["terms"]) & cg.STRUCTURAL


def test_replace_data_blocks_changes_only_their_content(cg):
    page = "text\r\n```json data=a\r\n{}\r\n```\r\n\r\n```json data=other\r\n[1]\r\n```\r\nend"
    new = cg.replace_data_blocks(page, {"a": cg.dump({"rows": [{"x": 1}, {"x": 2}], "k": 6})})
    assert new == ('text\r\n```json data=a\r\n{\r\n  "rows": [\r\n    {"x": 1},\r\n    {"x": 2}\r\n  ],\r\n'
                   '  "k": 6\r\n}\r\n```\r\n\r\n```json data=other\r\n[1]\r\n```\r\nend')
    assert json.loads(new.split("```json data=a\r\n")[1].split("```")[0]) == {"rows": [{"x": 1}, {"x": 2}], "k": 6}
    with pytest.raises(SystemExit, match="no ```json data=NAME``` block for: b"):
        cg.replace_data_blocks(page, {"b": "{}\n"})
