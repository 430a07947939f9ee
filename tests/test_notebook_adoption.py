"""The example notebook (docs/example.ipynb) executed by a real Jupyter kernel with nbclient, in
the session's fresh adopter environment (tests/adopter.py: ``pla-verify[notebook]`` installed
as a user would), and its HTML outputs checked: the step player with the run's exact states,
the checked report, the certificate and a ``%%claim`` verdict; its Markdown claims pass
``pla claims``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat

from tests.adopter import ROOT, run

NOTEBOOK = ROOT / "docs" / "example.ipynb"
EXECUTE = """
import sys, nbformat
from nbclient import NotebookClient
nb = nbformat.read(sys.argv[1], as_version=4)
NotebookClient(nb, timeout=600, kernel_name="python3",
               resources={"metadata": {"path": sys.argv[3]}}).execute()
nbformat.write(nb, sys.argv[2])
"""


def _html_outputs(nb) -> list[str]:
    return ["".join(out["data"]["text/html"]) for cell in nb.cells if cell.cell_type == "code"
            for out in cell.outputs if "text/html" in out.get("data", {})]


def test_the_example_notebook_runs_in_a_fresh_environment_with_rich_outputs(adopter_venv,
                                                                            tmp_path):
    executed = tmp_path / "executed.ipynb"
    done = run([adopter_venv / "bin" / "python", "-c", EXECUTE, NOTEBOOK, executed, tmp_path],
               tmp_path, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    nb = nbformat.read(str(executed), as_version=4)
    errors = [out for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs
              if out.output_type == "error"]
    assert not errors, errors
    player, report, certificate, verdict = _html_outputs(nb)
    data = json.loads(re.search(r'class="pla-player-data">(.*?)</script>', player, re.S)
                      .group(1).replace("<\\/", "</"))
    assert [s["w"] for s in data["states"]][-1] == "(-3, 1, 1)" and len(data["states"]) == 8
    assert "<script>" in player and "https://" not in player and "http://" not in player
    assert "<code>117</code>" in report and "<code>0</code> violations" in report
    assert "<code>13/4</code>" in certificate and "separable" in certificate
    assert "pla-badge-good" in verdict and "Claim nb-cauchy" in verdict
    claims = run([adopter_venv / "bin" / "pla", "claims", NOTEBOOK], tmp_path)
    assert claims.returncode == 0, claims.stdout + claims.stderr
    assert "example.ipynb:cell 7:line 20: refuted" in claims.stdout
    assert claims.stdout.splitlines()[-1] == "3 of 3 claims as expected"
