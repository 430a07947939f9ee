"""Shared test configuration: hypothesis profiles sized for a 2-core CI machine."""

import os
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
    """A test that changes this process's SIGINT/SIGTERM handling would leak it into every
    later test of its worker (a later Ctrl-C test then waits for a KeyboardInterrupt that never
    comes): the handlers are restored after every test, and a test that changed them fails."""
    import signal

    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    yield
    changed = [s.name for s, h in before.items() if signal.getsignal(s) != h]
    for s, h in before.items():
        signal.signal(s, h)
    if changed:
        pytest.fail(f"{request.node.nodeid} left the handler of {', '.join(changed)} changed")
