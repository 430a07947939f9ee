"""Shared test configuration: hypothesis profiles sized for a 2-core CI machine."""

import os
import signal
import sys
from pathlib import Path

# The site's build machinery (docs/hooks/sitebuild/) is not installed; tests import it from there.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "docs" / "hooks"))

import pytest
from hypothesis import HealthCheck, Phase, settings

settings.register_profile(
    "ci", max_examples=40, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "fuzz", max_examples=2000, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# Mutation testing (make mutation): the size of "ci", reproducible, and no shrinking (a mutant
# only needs one failing example).
settings.register_profile(
    "mutation", max_examples=40, deadline=None, derandomize=True, database=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# The CLI lifts CPython's int<->str digit limit (exact results can be long); so do the tests.
sys.set_int_max_str_digits(0)

#: The handling every test starts with and must leave (:func:`_signal_handlers_are_left_as_found`).
PYTHON_SIGNAL_HANDLING = {signal.SIGINT: signal.default_int_handler, signal.SIGTERM: signal.SIG_DFL}
# A run started with a signal ignored -- a background job of a non-interactive shell
# (`bash .ci/run &`) starts with SIGINT ignored, and so does every process it starts, the xdist
# workers included: Python then leaves it ignored -- would give the first test of every worker
# an ignored SIGINT.  The Ctrl-C tests need Python's own handling (and the `pla` processes they
# start inherit what this process has), so it is restored here, first thing in every process of
# the run (this file is imported before any test module), and the run's summary says so.
IGNORED_AT_START = [signum for signum in PYTHON_SIGNAL_HANDLING
                    if signal.getsignal(signum) is signal.SIG_IGN]
for _signum in IGNORED_AT_START:
    signal.signal(_signum, PYTHON_SIGNAL_HANDLING[_signum])


def pytest_terminal_summary(terminalreporter) -> None:
    """Say once, at the end of the run (shown under ``-q`` too), that a signal was restored."""
    if IGNORED_AT_START:
        names = " and ".join(signum.name for signum in IGNORED_AT_START)
        verb = "was" if len(IGNORED_AT_START) == 1 else "were"
        terminalreporter.write_line(
            f"{names} {verb} ignored when this run started (a background job of a "
            "non-interactive shell?): the tests ran with Python's own handling")


#: The files that run for minutes, longest first (each file alone, `--durations`, 2026-11-26:
#: the site's claims through coqc, the strict site build and Chromium, the Coq audits, then the
#: adoption venvs, the signal and Coq tests).  `make test` hands whole files to two workers
#: (--dist loadfile) in collection order (--no-loadscope-reorder): these start first and the
#: many short files fill in around them.  xdist's own order (most tests first) started them
#: last -- they have few tests -- and one of them alone then ran on while the other worker
#: idled.  Only the order changes; every test runs.  The adoption files (one shared venv,
#: built by the first to need it) are spread so that the two workers do not wait for it together.
LONG_FILES_FIRST = ("test_claims_coq.py", "test_site_browser.py", "test_coq_audit.py",
                    "test_claims_sphinx.py", "test_writers_readers_signals.py", "test_coq.py",
                    "test_claims_adoption.py", "test_cluster.py", "test_notebook_adoption.py",
                    "test_cli_pocket.py", "test_mutation_testing.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files of :data:`LONG_FILES_FIRST` first, in that order; the rest as collected (a
    stable sort: each file's tests keep their order)."""
    rank = {name: k for k, name in enumerate(LONG_FILES_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


@pytest.fixture(scope="session")
def adopter_venv(tmp_path_factory) -> Path:
    """The adoption tests' fresh virtual environment, built once per run (tests/adopter.py).

    Under pytest-xdist (``make test`` runs two workers) the workers share one build: the first
    to need it builds it under the run's common temporary directory while holding a lock, the
    others wait for it and reuse it.  A failed build marks nothing ready, so the next worker
    tries again and fails with its own reason."""
    import fcntl

    from tests.adopter import make_adopter_venv

    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the directory every worker's temporary directory lives in
    with open(base / "adopter.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        ready = base / "adopter" / "venv" / ".built-by-the-tests"
        if not ready.exists():
            (base / "adopter").mkdir(exist_ok=True)
            make_adopter_venv(base / "adopter")
            ready.touch()
        return ready.parent


@pytest.fixture(autouse=True)
def _signal_handlers_are_left_as_found(request):
    """Every test starts with Python's own SIGINT and SIGTERM handling, and leaves it as found.

    A changed handler leaks into every later test of its worker: a Ctrl-C test then waits for
    a KeyboardInterrupt that never comes, and a subprocess inherits an ignored SIGINT.  A
    handler changed by something outside any test (an import, a module fixture) is reset here
    with a warning that names the first test to find it; a test that changes one fails.  (A
    signal ignored when the run started is not a leak: it is restored before any test, above.)"""
    import warnings

    expected = PYTHON_SIGNAL_HANDLING
    found = {s: signal.getsignal(s) for s in expected}
    if found != expected:
        warnings.warn(f"{request.node.nodeid} started with {found}; reset to Python's own "
                      f"handling", pytest.PytestWarning, stacklevel=1)
        for s, h in expected.items():
            signal.signal(s, h)
    yield
    changed = [s.name for s, h in expected.items() if signal.getsignal(s) != h]
    for s, h in expected.items():
        signal.signal(s, h)
    if changed:
        pytest.fail(f"{request.node.nodeid} left the handler of {', '.join(changed)} changed")
