"""A page cannot take `cookbook run` down through its front matter, and `--update` replaces a page whole or
not at all (issue 32, items 6 and 7)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from runner.page import read_page

ROOT = Path(__file__).resolve().parents[2]

LAUGHS = "---\ntitle: laughs\na: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{b}: &{b} [{', '.join(['*' + a] * 10)}]\n" for a, b in zip("abcdefghi", "bcdefghij", strict=True)
) + "---\n\n# Laughs\n"


def test_yaml_aliases_in_front_matter_are_a_page_error_at_their_line(tmp_path):
    page_file = tmp_path / "laughs.md"
    page_file.write_text(LAUGHS)
    started = time.process_time()
    page = read_page(page_file)
    assert time.process_time() - started < 5
    assert [(e.line, e.message) for e in page.errors] == [
        (4, "front matter is not valid YAML: aliases (*a) are not allowed in front matter: write the value out")]


def test_a_page_with_aliases_fails_cookbook_run_quickly(tmp_path):
    page_file = tmp_path / "laughs.md"
    page_file.write_text(LAUGHS)
    done = subprocess.run([sys.executable, "-m", "runner", "run", str(page_file)], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2
    assert "aliases (*a) are not allowed" in done.stdout + done.stderr


PAGE = """# Page

```cypher cell=numbers
UNWIND range(1, 3000) AS i RETURN i, 'row ' + toString(i) AS label
```

Prose after the cell.
"""

FULL_DISK_UPDATE = """
import resource, signal, sys
from runner.cli import main
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # past the limit a write fails (EFBIG), as on a full disk
resource.setrlimit(resource.RLIMIT_FSIZE, (20000, resource.RLIM_INFINITY))
sys.exit(main(["run", sys.argv[1], "--update", "--color", "never"]))
"""


def test_an_update_that_cannot_be_written_leaves_the_page_as_it_was(tmp_path):
    page_file = tmp_path / "page.md"
    page_file.write_text(PAGE)
    page_file.chmod(0o640)
    done = subprocess.run([sys.executable, "-c", FULL_DISK_UPDATE, str(page_file)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert f"cannot update {page_file}: File too large; the page is unchanged" in done.stdout + done.stderr
    assert page_file.read_text() == PAGE  # it was cut at the limit, mid-table
    assert [p.name for p in tmp_path.iterdir()] == ["page.md"]  # no temporary file left


def test_an_update_keeps_the_pages_mode_and_records_the_table(tmp_path):
    page_file = tmp_path / "page.md"
    page_file.write_text(PAGE)
    page_file.chmod(0o640)
    done = subprocess.run([sys.executable, "-m", "runner", "run", str(page_file), "--update"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    text = page_file.read_text()
    assert "```table" in text and "row 3000" in text
    assert text.endswith("Prose after the cell.\n")
    assert page_file.stat().st_mode & 0o777 == 0o640


def test_front_matter_without_aliases_reads_as_before(tmp_path):
    for name in ("one.md", "two.md"):  # the loader is made afresh for each page
        page_file = tmp_path / name
        page_file.write_text("---\ntitle: Plain\nfeatures: [a, b]\n---\n\n# Plain\n")
        page = read_page(page_file)
        assert page.errors == [] and page.front_matter["title"] == "Plain"


SHORT_PAGE = "# Page\n\n```cypher cell=one\nRETURN 1 AS x\n```\n"


def test_an_update_of_a_read_only_page_is_a_clear_error_and_leaves_it_as_it_was(tmp_path):
    # the rename needs only the directory to be writable (and root may write anything): it replaced the page
    page_file = tmp_path / "page.md"
    page_file.write_text(SHORT_PAGE)
    page_file.chmod(0o444)
    done = subprocess.run([sys.executable, "-m", "runner", "run", str(page_file), "--update", "--color", "never"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert f"cannot update {page_file}: Permission denied; the page is unchanged" in done.stdout + done.stderr
    assert page_file.read_text() == SHORT_PAGE
    assert page_file.stat().st_mode & 0o777 == 0o444
    assert [p.name for p in tmp_path.iterdir()] == ["page.md"]


def test_an_update_through_a_symlink_writes_the_page_and_keeps_the_link(tmp_path):
    # renaming the new page over the link replaced the link with a copy and left the page itself as it was
    page_file = tmp_path / "page.md"
    page_file.write_text(SHORT_PAGE)
    link = tmp_path / "link.md"
    link.symlink_to(page_file.name)
    done = subprocess.run([sys.executable, "-m", "runner", "run", str(link), "--update"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert link.is_symlink()
    assert "```table" in page_file.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.md", "page.md"]
