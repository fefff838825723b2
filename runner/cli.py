"""`cookbook`: the command line over the runner. Arguments, progress, summary and exit codes; no logic.

    cookbook --version
    cookbook run [PAGE ...] [--cell NAME] [--update] [--db PATH] [--json FILE] [--html FILE]
    cookbook run [PAGE ...] --target URI [--target URI ...] [--cell NAME] [--json FILE] [--matrix FILE]
    cookbook serve --db PATH [--tools PAGE ...] [--graph NAME] [--import-dir DIR] [--max-rows N] [--max-bytes N]
                   [--http [--host HOST]
                   [--port PORT] [--token TOKEN]
                   [--allowed-host NAME]]
    cookbook serve --db PATH --bolt [--host HOST] [--port PORT] [--user NAME] [--password PASSWORD]
                   [--tls-cert FILE --tls-key FILE]

Exit codes, the worst over the pages: 0 every cell matches its recording (or `--update` recorded it), 1 a
cell drifted or failed with an engine error, 2 a page error (that page does not run; the others do) or a
usage error.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any, NoReturn

from rich.console import Console
from rich.text import Text

import engine
from runner.errors import PageError
from runner.matrix_files import json_twin, load_notes
from runner.mcp.sizing import DEFAULT_MAX_BYTES, DEFAULT_MAX_ROWS, Caps
from runner.page import read_page
from runner.page.model import Page
from runner.run import ERROR, FAILED, PASSED, SKIPPED, UNRECORDED, PageOutcome, no_cells_error, run_page
from runner.snapshot_files import shown_path
from runner.update import CannotUpdate, update_page, update_snapshot

OK, DRIFT, USAGE = 0, 1, 2
PAGE_DIRECTORY = Path("cookbook")
STATUS_STYLES = {PASSED: "green", FAILED: "red", ERROR: "bold red", SKIPPED: "yellow", UNRECORDED: "yellow"}


class UsageError(Exception):
    pass


class VersionAction(argparse.Action):
    """`--version`: the package's version, looked up only when asked (reading the installed packages'
    metadata costs a tenth of a second, which every other run would pay)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> NoReturn:
        print(f"{parser.prog} {metadata.version('cookbook')}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cookbook",
                                     description="A literate cookbook runner for graph recipes.")
    parser.add_argument("--version", action=VersionAction, help="print the installed cookbook's version and exit")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser(
        "run", help="run pages and check every cell against its recorded result",
        description="Run each page's cells in order on a fresh database and diff every result against its "
                    "recorded table or gram block.")
    run.add_argument("pages", nargs="*", metavar="PAGE",
                     help="a page file, or a page name looked up in cookbook/ (default: every page there)")
    run.add_argument("--cell", metavar="NAME",
                     help="run the cells before NAME unchecked, then check NAME only")
    run.add_argument("--update", action="store_true",
                     help="rewrite recorded blocks that differ and add missing ones, changing no other byte")
    run.add_argument("--db", metavar="PATH", help="run on a new file database at PATH instead of in memory")
    run.add_argument("--json", metavar="FILE", help="write the run's outcome as JSON to FILE ('-': stdout)")
    run.add_argument("--html", metavar="FILE", help="write a standalone HTML report of the run to FILE")
    run.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                     help="colour the output (default: when writing to a terminal)")
    run.add_argument("--target", action="append", default=[], metavar="URI", dest="targets",
                     help="run the pages on another database instead of the embedded engine and compare with the "
                          "same recordings (repeatable: a portability matrix): falkordb://local, "
                          "falkordb://HOST:PORT, arcadedb:, bolt://HOST:PORT, neo4j://HOST:PORT "
                          "(docs/portability.md)")
    run.add_argument("--matrix", metavar="FILE",
                     help="with --target and one page: write the portability matrix as Markdown to FILE, each "
                          "difference with its note from notes.yaml beside FILE, and beside it as JSON "
                          "(FILE.json) for the MkDocs preview")
    run.add_argument("--timeout", type=positive_seconds, metavar="SECONDS",
                     help="stop a statement that runs longer than SECONDS: its cell fails with a timeout "
                          "error, and the statement is rolled back")
    serve = commands.add_parser(
        "serve", help="serve a graph database to agents as MCP tools (read_cypher, write_cypher, get_schema, "
                      "and the tools pages declare)",
        description="Serve the graph in one database file as an MCP server: over stdio, or Streamable HTTP "
                    "at /mcp with --http; or, with --bolt, over the Bolt protocol for Neo4j's drivers and "
                    "tools (docs/bolt.md). The file is held open, and locked against other processes, "
                    "until the server stops.")
    serve.add_argument("--db", metavar="PATH", required=True,
                       help="the database file (created if missing), or :memory: for a graph that ends with "
                            "the server")
    serve.add_argument("--graph", default="neo4j", metavar="NAME",
                       help="the named graph of the database the tools run on when a call names none "
                            "(default: neo4j; CREATE DATABASE makes others)")
    serve.add_argument("--import-dir", metavar="DIR",
                       help="the folder LOAD CSV may read file:/// urls from (default: none, LOAD CSV refused)")
    serve.add_argument("--tools", nargs="+", action="extend", default=[], metavar="PAGE",
                       help="also serve the tools these pages declare (cells marked tool=NAME: "
                            "docs/tool-cells.md); a bare name is looked up in cookbook/")
    transport = serve.add_mutually_exclusive_group()
    transport.add_argument("--http", action="store_true", help="serve Streamable HTTP instead of stdio")
    transport.add_argument("--bolt", action="store_true",
                           help="serve the Bolt protocol (Neo4j's drivers, cypher-shell, langchain-neo4j) "
                                "instead of MCP")
    serve.add_argument("--host", default="127.0.0.1",
                       help="with --http or --bolt: the address to bind (default: %(default)s)")
    serve.add_argument("--port", type=int,
                       help="with --http or --bolt: the port (default: 8000 for --http, 7687 for --bolt)")
    serve.add_argument("--timeout", type=seconds_or_none, metavar="SECONDS", default=30.0,
                       help="stop a statement that runs longer than SECONDS: the tool call fails with a "
                            "timeout error, and the statement is rolled back (default: %(default)s; 0: no limit)")
    serve.add_argument("--max-rows", type=positive_int, default=DEFAULT_MAX_ROWS, metavar="N",
                       help=f"MCP: the most rows one tool result holds (default {DEFAULT_MAX_ROWS}); a longer result "
                            "is truncated, says so, and gives a cursor for the rest")
    serve.add_argument("--max-bytes", type=positive_int, default=DEFAULT_MAX_BYTES, metavar="N",
                       help=f"MCP: the most bytes of JSON one tool result holds (default {DEFAULT_MAX_BYTES}, "
                            "at least 2048)")
    serve.add_argument("--memory-limit", metavar="SIZE",
                       help="the most memory statements may use, e.g. 2GB (default: half the machine's, at "
                            "most 4 GiB); past it a statement fails and is rolled back")
    serve.add_argument("--token", default=os.environ.get("COOKBOOK_TOKEN"), metavar="TOKEN",
                       help="with --http: every request must carry 'Authorization: Bearer TOKEN' (default: "
                            "the COOKBOOK_TOKEN environment variable). Required on any --host but loopback")
    serve.add_argument("--allowed-host", action="append", default=[], metavar="NAME", dest="allowed_hosts",
                       help="with --http on a --host that is not loopback: a host name clients use in the "
                            "Host header (repeatable); required there, as the Origin and Host check "
                            "against DNS rebinding accepts only these")
    serve.add_argument("--user", default="neo4j",
                       help="with --bolt and --password: the user clients log in as (default: %(default)s)")
    serve.add_argument("--password", default=os.environ.get("COOKBOOK_PASSWORD"),
                       help="with --bolt: the password clients log in with, by basic auth (default: the "
                            "COOKBOOK_PASSWORD environment variable; none: any login on loopback). Required "
                            "on any --host but loopback")
    serve.add_argument("--tls-cert", metavar="FILE",
                       help="with --bolt: serve TLS with this certificate (PEM), and --tls-key; required on "
                            "any --host but loopback")
    serve.add_argument("--tls-key", metavar="FILE", help="with --bolt: the certificate's private key (PEM)")
    return parser


