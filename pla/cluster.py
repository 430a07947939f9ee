"""Experiments on a Dask cluster: ``pla run/pocket --runs K --cluster SPEC``.

``SPEC`` is ``tcp://HOST:PORT`` (the address of a running ``dask scheduler``, whose workers
were started with ``dask worker tcp://HOST:PORT``) or ``local:N`` (a
``distributed.LocalCluster`` of N single-threaded worker processes on this machine, started
and stopped here).  :func:`dask_executor` yields the client's
:class:`concurrent.futures.Executor`, which :func:`pla.experiments.parallel_map` uses like any
other executor: the runs are the same seeded runs, put back in the order of k, so the results
are bit for bit those of ``--jobs 1``.  A worker that dies has its runs rescheduled on the
others by Dask (its ``allowed-failures``, 3 by default, bounds how often one run is retried);
Ctrl-C cancels the pending futures.  A terminal sends Ctrl-C to every process of its
foreground group, the workers of ``local:N`` included: they ignore it (:func:`dask_setup`, run
in each of them as a Dask preload) and ``pla`` stops them, so the only message is
``pla: interrupted``.  Dask's own log lines below ERROR (a cancelled task, a worker stopped)
are not shown.

Dask is an optional extra (``pip install 'pla-verify[cluster]'``), imported only here and only
when a cluster is asked for; ``import pla`` does not import this module.

>>> parse_cluster_spec("local:2"), parse_cluster_spec("tcp://10.0.0.5:8786")
(('local', 2), ('address', 'tcp://10.0.0.5:8786'))
"""

from __future__ import annotations

import logging
import re
import signal
from contextlib import contextmanager
from typing import Any, Iterator

from pla.runs import OptionError

__all__ = ["parse_cluster_spec", "dask_executor", "dask_setup", "MAX_LOCAL_WORKERS"]

#: ``local:N`` starts at most this many worker processes.
MAX_LOCAL_WORKERS = 256
_ADDRESS = re.compile(r"^(tcp|tls|ws|wss|inproc|ucx)://[^\s/]+$")


def parse_cluster_spec(spec: str) -> tuple[str, Any]:
    """``("local", N)`` or ``("address", URL)``; :class:`pla.OptionError` for anything else.

    >>> parse_cluster_spec("local:0")
    Traceback (most recent call last):
    ...
    pla.runs.OptionError: --cluster local:N needs 1 <= N <= 256 worker processes, not 0
    """
    match = re.fullmatch(r"local:(\d{1,6})", spec)
    if match:
        workers = int(match.group(1))
        if not 1 <= workers <= MAX_LOCAL_WORKERS:
            raise OptionError(f"--cluster local:N needs 1 <= N <= {MAX_LOCAL_WORKERS} worker "
                              f"processes, not {workers}")
        return "local", workers
    if _ADDRESS.match(spec):
        return "address", spec
    raise OptionError(f"--cluster {spec!r}: expected tcp://HOST:PORT (a Dask scheduler) or "
                      "local:N (N local worker processes)")


@contextmanager
def dask_executor(spec: str) -> Iterator[Any]:
    """The :class:`concurrent.futures.Executor` of a Dask client for ``spec`` (see the module
    doc), closed (and a ``local:N`` cluster stopped) on exit."""
    kind, value = parse_cluster_spec(spec)
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise OptionError("--cluster needs Dask: pip install 'pla-verify[cluster]'") from None
    logging.getLogger("distributed").setLevel(logging.ERROR)
    if kind == "local":
        with LocalCluster(n_workers=value, threads_per_worker=1, processes=True,
                          dashboard_address=None, silence_logs=logging.ERROR,
                          preload=[__name__]) as cluster, Client(cluster) as client:
            yield client.get_executor()
        return
    try:
        client = Client(value, timeout="10s")
    except OSError as exc:
        raise OptionError(f"--cluster {value}: no Dask scheduler answers ({exc})") from None
    with client:
        yield client.get_executor()


def dask_setup(worker: Any) -> None:
    """Dask preload of the ``local:N`` workers (run in each worker process as it starts): Ctrl-C
    is left to ``pla``, which cancels the runs and stops the workers, so a worker never prints
    a traceback of its own.  Only the main thread may set a handler; Dask runs preloads there.

    >>> import signal
    >>> before = signal.getsignal(signal.SIGINT)
    >>> dask_setup(None)
    >>> signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    True
    >>> _ = signal.signal(signal.SIGINT, before)
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
