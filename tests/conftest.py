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
    """The adoption tests' fresh virtual environment, built once per session (tests/adopter.py)."""
    from tests.adopter import make_adopter_venv

    return make_adopter_venv(tmp_path_factory.mktemp("adopter"))