def seconds_or_none(text: str) -> float | None:
    """`serve --timeout`'s value: a positive number of seconds, or 0 for no limit (None)."""
    return None if text.strip() in ("0", "0.0") else positive_seconds(text)


def positive_seconds(text: str) -> float:
    """`--timeout`'s value: a positive number of seconds."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0.0
    if not seconds > 0 or seconds != seconds or seconds == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return seconds


def main(argv: Sequence[str] | None = None) -> int:
    arguments = build_parser().parse_args(argv)
    if arguments.command == "serve":
        return serve_command(arguments)
    if not arguments.db:  # the pages run in memory: the shared host is made while the compiler loads
        engine.warm_up()
    # with `--json -` the JSON alone goes to stdout, and the progress to stderr
    console = make_console(arguments.color, sys.stderr if arguments.json == "-" else sys.stdout)
    errors = make_console(arguments.color, sys.stderr)
    try:
        return run_command(arguments, console, errors)
    except UsageError as error:
        errors.print(Text(f"cookbook: error: {error}", style="red"))
        return USAGE


def entry() -> NoReturn:
    """The `cookbook` command: `main`, then the process ends at once. By then every page, report and
    database is written and closed, so the interpreter's teardown (freeing the engine's DuckDB instance,
    unloading every module: ~70 ms, a tenth of a page's run) has nothing left to do."""
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def make_console(color: str, stream: object) -> Console:
    force = {"always": True, "never": False}.get(color)
    return Console(file=stream, force_terminal=force, no_color=color == "never", highlight=False,
                   soft_wrap=True, emoji=False)


