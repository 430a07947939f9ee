"""A plain `pla run` imports neither the kernel nor the checks (a proof violation is still
reported with its exit code: tests/test_cli_verify.py::test_proof_violation_is_one_line_and_exit_4)."""

from __future__ import annotations

import subprocess
import sys

PLAIN_RUN = """
import contextlib, io, sys
from verify.cli.command import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(["run", sys.argv[1]])
loaded = sorted(m for m in sys.modules if m.startswith(("verify.kernel", "verify.checks")))
print(code, loaded)
"""

def test_a_plain_run_does_not_import_the_kernel(tmp_path) -> None:
    data = tmp_path / "d.dat"
    data.write_text("1 2 +1\n-1 -2 -1\n")
    done = subprocess.run([sys.executable, "-c", PLAIN_RUN, str(data)], capture_output=True,
                          text=True, check=True)
    assert done.stdout.strip() == "0 []"


CHECKED_RUN = """
import contextlib, io, json, sys
from verify.cli.command import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(["run", sys.argv[1], "--check"])
loaded = sorted(m for m in sys.modules if m.startswith("verify.kernel."))
import verify.kernel as kernel
print(json.dumps([code, loaded, kernel.statements.__name__, kernel.check_theorem.__module__,
                  kernel.Fact.__module__]))
"""


def test_a_checked_run_imports_only_the_kernel_it_uses(tmp_path) -> None:
    """`pla run --check` decides with the certificates and steps of the kernel: its derivation
    and claims half (terms, derivations, claim statements) is imported on first use only, and
    then under the same names (its modules too: ``kernel.statements``)."""
    import json

    data = tmp_path / "d.dat"
    data.write_text("1 2 +1\n-1 -2 -1\n")
    done = subprocess.run([sys.executable, "-c", CHECKED_RUN, str(data)], capture_output=True,
                          text=True, check=True)
    code, loaded, statements, theorem_module, fact_module = json.loads(done.stdout)
    assert code == 0
    assert {"verify.kernel.certificates", "verify.kernel.steps"} <= set(loaded)
    assert not {"verify.kernel.terms", "verify.kernel.derivations",
                "verify.kernel.claim_statements"} & set(loaded)
    assert (statements, theorem_module, fact_module) == (
        "verify.kernel.statements", "verify.kernel.derivations", "verify.kernel.terms")

WITHOUT_CLUSTER = """
import contextlib, io, sys
import pla
from verify.cli.command import main
with contextlib.redirect_stdout(io.StringIO()):
    codes = [main(["pocket", sys.argv[1], "--runs", "3", "--updates", "5", "--order", "random",
                   "--jobs", "1"]), main(["claims", sys.argv[2]])]
print(codes, sorted(m for m in sys.modules if m.split(".")[0] in ("dask", "distributed")))
"""


def test_dask_is_imported_only_for_cluster(tmp_path) -> None:
    """Issue 30: Dask is an optional extra; --runs K and pla claims without --cluster (and
    ``import pla``) never import it."""
    data = tmp_path / "d.dat"
    data.write_text("0 0 -1\n1 1 -1\n0 1 1\n1 0 1\n")
    notes = tmp_path / "n.md"
    notes.write_text("```claim\nx**2 >= 0\n```\n")
    done = subprocess.run([sys.executable, "-c", WITHOUT_CLUSTER, str(data), str(notes)],
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[0, 0] []"
