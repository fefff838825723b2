"""pytest plugin running the openCypher TCK: one item per scenario, a summary, and a JSON outcome report.

Collection: `tests/tck/test_tck.py` is the anchor; in its place pytest gets a `TckFile` whose children are
one `FeatureCollector` per .feature file and one `ScenarioItem` per scenario (outline rows expanded), so
`tests/tck/test_tck.py::clauses/match/Match1.feature::[1] Match non-existent nodes returns empty` names one
scenario. The features folder is `--tck-features`, else $COOKBOOK_TCK_FEATURES, else
`<rootdir>/../shared/tck/features`; when it is missing the whole TCK is skipped. Every item is marked `tck`
and runs under a CPU-time limit (`--tck-timeout`, see deadline.py).

Reporting: each item records its verdict in `user_properties`, which pytest-xdist ships to the controller
with the report, so the controller sees every record whether or not the run is distributed. The controller
prints the summary and writes `--tck-report` (default `<rootdir>/tck-outcome.json`).
"""

from __future__ import annotations

import os
import time
import traceback
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from types import TracebackType
from typing import Any

import pytest

from tests.tck import expected
from tests.tck.deadline import Clock, ScenarioTimeout, deadline, interrupt
from tests.tck.features import Scenario, load_features
from tests.tck.report import Record, short_reason, summary_lines, write_report
from tests.tck.steps import ScenarioFailed, run_scenario

FEATURES_ENV = "COOKBOOK_TCK_FEATURES"
DEFAULT_TIMEOUT = 10.0  # CPU seconds; scenarios take well under one on a working engine
ANCHOR = Path(__file__).with_name("test_tck.py")
PROPERTY = "tck"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("tck", "openCypher TCK")
    group.addoption("--tck-features", metavar="PATH", default=None,
                    help=f"the TCK's features folder "
                         f"(default: ${FEATURES_ENV}, else <rootdir>/../shared/tck/features)")
    group.addoption("--tck-report", metavar="PATH", default=None,
                    help="where to write the per-scenario outcome JSON (default: <rootdir>/tck-outcome.json)")
    group.addoption("--tck-timeout", metavar="SECONDS", type=float, default=DEFAULT_TIMEOUT,
                    help="stop a scenario after this much CPU time and count it errored; 0: no limit "
                         "(default: %(default)s)")


def features_root(config: pytest.Config) -> Path:
    chosen = config.getoption("tck_features", None) or os.environ.get(FEATURES_ENV)
    if chosen:
        return (config.invocation_params.dir / chosen).resolve()
    return (config.rootpath.parent / "shared" / "tck" / "features").resolve()


def report_path(config: pytest.Config) -> Path:
    chosen = config.getoption("tck_report", None)
    return config.invocation_params.dir / chosen if chosen else config.rootpath / "tck-outcome.json"


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(TckSession(config), "tck-session")


def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector) -> pytest.File | None:
    return TckFile.from_parent(parent, path=module_path) if module_path == ANCHOR else None


def connect() -> Any:
    import engine  # here, not at import time: a broken engine makes items error, not collection

    return engine.connect(":memory:")


class TckFile(pytest.File):
    """The anchor file: yields one collector per feature file under the features folder."""

    def collect(self) -> Iterator[pytest.Collector]:
        root = features_root(self.config)
        if not root.is_dir():
            pytest.skip(f"openCypher TCK features not found at {root}: "
                        f"pass --tck-features PATH or set ${FEATURES_ENV}")
        features = load_features(root)
        listed = expected.load()
        known = {scenario.id for scenarios in features.values() for scenario in scenarios}
        unknown = sorted(listed.keys() - known)
        if unknown:
            self.warn(pytest.PytestWarning(
                f"{len(unknown)} ids in {expected.LIST_PATH.name} match no scenario, e.g. {unknown[0]!r}"))
        for feature, scenarios in features.items():
            yield FeatureCollector.from_parent(self, name=feature, scenarios=scenarios,
                                               graphs=root.parent / "graphs", listed=listed)