def resolve_pages(names: Sequence[str]) -> list[Path]:
    if not names:
        pages = sorted(PAGE_DIRECTORY.glob("*.md"))
        if not pages:
            raise UsageError("no PAGE given and no pages in cookbook/")
        return pages
    paths = []
    for name in names:
        candidates = [Path(name), PAGE_DIRECTORY / name, PAGE_DIRECTORY / f"{name}.md"]
        found = next((path for path in candidates if path.is_file()), None)
        if found is None:
            raise UsageError(f"no page {name!r} (looked for {', '.join(map(str, candidates))})")
        paths.append(found)
    return paths


def read_named_page(path: Path, named: bool, errors: Console) -> Page:
    """The page at `path`, its warnings printed; a page named on the command line (`named`) without cells
    gets that page error."""
    page = read_page(path)
    empty = no_cells_error(page) if named and not page.errors else None
    if empty:
        page.errors.append(empty)
    for warning in page.warnings:
        errors.print(Text(str(warning), style="yellow"))
    return page


def run_command(arguments: argparse.Namespace, console: Console, errors: Console) -> int:
    paths = resolve_pages(arguments.pages)
    if arguments.targets:
        return target_command(arguments, paths, console, errors)
    if arguments.matrix:
        raise UsageError("--matrix writes the matrix of a --target run: give at least one --target")
    if arguments.db:
        if len(paths) > 1:
            raise UsageError("--db takes a single page: each page runs on a database of its own")
        if Path(arguments.db).exists():
            raise UsageError(f"--db {arguments.db} exists; pages run on a fresh database, so remove it "
                             "or choose a new path")
    outcomes = []
    started = time.monotonic()
    for path in paths:
        page = read_named_page(path, arguments.pages, errors)
        with console.status(f"running {page.path} …", spinner="dots"):
            outcome = run_page(page, database=arguments.db or ":memory:", cell=arguments.cell,
                               timeout=arguments.timeout)
        outcomes.append(outcome)
        for error in outcome.errors:  # the page's own, a --cell it lacks, a database that cannot be opened
            errors.print(Text(str(error), style="red"))
        report_page(outcome, console, update=arguments.update)
        if arguments.update and not outcome.errors:
            record_page(outcome, console, errors)
        console.print(progress_line(outcome, arguments.update))

    code = exit_code(outcomes, arguments.update)
    console.print(summary_line(outcomes, arguments.update, time.monotonic() - started))
    write_outputs(arguments, outcomes, code)
    return code


