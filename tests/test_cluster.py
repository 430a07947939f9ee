"""Experiments on a Dask cluster (issue 30): the same seeds give the same exact results, bit for
bit, on ``--jobs 1`` and on a 2-worker ``LocalCluster``; a worker that dies has its runs
retried; Ctrl-C (or any failure) cancels what is pending; any ``concurrent.futures.Executor``
works.  The adoption test (a fresh environment with ``pla-verify[cluster]``) is at the end."""

from __future__ import annotations

import json
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

import cloudpickle
import pytest

import pla
from pla.cluster import dask_executor, parse_cluster_spec
from pla.experiments import parallel_map, repeat_pla, repeat_pocket
from pla.pocket import PocketOptions
from tests.adopter import run
from tests.cli_runner import pla_cli

# The worker processes cannot import this test module: its functions travel by value.
cloudpickle.register_pickle_by_value(__import__(__name__))

ROWS = [[0, 1], [1, 0], [2, 2], [-1, 1], [1, -1], [3, 0], [0, 3], [-2, -1], [1, 1], [2, -1]]
LABELS = [1, -1, 1, -1, 1, 1, 1, -1, -1, 1]
DATA = "\n".join(" ".join(map(str, r)) + f" {y:+d}" for r, y in zip(ROWS, LABELS)) + "\n"


@pytest.fixture(scope="module")
def cluster_executor():
    with dask_executor("local:2") as executor:
        yield executor


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


def test_cli_cluster_runs_print_the_same_json_as_one_process(tmp_path):
    data = tmp_path / "d.dat"
    data.write_text(DATA)
    common = ["pocket", str(data), "--runs", "30", "--updates", "25", "--order", "random",
              "--seed", "4", "--json"]
    one = pla_cli(*common, "--jobs", "1")
    dask = pla_cli(*common, "--cluster", "local:2")
    assert one.code == 0 and dask.code == 0, dask.err
    assert json.loads(dask.out) == json.loads(one.out)


def test_cli_unreachable_scheduler_is_one_line_and_exit_2(tmp_path):
    data = tmp_path / "d.dat"
    data.write_text(DATA)
    done = pla_cli("pocket", str(data), "--runs", "3", "--updates", "5", "--order", "random",
                   "--cluster", "tcp://127.0.0.1:9")
    assert done.code == 2 and "Traceback" not in done.err
    assert done.err.startswith("pla: error: --cluster tcp://127.0.0.1:9: no Dask scheduler answers")


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
