"""A Pocket run's returned vector as a Coq file (``pla pocket TRAIN --updates N --coq FILE.v``).

The file holds the training data (as :mod:`verify.coq.certificate_files` writes them), the
returned vector (the pocket, or the last w_t with ``--last``) and the theorem that it makes
exactly K training mistakes, ``mistakes_of data w = K``, where ``mistakes_of`` counts the
examples with ``y w.x <= 0`` (``mistakes_of_counts_mistakes`` ties the count to ``mistake``).
Coq computes the count.  Untrusted text; Coq checks it.

>>> import pla
>>> ds = pla.Dataset.from_rows([[0], [1], [2]], [-1, 1, -1])
>>> "Theorem training_mistakes : mistakes_of data w = K." in pocket_file(ds, (0, 1), 1)
True
"""

from __future__ import annotations

from typing import Any, Sequence

from verify.coq.certificate_files import _header, _z_list, integers_over_denominator

__all__ = ["pocket_file"]


def pocket_file(dataset: Any, w: Sequence[Any], mistakes: int) -> str:
    """The Coq text stating that ``w`` makes exactly ``mistakes`` mistakes on ``dataset``."""
    W, d = integers_over_denominator(w)
    lines = _header(dataset, "Pocket: the returned weight vector makes exactly K training "
                             "mistakes (a zero score is a mistake).")
    lines += [
        f"(* the returned w = W / {d} (bias first) *)",
        f"Definition w : vec := qvec {d} {_z_list(W)}%Z.",
        f"Definition K : nat := {mistakes}.",
        "",
        "(* exactly K examples have y w.x <= 0; the training error is K / n *)",
        "Theorem training_mistakes : mistakes_of data w = K.",
        "Proof. vm_cast_no_check (eq_refl K). Qed.",
        "",
        "Print Assumptions training_mistakes.",
    ]
    return "\n".join(lines) + "\n"