def target_command(arguments: argparse.Namespace, paths: list[Path], console: Console, errors: Console) -> int:
    """`--target URI ...`: each page on each target, its failures as a run on the engine prints them, then
    the page's portability matrix."""
    from runner.targets import CannotOpenTarget, check_uri  # the targets load only when asked for
    from runner.targets.matrix import PageMatrix
    from runner.targets.run import run_page_on

    for flag, given in (("--update", arguments.update), ("--db", arguments.db), ("--html", arguments.html),
                        ("--timeout", arguments.timeout)):
        if given:
            raise UsageError(f"{flag} is for runs on the embedded engine; --target compares another database "
                             "with the recordings")
    if arguments.matrix and len(paths) > 1:
        raise UsageError("--matrix takes a single page: each page's matrix is a file of its own")
    if arguments.matrix and json_twin(Path(arguments.matrix)) == Path(arguments.matrix):
        raise UsageError(f"--matrix {arguments.matrix}: give the Markdown file (PAGE.md); its JSON twin, which the "
                         "MkDocs preview reads, is written beside it")
    try:
        for uri in arguments.targets:
            check_uri(uri)
    except CannotOpenTarget as error:
        raise UsageError(str(error)) from error
    started, outcomes, matrices = time.monotonic(), [], []
    for path in paths:
        page = read_named_page(path, arguments.pages, errors)
        matrix = PageMatrix(page, {})
        for uri in arguments.targets:
            with console.status(f"running {page.path} on {uri} …", spinner="dots"):
                try:
                    outcome = run_page_on(page, uri, cell=arguments.cell)
                except CannotOpenTarget as error:
                    raise UsageError(str(error)) from error
            for error in outcome.errors:
                errors.print(Text(str(error), style="red"))
            for cell_outcome in outcome.cells:
                if cell_outcome.status in (ERROR, FAILED):
                    console.print(Text(f"[{uri}]", style="bold"))
                    console.print(styled_failure(cell_outcome.failure))
            console.print(progress_line(outcome, False).append(f"  on {uri}"))
            matrix.outcomes[uri] = outcome
            outcomes.append(outcome)
        if not any(outcome.errors for outcome in matrix.outcomes.values()):
            console.print(Text(f"\n{page.path}: " + " ".join(matrix.caveats())))
            console.print(Text(matrix.table()))
        matrices.append(matrix)
    code = exit_code(outcomes, False)
    console.print(summary_line(outcomes, False, time.monotonic() - started))
    if arguments.json:
        write_json(arguments.json, {"exit_code": code, "summary": totals(outcomes), "targets": arguments.targets,
                                    "pages": [matrix.as_dict() for matrix in matrices]})
    if arguments.matrix and matrices and not any(outcome.errors for outcome in outcomes):
        command = " ".join(["cookbook run", str(paths[0]), *(f"--target {uri}" for uri in arguments.targets),
                            *([f"--cell {arguments.cell}"] if arguments.cell else []), f"--matrix {arguments.matrix}"])
        file, matrix = Path(arguments.matrix), matrices[0]
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(matrix.markdown(command, load_notes(file, Path(matrix.page.path).stem)), encoding="utf-8")
        write_json(str(json_twin(file)), matrix.recorded(command))
    return code


