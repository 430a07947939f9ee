"""A data set's certificate as a Coq file (``pla certify DATA --coq FILE.v``).

The file states its theorems with the definitions of the Coq library (``margin_at_least``,
``radius2_at_most``, ``update_bound``, ``not_separable``...), so a reader sees what is proven,
and proves each by applying a checker's correctness lemma and running the checker with
``vm_compute``.  Data are written exactly as :class:`pla.Dataset` keeps them: integer rows over
one common positive scale, labels ±1; weights as integers over a common denominator.

- separable data: the labels are ±1, w_f separates with margin ρ (attained), R² = maxₙ ‖xₙ‖²
  (attained), N = ⌊R²‖w_f‖²/ρ²⌋, and the corollary ``update_bound data N``: every PLA run from
  w₀ = 0 on these data (any order, any η > 0, a zero score a mistake) makes at most N updates;
- non-separable data: the Gordan certificate λ (scaled to integers) is valid, hence
  ``not_separable data`` (every w gets some example wrong) and PLA never halts.

This module only writes text; Coq checks it.

>>> import pla
>>> from verify.search.certificates import certify
>>> ds = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
>>> text = certificate_file(ds, certify(ds))
>>> "Definition N : Z := 117." in text
True
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm
from typing import Any, Sequence

__all__ = ["certificate_file", "coq_certificate", "q_literal", "integers_over_denominator",
           "rows_literal"]


def q_literal(value: Fraction | int) -> str:
    """An exact rational as a Coq ``Q`` term.

    >>> q_literal(Fraction(-5, 21))
    'Qmake (-5) 21'
    """
    value = Fraction(value)
    return f"Qmake ({value.numerator}) {value.denominator}"


def integers_over_denominator(values: Sequence[Fraction | int]) -> tuple[list[int], int]:
    """(integers V, D > 0) with values = V / D.

    >>> integers_over_denominator([Fraction(1, 2), Fraction(-1, 3)])
    ([3, -2], 6)
    """
    fractions = [Fraction(v) for v in values]
    d = lcm(1, *(f.denominator for f in fractions))
    return [int(f * d) for f in fractions], d


def _z_list(values: Sequence[int]) -> str:
    return "[" + "; ".join(str(v) for v in values) + "]"


def rows_literal(rows: Sequence[Sequence[int]], labels: Sequence[int]) -> str:
    """The rows and labels as a Coq ``list zrow`` (one row per line).

    >>> rows_literal([[1, 2], [3, -4]], [1, -1])
    '[\\n  ([1; 2], 1);\\n  ([3; -4], -1)\\n]'
    """
    body = ";\n".join(f"  ({_z_list(row)}, {y})" for row, y in zip(rows, labels))
    return "[\n" + body + "\n]"


#: Data sets with at least this many entries are written packed (:func:`packed_rows_literal`).
PACK_FROM_ENTRIES = 20_000
#: Bytes to a word: the arity of ``Packed.W``.
WORD_BYTES = 64


def packing(rows: Sequence[Sequence[int]]) -> tuple[int, int]:
    """(bytes per entry k, offset 2^(8k-1)) for packing ``rows``: every entry plus the offset
    is in [0, 256^k).

    >>> packing([[-100, 5], [100, 0]]), packing([[-129]]), packing([])
    ((1, 128), (2, 32768), (1, 128))
    """
    biggest = max((abs(v) for row in rows for v in row), default=0)
    k = (biggest.bit_length() + 1 + 7) // 8
    return k, 1 << (8 * k - 1)


def _word_lines(row: Sequence[int], k: int, offset: int) -> str:
    data = b"".join((v + offset).to_bytes(k, "big") for v in row)
    data += bytes(-len(data) % WORD_BYTES)
    words = ["W " + " ".join(f"x{b:02x}" for b in data[start:start + WORD_BYTES])
             for start in range(0, len(data), WORD_BYTES)]
    return "[" + "; ".join(words) + "]"


def packed_rows_literal(rows: Sequence[Sequence[int]], labels: Sequence[int], k: int,
                        offset: int) -> str:
    """The Coq term ``packed_rows ...`` (``Packed.v``) that computes to ``rows`` and
    ``labels``: each entry plus ``offset`` as ``k`` bytes, most significant first, 64 bytes
    to a word ``W b0 ... b63`` (the last word of a row filled up with ``x00``), one row a line.

    >>> packed_rows_literal([[1, -1]], [1], 1, 128).replace(" x00", "")
    'packed_rows 1 128 2 [\\n  [W x81 x7f]\\n] [1]%Z'
    """
    dim = len(rows[0]) if rows else 0
    body = ";\n".join("  " + _word_lines(row, k, offset) for row in rows)
    return f"packed_rows {k} {offset} {dim} [\n" + body + "\n] " + _z_list(labels) + "%Z"


def _packed(dataset: Any) -> bool:
    return dataset.n * dataset.dim >= PACK_FROM_ENTRIES


def _rows_definition(dataset: Any) -> list[str]:
    if not _packed(dataset):
        return ["(* x_n = row_n / scale, y_n = label_n *)",
                "Definition rows : list zrow := "
                + rows_literal(dataset.rows, dataset.labels) + "%Z."]
    k, offset = packing(dataset.rows)
    return [f"(* x_n = row_n / scale, y_n = label_n; each entry plus {offset} written as {k} "
            f"byte{'s' if k > 1 else ''},",
            "   most significant first, 64 bytes to a word W: Packed.v *)",
            "Definition rows : list zrow :=",
            "  " + packed_rows_literal(dataset.rows, dataset.labels, k, offset) + "."]


def _header(dataset: Any, what: str) -> list[str]:
    packed = _packed(dataset)
    return [
        f"(* {what}",
        f"   Data: {dataset.n} examples, dimension {dataset.dim}"
        f"{' (bias coordinate first)' if dataset.bias else ''}, sha256 in data_sha256 below.",
        "   Written by pla-verify (untrusted text).  `pla audit THIS_FILE.v --data DATA` compares",
        "   every line with what pla writes for DATA, then lets coqc check it.  *)",
        "From Coq Require Import QArith ZArith List.",
        "From PLA Require Import Vectors Perceptron Certificates.",
    ] + (["From PLA Require Import Packed."] if packed else []) + [
        "Import ListNotations.",
        "",
        "(* the data's sha256 fingerprint (pla's canonical exact form: size, bias, scale, labels,",
        "   integer rows), as a hexadecimal integer *)",
        f"Definition data_sha256 : Z := 0x{dataset.fingerprint}%Z.",
        "",
        "Definition scale : positive := " + str(dataset.scale) + ".",
        "",
    ] + _rows_definition(dataset) + [
        "",
        "(* every theorem below speaks about the data through this one definition *)",
        "Definition data : list example := dataset scale rows.",
        "",
        "Theorem labels_are_pm1 : labels_pm1 data.",
        "Proof. apply check_labels_correct. vm_cast_no_check (eq_refl true). Qed.",
        "",
    ]


def coq_certificate(dataset: Any, certificate: Any) -> Any:
    """The certificate to write in Coq for ``certificate`` (what ``pla certify`` found): for a
    separable data set, the near-max-margin separator with short dyadic entries and its dual
    multipliers whenever the kernel proves that it gives the same integer bound N and that no
    separator gives a smaller one (its ``tightest_updates``); Coq then computes with short
    integers instead of the exact max-margin w*'s thousands of digits.  Otherwise
    ``certificate`` itself (an explicit ``--method lp`` separator with a larger N, a given w).

    >>> import pla
    >>> from verify.search.certificates import certify
    >>> ds = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
    >>> coq_certificate(ds, certify(ds)).kind  # the dual bound straddles 117: exact w* kept
    'max-margin'
    """
    if not certificate.separable or certificate.kind == "near-max-margin":
        return certificate
    from verify.search.certificates import near_max_margin, shortened

    near = near_max_margin(dataset)
    # only with the same N: the file states the number pla certify prints
    if near is not None and near.tightest_updates == certificate.bound_updates:
        return shortened(dataset, near)
    return certificate


def certificate_file(dataset: Any, certificate: Any) -> str:
    """The Coq text for ``certificate`` (a :class:`verify.search.certificates.Separator` or
    :class:`~verify.search.certificates.NonSeparable`) about ``dataset``."""
    if certificate.separable:
        return "\n".join(_separable(dataset, certificate)) + "\n"
    return "\n".join(_gordan(dataset, certificate)) + "\n"


def _separable(dataset: Any, certificate: Any) -> list[str]:
    W, d = integers_over_denominator(certificate.w)
    N = certificate.bound_updates
    lines = _header(dataset, f"Certificate: the data are linearly separable ({certificate.kind} "
                             "separator), and every PLA run makes at most N updates.")
    lines += [
        "(* the separator w_f = W / " + str(d) + " *)",
        f"Definition w_f : vec := qvec {d} {_z_list(W)}%Z.",
        f"Definition rho : Q := {q_literal(certificate.rho)}.",
        f"Definition R2 : Q := {q_literal(certificate.R2)}.",
        f"Definition N : Z := {N}.",
        "",
        "(* w_f separates the data: y_n w_f.x_n >= rho > 0 for every n, with equality for some n *)",
        "Theorem w_f_separates : margin_at_least data w_f rho /\\ margin_attained data w_f rho.",
        "Proof. apply check_margin_exact_correct. vm_cast_no_check (eq_refl true). Qed.",
        "",
        "(* R2 = max_n ||x_n||^2 *)",
        "Theorem R2_is_max_norm2 : radius2_at_most data R2 /\\ radius_attained data R2.",
        "Proof. apply check_radius_exact_correct. vm_cast_no_check (eq_refl true). Qed.",
        "",
        "(* N = floor(R2 ||w_f||^2 / rho^2) *)",
        "Theorem N_is_the_floor : bound_floor w_f rho R2 N.",
        "Proof. apply check_bound_floor_correct. vm_cast_no_check (eq_refl true). Qed.",
        "",
        "(* The explicit corollary of Novikoff's theorem: every PLA run from w_0 = 0 on these data",
        "   (any visiting order, any eta > 0, a zero score counted as a mistake) makes at most N",
        "   updates. *)",
        "Theorem at_most_N_updates : update_bound data N.",
        "Proof.",
        "  exact (certified_update_bound data w_f rho R2 N labels_are_pm1 (proj1 w_f_separates)",
        "           (proj1 R2_is_max_norm2) N_is_the_floor).",
        "Qed.",
        "",
        "(* The same statement, unfolded. *)",
        "Check (at_most_N_updates : forall eta es, pla_run_on data eta es ->",
        "                             (Z.of_nat (length es) <= N)%Z).",
        "Print Assumptions at_most_N_updates.",
    ]
    if certificate.alpha is not None:
        lines += _tightness(certificate.alpha)
    return lines


def _tightness(alpha: Sequence[Fraction]) -> list[str]:
    A, _ = integers_over_denominator(alpha)
    return [
        "",
        "(* The multipliers alpha_n >= 0 the kernel checked, scaled to integers (a positive scale",
        "   changes nothing below). *)",
        f"Definition alpha : list Z := {_z_list(A)}%Z.",
        "",
        "(* Tightness, by the dual bound: with u = sum_n alpha_n y_n x_n, every separator v with",
        "   margin rho_v has R2 ||v||^2 / rho_v^2 >= R2 (sum_n alpha_n)^2 / ||u||^2 >= N, so no",
        "   separator gives a smaller integer bound than N. *)",
        "Theorem no_separator_gives_a_smaller_bound : no_smaller_bound data R2 N.",
        "Proof. apply (check_dual_bound_correct scale rows alpha). vm_cast_no_check (eq_refl true). Qed.",
        "",
        "Check (no_separator_gives_a_smaller_bound : forall v rho_v,",
        "         margin_at_least data v rho_v -> inject_Z N * (rho_v * rho_v) <= R2 * norm2 v).",
        "Print Assumptions no_separator_gives_a_smaller_bound.",
    ]


def _gordan(dataset: Any, certificate: Any) -> list[str]:
    L, _ = integers_over_denominator(certificate.lam)
    lines = _header(dataset, "Certificate: the data are NOT linearly separable (Gordan).")
    lines += [
        "(* lambda_n >= 0, lambda != 0 and sum_n lambda_n y_n row_n = 0 (scaled to integers) *)",
        f"Definition lambda : list Z := {_z_list(L)}%Z.",
        "",
        "(* no w classifies every example: some y_n w.x_n <= 0 *)",
        "Theorem no_separator : not_separable data.",
        "Proof. apply (check_gordan_correct scale rows lambda). vm_cast_no_check (eq_refl true). Qed.",
        "",
        "(* so PLA, counting a zero score as a mistake, never halts: runs of every length exist *)",
        "Theorem pla_never_stops : forall eta (T : nat), exists es, length es = T /\\",
        "  (forall e, In e es -> In e data) /\\ pla_updates eta zero_vector es.",
        "Proof. intros eta T. exact (pla_never_halts data eta no_separator T). Qed.",
        "",
        "Print Assumptions pla_never_stops.",
    ]
    return lines