class FeatureCollector(pytest.Collector):
    def __init__(self, *, scenarios: tuple[Scenario, ...], graphs: Path, listed: dict[str, str],
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scenarios = scenarios
        self.graphs = graphs
        self.listed = listed

    def collect(self) -> Iterator[pytest.Item]:
        for scenario in self.scenarios:
            yield ScenarioItem.from_parent(self, name=scenario.name, scenario=scenario, graphs=self.graphs,
                                           expected_reason=self.listed.get(scenario.id))


def _verdict(error: Exception | None) -> tuple[str, str]:
    """(outcome, short reason) for what a scenario run raised."""
    if error is None:
        return "passed", ""
    if isinstance(error, ScenarioFailed):
        return "failed", short_reason(error.problem)
    return "errored", short_reason(f"{type(error).__name__}: {error}")


class ScenarioItem(pytest.Item):
    def __init__(self, *, scenario: Scenario, graphs: Path, expected_reason: str | None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scenario = scenario
        self.graphs = graphs
        self.expected_reason = expected_reason
        self.add_marker(PROPERTY)

    def runtest(self) -> None:
        started = time.perf_counter()
        error = self._run()
        seconds = round(time.perf_counter() - started, 3)
        outcome, reason = _verdict(error)
        listed = self.expected_reason is not None
        record = Record(self.scenario.id, self.scenario.group, outcome, reason, listed, seconds)
        self.user_properties.append((PROPERTY, asdict(record)))
        if error is None and listed:
            raise ScenarioFailed(f"XPASS(strict): passes but is listed in {expected.LIST_PATH.name} "
                                 f"({self.expected_reason}): remove it from the list")
        if error is not None and listed:
            pytest.xfail(self.expected_reason or outcome)
        if error is not None:
            raise error

    def _run(self) -> Exception | None:
        """Run the scenario within its time limit; what it raised, if anything."""
        opened: list[Any] = []

        def tracked_connect() -> Any:
            opened.append(connect())
            return opened[-1]

        seconds = self.config.getoption("tck_timeout", DEFAULT_TIMEOUT)
        clock = Clock(seconds)
        try:
            with deadline(seconds, lambda: [interrupt(db) for db in opened]) as clock:
                run_scenario(self.scenario, self.graphs, tracked_connect)
        except (Exception, ScenarioTimeout) as raised:
            if isinstance(raised, Exception) and not clock.expired:
                return raised
            timeout = TimeoutError(f"no verdict within {seconds:g} s of CPU time (--tck-timeout)")
            timeout.__cause__ = raised  # its traceback shows where the scenario was stopped
            return timeout
        return None

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        """The verdict for a failure; for a crash, Python's own traceback: pytest's costs ~0.2 s an item."""
        if isinstance(excinfo.value, ScenarioFailed):
            return str(excinfo.value)
        error = excinfo.value
        crash = "".join(traceback.format_exception(type(error), error, _from_harness(error.__traceback__)))
        return f"errored: the scenario could not be judged\n{crash}"

    def reportinfo(self) -> tuple[Path, int, str]:
        """The headline `clauses/match/Match1.feature:33 [1] Name`; it must not end the node id, or pytest
        reads it as a dotted Python name and prints `Match1::feature`."""
        return self.scenario.path, self.scenario.line - 1, f"{self.scenario.feature}:{self.scenario.line} " \
            f"{self.scenario.name}"


def _from_harness(frames: TracebackType | None) -> TracebackType | None:
    """The traceback without pytest's own frames above the scenario run."""
    here = str(ANCHOR.parent)
    while frames is not None and not frames.tb_frame.f_code.co_filename.startswith(here):
        frames = frames.tb_next
    return frames


class TckSession:
    """Collects the records from every report (the controller's, under xdist) and reports at the end."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.records: dict[str, Record] = {}

    @property
    def is_worker(self) -> bool:
        return hasattr(self.config, "workerinput")

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        for name, value in report.user_properties:
            if name == PROPERTY:
                record = Record.from_dict(value)
                self.records[record.id] = record

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.is_worker or not self.records:
            return
        terminalreporter.write_sep("=", "openCypher TCK")
        for line in summary_lines(list(self.records.values())):
            terminalreporter.write_line(line)
        terminalreporter.write_line(f"per-scenario outcomes: {report_path(self.config)}")

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if not self.is_worker and self.records:
            write_report(report_path(self.config), list(self.records.values()))
