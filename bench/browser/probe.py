"""Measure the engine in headless Chromium under Pyodide with DuckDB-Wasm, every file served from one static
folder (ADR-0091): load times, the time of one SQL statement through the bridge, and which of a page's cells
run and give their recording.

    python bench/browser/probe.py PAGE.md

Needs node, npm and /usr/bin/chromium (CHROMIUM overrides). The npm packages (package-lock.json here, about
170 MB unpacked) are installed once into the user cache folder, never into the repository."""

from __future__ import annotations

import functools
import hashlib
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import zipfile
from importlib import metadata
from pathlib import Path
from typing import ClassVar

import platformdirs

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
PURE_PACKAGES = ("markdown-it-py", "mdurl", "platformdirs", "PyYAML")
"""What `engine` and `runner.run` import beyond the standard library and DuckDB, all pure Python (PyYAML's
C part is optional), packed from this Python's installed copies."""
SITE_FILES = ("probe.html", "duck_bridge.mjs", "run_cells.py")


def npm_packages() -> Path:
    """The pinned npm packages, installed once per package-lock.json into the cache folder."""
    lock = (HERE / "package-lock.json").read_bytes()
    folder = Path(platformdirs.user_cache_dir("cookbook")) / "browser-npm" / hashlib.sha256(lock).hexdigest()[:16]
    if not (folder / "node_modules").is_dir():
        folder.mkdir(parents=True, exist_ok=True)
        for name in ("package.json", "package-lock.json"):
            shutil.copy(HERE / name, folder / name)
        subprocess.run(["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund"], cwd=folder, check=True)
    return folder / "node_modules"


def pure_wheel(distribution: str, folder: Path) -> str:
    """The installed files of `distribution` (no compiled ones) as a zip Pyodide unpacks into site-packages."""
    name = f"{distribution.lower()}-pure.zip"
    dist = metadata.distribution(distribution)
    with zipfile.ZipFile(folder / name, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in dist.files or ():
            if file.suffix in (".so", ".pyc") or ".." in file.parts or file.parts[0].endswith(".dist-info"):
                continue
            archive.write(dist.locate_file(file), str(file))
    return name


def build_site(site: Path, page: Path, node_modules: Path) -> None:
    wheels = site / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(wheels), str(ROOT)],
                   check=True, capture_output=True)
    names = [path.name for path in wheels.glob("*.whl")] + [pure_wheel(d, wheels) for d in PURE_PACKAGES]
    (site / "wheels.json").write_text(json.dumps(names))
    for name in SITE_FILES:
        shutil.copy(HERE / name, site / name)
    shutil.copytree(HERE / "pyodide", site / "pyodide")
    shutil.copy(page, site / "page.md")
    (site / "npm").symlink_to(node_modules)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript", ".wasm": "application/wasm"}

    def log_message(self, *_: object) -> None:
        pass


def probe(page: Path) -> dict:
    node_modules = npm_packages()
    with tempfile.TemporaryDirectory() as folder:
        site = Path(folder)
        build_site(site, page, node_modules)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                                 functools.partial(QuietHandler, directory=str(site)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            ran = subprocess.run(["node", str(HERE / "probe_chromium.cjs"), f"http://127.0.0.1:{server.server_port}"],
                                 env={**os.environ, "NODE_PATH": str(node_modules)}, capture_output=True,
                                 text=True, timeout=900, check=False)
        finally:
            server.shutdown()
    if ran.returncode:
        raise SystemExit(ran.stderr[-2000:])
    return json.loads(ran.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    print(json.dumps(probe(Path(sys.argv[1]).resolve()), indent=1))
