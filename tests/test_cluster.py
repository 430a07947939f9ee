"""Experiments on a Dask cluster (issue 30): the same seeds give the same exact results, bit for
bit, on ``--jobs 1`` and on a 2-worker ``LocalCluster``; a worker that dies has its runs
retried; Ctrl-C (or any failure) cancels what is pending; any ``concurrent.futures.Executor``
works.  ``pla claims`` over a tree of notes gives the same verdicts, byte for byte, on the
cluster.  The command-line tests reach this module's cluster by its address
(``--cluster tcp://...``); ``local:N`` from the command line is tested by the Ctrl-C test
(tests/test_interrupts.py) and by the adoption test (a fresh environment with
``pla-verify[cluster]``) at the end."""

from __future__ import annotations

import json
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

import cloudpickle
import nbformat
import pytest

import pla
from pla.cluster import dask_executor, parse_cluster_spec
from pla.experiments import parallel_map, repeat_pla, repeat_pocket
from pla.pocket import PocketOptions
from tests.adopter import run
from tests.cli_runner import pla_cli
from verify.claims.documents import (
    ClaimResolution, check_markdown_texts, decide_found, find_file_claims,
)

# The worker processes cannot import this test module: its functions travel by value.
cloudpickle.register_pickle_by_value(__import__(__name__))

ROWS = [[0, 1], [1, 0], [2, 2], [-1, 1], [1, -1], [3, 0], [0, 3], [-2, -1], [1, 1], [2, -1]]
LABELS = [1, -1, 1, -1, 1, 1, 1, -1, -1, 1]
DATA = "\n".join(" ".join(map(str, r)) + f" {y:+d}" for r, y in zip(ROWS, LABELS)) + "\n"


@pytest.fixture(scope="module")
def cluster_executor():
    with dask_executor("local:2") as executor:
        yield executor


@pytest.fixture(scope="module")
def cluster_address(cluster_executor) -> str:
    """The scheduler's ``tcp://`` address of this module's cluster, for ``--cluster``."""
    address = cluster_executor._client.scheduler.address
    assert address.startswith("tcp://127.0.0.1:")
    return address


#: A tree of notes: every verdict (proved, refuted as expected, vacuous, unproved, invalid), a
#: ``uses:`` across files, and a notebook's Markdown cell.
NOTES = {
    "a.md": "# A\n\n```claim\nid: sq\nx**2 >= 0\n```\n\n```claim\nexpect: refuted\n"
            "x**2 >= x\n```\n\n```claim\nassume: a >= 0, b >= 0\n"
            "(a + b)**2 >= a**2 + b**2\n```\n",
    "sub/b.md": "```claim\nuses: sq\nassume: x > 0\nx/x == 1\n```\n\n```claim\n"
                "assume: x > 1, x < 0\nx >= 5\n```\n\n```claim\nx**4 - 3*x**2 + 3 >= 0\n```\n\n"
                "```claim\n1/0 >= 1\n```\n",
}
NOTEBOOK_CELL = "Cauchy:\n\n```claim\nuses: sq\n2*x*y <= x**2 + y**2\n```\n"


def write_notes(root: Path) -> Path:
    for name, text in NOTES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("x = 1"), nbformat.v4.new_markdown_cell(NOTEBOOK_CELL)]
    nbformat.write(nb, str(root / "sub" / "lecture.ipynb"))
    return root


def notes_texts() -> list[tuple[str, str]]:
    return [*NOTES.items(), ("sub/lecture.ipynb:cell 2", NOTEBOOK_CELL)]


@pytest.fixture(scope="module")
def claims_here():
    """The claims of :data:`NOTES` decided one by one in this process."""
    return check_markdown_texts(notes_texts())


def test_pocket_and_pla_runs_on_a_local_cluster_equal_one_process(cluster_executor):
    ds = pla.Dataset.from_rows(ROWS, LABELS)
    options = PocketOptions(updates=40, order="random")
    one = repeat_pocket(ds, options, 60, seed=5, jobs=1)
    dask = repeat_pocket(ds, options, 60, seed=5, executor=cluster_executor)
    assert dask == one and [r.w for r in dask.runs] == [r.w for r in one.runs]
    separable = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1], [0, 2]], [1, 1, -1, -1])
    runs = pla.RunOptions(order="random-cycle")
    assert repeat_pla(separable, runs, 40, seed=2, executor=cluster_executor) == \
        repeat_pla(separable, runs, 40, seed=2, jobs=1)


def _dies_once(marker: str, seed: int) -> int:
    """Kills its worker process the first time it meets seed 3, then computes normally."""
    if seed == 3 and not os.path.exists(marker):
        Path(marker).write_text("died")
        os._exit(1)
    return seed * seed


def test_a_worker_that_dies_has_its_runs_retried(cluster_executor, tmp_path):
    marker = str(tmp_path / "died")
    done = []
    squares = parallel_map(partial(_dies_once, marker), list(range(8)),
                           executor=cluster_executor, on_progress=lambda d, t: done.append(d))
    assert Path(marker).exists()  # a worker did die
    assert squares == [k * k for k in range(8)] and done[-1] == 8


class _RecordingPool(ThreadPoolExecutor):
    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.futures = []

    def submit(self, fn, /, *args, **kwargs):
        future = super().submit(fn, *args, **kwargs)
        self.futures.append(future)
        return future


