"""One PLA run as a Coq file (``pla run DATA --check --coq FILE.v``).

The file holds the data, a certificate (as :mod:`verify.coq.certificate_files` writes it) and the
run's updates as the row numbers it updated on.  Coq replays the run by computation with the
``replay`` checker of ``Runs.v`` (proven correct) and so proves that it is a PLA run from
w₀ = 0 (``run_is_a_pla_run``); its update count (``run_made_T_updates``); when it halted, that
its final weights make no mistake on the data (``run_halts``); and, for separable data, that
its length is within the corollary ``at_most_N_updates`` of Novikoff's theorem
(``run_within_the_bound``).  Every statement is about ``data`` and ``run``.  Untrusted text; Coq
checks it.

>>> import pla
>>> from verify.search.certificates import certify
>>> ds = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
>>> "Definition T : Z := 2." in run_file(ds, certify(ds), 1, [0, 2])
True
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

from verify.coq.certificate_files import certificate_file

__all__ = ["run_file", "halts"]


def _n_list(values: Sequence[int]) -> str:
    lines, line = [], []
    for v in values:
        line.append(str(v))
        if len(line) == 25:
            lines.append("; ".join(line))
            line = []
    if line:
        lines.append("; ".join(line))
    return "[" + ";\n  ".join(lines) + "]%N"


def run_file(dataset: Any, certificate: Any, eta: Fraction | int, indices: Sequence[int]) -> str:
    """The Coq text of the run that updated on rows ``indices`` (0-based) with rate ``eta``."""
    eta = Fraction(eta)
    if eta <= 0:
        raise ValueError(f"eta must be positive, not {eta}")
    text = certificate_file(dataset, certificate)
    text = text.replace("From PLA Require Import Vectors Perceptron Certificates.",
                        "From PLA Require Import Vectors Perceptron Certificates Runs.", 1)
    lines = [
        "",
        "(* The run: the rows it updated on (0-based), in order, and its learning rate. *)",
        f"Definition eta : Q := Qmake ({eta.numerator}) {eta.denominator}.",
        f"Definition updated_rows : list BinNums.N := {_n_list(indices)}.",
        "Definition run : list example := updates_of data updated_rows.",
        f"Definition T : Z := {len(indices)}.",
        "",
        "(* Replayed by computation: every update was made on a mistake of the current weights",
        "   (y w.x <= 0), starting from w_0 = 0. *)",
        "Theorem run_is_a_pla_run : pla_run_on data eta run.",
        "Proof.",
        f"  apply (replay_correct scale rows ({eta.numerator}) {eta.denominator} updated_rows);",
        "  vm_cast_no_check (eq_refl true).",
        "Qed.",
        "",
        "Theorem run_made_T_updates : Z.of_nat (length run) = T.",
        "Proof. vm_cast_no_check (eq_refl T). Qed.",
    ]
    if halts(dataset, indices):
        lines += [
            "",
            "(* The run halted: its final weights make no mistake on any example of the data. *)",
            "Theorem run_halts : no_mistake_left data eta run.",
            "Proof.",
            f"  apply (check_halts_correct scale rows ({eta.numerator}) {eta.denominator} "
            "updated_rows);",
            "  vm_cast_no_check (eq_refl true).",
            "Qed.",
        ]
    if certificate.separable:
        lines += [
            "",
            "(* The run's update count against the corollary of Novikoff's theorem. *)",
            "Theorem run_within_the_bound : (Z.of_nat (length run) <= N)%Z.",
            "Proof. exact (at_most_N_updates eta run run_is_a_pla_run). Qed.",
            "",
            "Print Assumptions run_within_the_bound.",
        ]
    return text + "\n".join(lines) + "\n"


def halts(dataset: Any, indices: Sequence[int]) -> bool:
    """Whether the weights after updating on rows ``indices`` (from w0 = 0, any eta > 0: the
    weights are eta times an integer combination) classify every example with a positive score.

    >>> import pla
    >>> ds = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
    >>> halts(ds, [0, 2, 2, 2, 0, 2, 2]), halts(ds, [0, 2])
    (True, False)
    """
    W = [0] * dataset.dim
    for i in indices:
        y, row = dataset.labels[i], dataset.rows[i]
        W = [w + y * v for w, v in zip(W, row)]
    return all(y * sum(w * v for w, v in zip(W, row)) > 0
               for y, row in zip(dataset.labels, dataset.rows))
