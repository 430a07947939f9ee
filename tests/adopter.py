"""One fresh virtual environment per test session, with pla-verify installed from this working
tree as a user would (``pip install 'pla-verify[notebook,sphinx,cluster]'`` plus the tools a
user brings: pytest, mkdocs, nbclient, ipykernel), shared by every adoption test
(tests/test_claims_adoption.py, test_notebook_adoption.py, test_claims_sphinx.py,
test_cluster.py) so that it is built once (about a minute with a warm pip cache).

The environment is made without a pip of its own (``venv --without-pip``) and this session's
pip installs into it (``pip --python VENV/bin/python install ...``): the same resolver and
installer a user runs, giving the same packages, without bootstrapping a second pip into the
venv (ensurepip).  Bytecode is written on first import (``--no-compile``), so only what the
tests use is compiled.

If it cannot be built the tests fail, saying why; they never skip.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: What the adopter installs besides pla-verify with its optional extras.
USER_TOOLS = ("pytest", "mkdocs", "nbclient", "ipykernel")


def run(args: list, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run a command of the adopter's environment (none of this session's Python variables)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "PYTHON"))}
    env["NO_MKDOCS_2_WARNING"] = "1"
    return subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=env)


def make_adopter_venv(base: Path) -> Path:
    """A new virtual environment under ``base`` with pla-verify installed from a clean copy of
    the tracked files of this working tree (no .venv, no site/)."""
    venv = base / "venv"
    made = run([sys.executable, "-m", "venv", "--without-pip", venv], ROOT)
    assert made.returncode == 0, f"cannot create a virtual environment: {made.stderr}"
    source = base / "source" / "pla-verify"
    copied = run(["git", "-C", ROOT, "ls-files", "-z"], ROOT)
    assert copied.returncode == 0, copied.stderr
    for name in filter(None, copied.stdout.split("\0")):
        target = source / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if (ROOT / name).is_file():
            target.write_bytes((ROOT / name).read_bytes())
    installed = run([sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install",
                     "--quiet", "--disable-pip-version-check",
                     "--no-compile",  # bytecode is written on first import: only what is used
                     f"{source}[notebook,sphinx,cluster]", *USER_TOOLS], ROOT, timeout=900)
    assert installed.returncode == 0, f"pip install failed:\n{installed.stderr[-3000:]}"
    return venv
