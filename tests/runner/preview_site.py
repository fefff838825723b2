"""Building the preview site in tests, and what its browser test needs besides the project: Debian's
chromium, and mermaid's script.

`site_copy` lays out mkdocs.yml, the pages and their snapshots in a folder as a fresh clone has them, and
`mkdocs_build` builds it with the `mkdocs` command, as an author would.

Mermaid comes from the npm registry, with npm's own client: `npm pack` fetches the pinned release's
tarball, and only `dist/mermaid.min.js` (a self-contained bundle) and its licence are kept, in
`.cache/preview-browser/` (ignored by git). Nothing is vendored: the bundle is about 3 MB, and authors
with a network get the same script from the CDN that mkdocs.yml names. `.ci/run` calls this module
(`python -m tests.runner.preview_site`) so CI fetches it before the tests; the test fetches it
itself when it is missing. Never a browser download: the test drives /usr/bin/chromium.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from tests.runner.helpers import COOKBOOK_PAGE, ROOT

MERMAID_VERSION = "11.12.2"
CACHE = ROOT / ".cache" / "preview-browser"
KEPT = {"package/dist/mermaid.min.js": "mermaid.min.js", "package/LICENSE": "LICENSE"}


LABELS_ROW = '| "Entity"   | 8     |'
TAMPERED_ROW = '| "Entity"   | 9     |'
"""One recorded value of the agent-memory page (the `labels` table), and the same row tampered with."""


def site_copy(folder: Path) -> Path:
    """mkdocs.yml, the pages and their snapshots under `folder`, as a fresh clone has them."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "mkdocs.yml", folder / "mkdocs.yml")
    shutil.copytree(ROOT / "cookbook", folder / "cookbook")
    shutil.copytree(ROOT / "snapshots", folder / "snapshots")
    return folder


def tamper(folder: Path) -> Path:
    """Change one recorded value of the agent-memory page under `folder`: 9 entities instead of 8."""
    page = folder / "cookbook" / COOKBOOK_PAGE.name
    source = page.read_text(encoding="utf-8")
    assert source.count(LABELS_ROW) == 1, "the labels table of the agent-memory page changed"
    page.write_text(source.replace(LABELS_ROW, TAMPERED_ROW), encoding="utf-8")
    return page


def mkdocs_build(folder: Path, *arguments: str, **environment: str) -> subprocess.CompletedProcess[str]:
    """`mkdocs build` of the site in `folder` into `folder/site`; snapshot mode unless COOKBOOK_LIVE says
    otherwise."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("COOKBOOK_")}
    env.update(NO_MKDOCS_2_WARNING="1", **environment)  # the first: no banner about MkDocs 2 in the output
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "-f", str(folder / "mkdocs.yml"),
                           "-d", str(folder / "site"), *arguments],
                          capture_output=True, text=True, env=env, timeout=300, check=False)


def chromium() -> str | None:
    """Debian's chromium, when it is installed."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


def mermaid_script() -> Path:
    """mermaid.min.js of MERMAID_VERSION, fetched from the npm registry the first time."""
    folder = CACHE / f"mermaid-{MERMAID_VERSION}"
    script = folder / "mermaid.min.js"
    if script.is_file():
        return script
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("npm is needed to fetch mermaid for the preview's browser test")
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        subprocess.run([npm, "pack", f"mermaid@{MERMAID_VERSION}", "--pack-destination", scratch, "--silent"],
                       check=True, timeout=300, stdout=subprocess.DEVNULL)
        tarball = next(Path(scratch).glob("mermaid-*.tgz"))
        with tarfile.open(tarball) as archive:
            for member, name in KEPT.items():
                source = archive.extractfile(member)
                assert source is not None, member
                partial = folder / f"{name}.partial"
                partial.write_bytes(source.read())
                partial.replace(folder / name)  # complete or absent, if two runs race
    return script


if __name__ == "__main__":
    print(mermaid_script())