def record_page(outcome: PageOutcome, console: Console, errors: Console) -> None:
    """`--update`: rewrite the page's recorded blocks, then its snapshot, saying what changed."""
    page = outcome.page
    try:
        for edit in update_page(outcome):
            verb = "updated" if edit.cell.recorded else "added"
            line = edit.cell.recorded.line if edit.cell.recorded else edit.cell.fence.end_line + 2
            console.print(Text(f"{page.path}:{line}: {verb} the {edit.kind} block of cell {edit.cell.name!r}",
                               style="cyan"))
        written = update_snapshot(outcome)
    except CannotUpdate as error:
        errors.print(Text(str(error), style="red"))
        outcome.errors.append(PageError(page.path, 1, str(error)))
        return
    if written is not None:
        console.print(Text(f"{shown_path(written)}: recorded the snapshot of {page.path} (commit it with the "
                           "page)", style="cyan"))


def positive_int(text: str) -> int:
    """`--max-rows` and `--max-bytes`: a whole number above 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number above 0, got {value}")
    return value


def serve_command(arguments: argparse.Namespace) -> int:
    """Run the MCP server until its client goes; a database that cannot be opened (another process holds
    it, or it is not a database) is a usage error."""
    from runner.mcp.http_security import UnsafeServe
    from runner.mcp.page_tools import ToolPagesError, declarations_of
    from runner.mcp.server import serve
    from runner.serving.database import CannotOpenDatabase  # the MCP SDK loads only for `serve`

    if arguments.import_dir is not None and not os.path.isdir(arguments.import_dir):
        print(f"cookbook serve: error: --import-dir {arguments.import_dir}: no such folder", file=sys.stderr)
        return USAGE
    if arguments.bolt:
        return serve_bolt(arguments)
    try:
        pages = [read_page(path) for path in resolve_pages(arguments.tools)] if arguments.tools else []
        declarations = declarations_of(pages)
    except UsageError as error:
        print(f"cookbook serve: error: {error}", file=sys.stderr)
        return USAGE
    except ToolPagesError as error:
        for problem in error.errors:
            print(problem, file=sys.stderr)
        return USAGE
    try:
        caps = Caps(max_rows=arguments.max_rows, max_bytes=arguments.max_bytes)
    except ValueError as error:
        print(f"cookbook serve: error: {error}", file=sys.stderr)
        return USAGE
    try:
        serve(arguments.db, http=arguments.http, host=arguments.host, port=arguments.port or 8000,
              timeout=arguments.timeout, memory_limit=arguments.memory_limit, token=arguments.token,
              allowed_hosts=arguments.allowed_hosts, declarations=declarations, graph=arguments.graph,
              import_dir=arguments.import_dir, caps=caps)
    except (CannotOpenDatabase, UnsafeServe) as error:
        print(f"cookbook serve: error: {error}", file=sys.stderr)
        return USAGE
    except KeyboardInterrupt:
        pass
    return OK


def serve_bolt(arguments: argparse.Namespace) -> int:
    """Run the Bolt server until SIGINT or SIGTERM; what cannot start (the file, an unsafe address) is a
    usage error."""
    from runner.bolt.server import DEFAULT_PORT, UnsafeBolt, serve
    from runner.serving.database import CannotOpenDatabase

    if arguments.tools:
        print("cookbook serve: error: --tools serves MCP tools, not Bolt: leave out --bolt or --tools",
              file=sys.stderr)
        return USAGE
    try:
        serve(arguments.db, host=arguments.host, port=arguments.port or DEFAULT_PORT, timeout=arguments.timeout,
              memory_limit=arguments.memory_limit, graph=arguments.graph, import_dir=arguments.import_dir,
              user=arguments.user, password=arguments.password, certificate=arguments.tls_cert,
              key=arguments.tls_key, started=lambda port: print(
                  f"cookbook serve: Bolt at {'bolt+s' if arguments.tls_cert else 'bolt'}://{arguments.host}:{port}",
                  file=sys.stderr, flush=True))
    except (CannotOpenDatabase, UnsafeBolt, OSError) as error:
        print(f"cookbook serve: error: {error}", file=sys.stderr)
        return USAGE
    except KeyboardInterrupt:
        pass
    return OK


def report_page(outcome: PageOutcome, console: Console, *, update: bool) -> None:
    for cell_outcome in outcome.cells:
        if cell_outcome.status == ERROR or (cell_outcome.status == FAILED and not (update and cell_outcome.updatable)):
            console.print(styled_failure(cell_outcome.failure))


def styled_failure(text: str) -> Text:
    styled = Text()
    for line in text.splitlines(keepends=True):
        style = ("red" if line.startswith("-") else "green" if line.startswith("+") else
                 "cyan" if line.startswith("@@") else "bold" if line[:1] not in (" ", "") else "")
        if line.startswith(("---", "+++")):
            style = "bold"
        styled.append(line, style=style)
    return styled


def stuck(outcome: PageOutcome) -> int:
    """The drifted cells `--update` cannot fix: a cell marked `error` that raised none."""
    return sum(1 for item in outcome.cells if item.status == FAILED and not item.updatable)


def progress_line(outcome: PageOutcome, update: bool) -> Text:
    counts = outcome.counts()
    words = {FAILED: "updated", UNRECORDED: "added"} if update else {}
    unfixed = stuck(outcome) if update else 0
    counts[FAILED] -= unfixed
    parts = [f"{count} {words.get(status, status)}" for status, count in counts.items() if count]
    if unfixed:
        parts.insert(1 if counts[PASSED] else 0, f"{unfixed} failed")
    status = outcome.status
    label = {PASSED: "PASS", FAILED: "FAIL", ERROR: "ERROR"}[status]
    if update and status == FAILED and not counts[ERROR] and not unfixed:
        label, status = "UPDATED", PASSED
    line = Text()
    line.append(f"{label:<7}", style=STATUS_STYLES[status])
    detail = "page error" if outcome.errors else ", ".join(parts) or "no cells"
    line.append(f" {outcome.page.path}  {detail}")
    return line


def totals(outcomes: Sequence[PageOutcome]) -> dict[str, int]:
    """Cells by status over all pages, and under "stuck" the drifted ones `--update` cannot fix."""
    total = dict.fromkeys((PASSED, FAILED, ERROR, SKIPPED, UNRECORDED, "stuck"), 0)
    for outcome in outcomes:
        for status, count in outcome.counts().items():
            total[status] += count
        total["stuck"] += stuck(outcome)
    return total


def summary_line(outcomes: Sequence[PageOutcome], update: bool, seconds: float) -> Text:
    total = totals(outcomes)
    failed = total[ERROR] + (total["stuck"] if update else total[FAILED])
    words = [f"{total[PASSED]} passed", f"{failed} failed"]
    if update and total[FAILED] - total["stuck"] + total[UNRECORDED]:
        words.append(f"{total[FAILED] - total['stuck'] + total[UNRECORDED]} updated")
    elif total[UNRECORDED]:
        words.append(f"{total[UNRECORDED]} unrecorded")
    if total[SKIPPED]:
        words.append(f"{total[SKIPPED]} skipped")
    text = Text(", ".join(words) + f" in {seconds:.2f}s")
    text.stylize("red" if failed else "green")
    return text


def exit_code(outcomes: Sequence[PageOutcome], update: bool) -> int:
    total = totals(outcomes)
    if any(outcome.errors for outcome in outcomes):
        return USAGE
    if total[ERROR] or (total["stuck"] if update else total[FAILED]):
        return DRIFT
    return OK


def write_outputs(arguments: argparse.Namespace, outcomes: list[PageOutcome], code: int) -> None:
    if arguments.json:
        write_json(arguments.json, {"exit_code": code, "summary": totals(outcomes),
                                    "pages": [outcome.as_dict() for outcome in outcomes]})
    if arguments.html:
        from runner.report_html import write_html_report  # mistune loads only for a report

        write_html_report(outcomes, arguments.html)


def write_json(destination: str, document: dict[str, Any]) -> None:
    """`--json FILE`: the document to FILE, or to stdout for `-`."""
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    if destination == "-":
        sys.stdout.write(text)
    else:
        Path(destination).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