def test_ctrl_c_cancels_every_pending_future():
    release = threading.Event()

    def task(seed: int) -> int:
        if seed >= 3:  # the first chunk (seeds 0, 1, 2: 40 seeds in 16 chunks) is quick
            release.wait(30)
        return seed

    def interrupt(done: int, total: int) -> None:
        raise KeyboardInterrupt

    pool = _RecordingPool()
    try:
        with pytest.raises(KeyboardInterrupt):
            parallel_map(task, list(range(40)), executor=pool, on_progress=interrupt)
        # the first chunk finished, the second is running; the rest are cancelled
        assert len(pool.futures) > 3
        assert all(f.cancelled() for f in pool.futures[2:])
    finally:
        release.set()
        pool.shutdown()


def test_any_executor_gives_the_same_results():
    ds = pla.Dataset.from_rows(ROWS, LABELS)
    options = PocketOptions(updates=15, order="random-cycle")
    with ThreadPoolExecutor(3) as pool:
        threads = repeat_pocket(ds, options, 25, seed=1, executor=pool)
    assert threads == repeat_pocket(ds, options, 25, seed=1, jobs=2)


@pytest.mark.parametrize("spec, message", [
    ("local:0", "1 <= N <= 256"), ("local:x", "expected tcp://HOST:PORT"),
    ("http://x:1", "expected tcp://HOST:PORT"), ("", "expected tcp://HOST:PORT")])
def test_bad_cluster_specs_are_refused(spec, message):
    with pytest.raises(pla.OptionError, match=message):
        parse_cluster_spec(spec)


def test_cli_cluster_runs_print_the_same_json_as_one_process(cluster_address, tmp_path):
    data = tmp_path / "d.dat"
    data.write_text(DATA)
    common = ["pocket", str(data), "--runs", "30", "--updates", "25", "--order", "random",
              "--seed", "4", "--json"]
    one = pla_cli(*common, "--jobs", "1")
    dask = pla_cli(*common, "--cluster", cluster_address)
    assert one.code == 0 and dask.code == 0, dask.err
    assert json.loads(dask.out) == json.loads(one.out)


def test_cli_unreachable_scheduler_is_one_line_and_exit_2(tmp_path):
    data = tmp_path / "d.dat"
    data.write_text(DATA)
    done = pla_cli("pocket", str(data), "--runs", "3", "--updates", "5", "--order", "random",
                   "--cluster", "tcp://127.0.0.1:9")
    assert done.code == 2 and "Traceback" not in done.err
    assert done.err.startswith("pla: error: --cluster tcp://127.0.0.1:9: no Dask scheduler answers")


def test_claims_decided_on_the_cluster_or_two_processes_equal_one_process(cluster_executor,
                                                                          claims_here):
    here = claims_here
    assert {c.verdict.status for c in here} == {"proved", "refuted", "vacuous", "unproved",
                                                "invalid"}
    on_cluster = check_markdown_texts(notes_texts(),
                                      partial(parallel_map, executor=cluster_executor))
    on_processes = check_markdown_texts(notes_texts(), partial(parallel_map, jobs=2))
    for other in (on_cluster, on_processes):
        assert [(c.path, c.line, c.verdict, c.problems) for c in other] == \
            [(c.path, c.line, c.verdict, c.problems) for c in here]


def _decides_and_dies_once(marker: str, found):
    """Kills its worker process the first time it meets the claim ``x**4 - 3*x**2 + 3 >= 0``."""
    if found.claim is not None and found.claim.goals[0].text == "x**4 - 3*x**2 + 3 >= 0" \
            and not os.path.exists(marker):
        Path(marker).write_text("died")
        os._exit(1)
    return decide_found(found)


def test_a_worker_that_dies_deciding_a_claim_has_it_decided_again(cluster_executor, claims_here,
                                                                   tmp_path):
    marker = str(tmp_path / "died")
    found = [c for path, text in notes_texts() for c in find_file_claims(text, path)]
    resolution = ClaimResolution(found, decide=partial(_decides_and_dies_once, marker))
    done = []
    resolution.decide_every(partial(parallel_map, executor=cluster_executor,
                                    on_progress=lambda d, t: done.append(d)))
    assert Path(marker).exists()  # a worker did die
    again = [resolution.file_claim(i) for i in range(len(found))]
    assert [(c.path, c.line, c.verdict, c.problems) for c in again] == \
        [(c.path, c.line, c.verdict, c.problems) for c in claims_here]
    assert done[-1] == len(found)


def test_a_mapper_that_loses_claims_is_refused():
    found = find_file_claims(NOTES["a.md"], "a.md")
    with pytest.raises(ValueError, match="2 verdicts for 3 claims"):
        ClaimResolution(found).decide_every(lambda decide, claims: [decide(c)
                                                                    for c in claims[1:]])


def test_cli_claims_on_the_cluster_print_the_same_bytes_as_one_process(cluster_address,
                                                                      tmp_path):
    notes = write_notes(tmp_path / "notes")
    one = pla_cli("claims", str(notes), "--json")
    dask = pla_cli("claims", str(notes), "--json", "--cluster", cluster_address)
    assert one.code == 1 and "lecture.ipynb:cell 2" in one.out
    assert (dask.code, dask.out, dask.err) == (one.code, one.out, one.err)


def test_adopter_runs_pocket_on_a_local_cluster(adopter_venv, tmp_path):
    """``pip install 'pla-verify[cluster]'`` in a fresh environment; the cluster's answer is
    that of one process."""
    data = tmp_path / "d.dat"
    data.write_text(DATA)
    argv = [adopter_venv / "bin" / "pla", "pocket", data, "--runs", "20", "--updates", "20",
            "--order", "random", "--json"]
    one = run(argv + ["--jobs", "1"], tmp_path)
    dask = run(argv + ["--cluster", "local:2"], tmp_path)
    assert one.returncode == 0 and dask.returncode == 0, dask.stderr[-2000:]
    assert json.loads(dask.stdout) == json.loads(one.stdout)
