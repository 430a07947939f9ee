"""The exact max-margin search on small data works in Python integers (issue 29, part 3): a
checked run of HW1-sized data does not import python-flint (about 30 ms of a 0.2 s process).
Bareiss's elimination gives exactly FLINT's solution (hypothesis, singular systems included),
and the certificates are the same with and without FLINT.
"""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import flint
from hypothesis import given, settings
from hypothesis import strategies as st

import pla
import verify.search.certificates as S

entries = st.one_of(st.integers(-3, 3), st.integers(-(2**70), 2**70))
systems = st.integers(1, 7).flatmap(lambda k: st.tuples(
    st.lists(st.lists(entries, min_size=k, max_size=k), min_size=k, max_size=k),
    st.lists(st.integers(-5, 5), min_size=k, max_size=k)))


def flint_solve(matrix, rhs):
    """:func:`_solve` by python-flint whatever the size of the system."""
    size = S._PYTHON_SOLVE_SIZE
    S._PYTHON_SOLVE_SIZE = 0
    try:
        return S._solve(matrix, rhs)
    finally:
        S._PYTHON_SOLVE_SIZE = size


@settings(max_examples=300, deadline=None)
@given(systems)
def test_bareiss_gives_flints_solution(system):
    matrix, rhs = system
    assert S._bareiss_solve(matrix, rhs) == flint_solve(matrix, rhs)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-(2**300), 2**300), min_size=1, max_size=5),
       st.integers(1, 2**400))
def test_fractions_without_flint_are_flints(numerators, denominator):
    reference = tuple(Fraction(int(flint.fmpq(p, denominator).p), int(flint.fmpq(p, denominator).q))
                      for p in numerators)
    assert S._fractions(numerators, denominator) == reference


def test_small_and_large_exact_products_agree():
    Z = [(1, 2, -3), (4, 0, 2**80), (-1, 5, 6)]
    small, large = S._ExactProducts(Z), S._ExactProducts(Z)
    large.small = False
    U = {0: 3, 2: -(2**90)}
    assert small.combination(U) == large.combination(U)
    assert small.scores([7, -2**70, 1]) == large.scores([7, -2**70, 1])
    assert small.gram([0, 1, 2]) == large.gram([0, 1, 2])


def test_a_checked_run_of_small_data_imports_no_flint():
    code = ("import sys, pla\n"
            "from verify.checks.checked_run import checked_run\n"
            "ds = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1], [0, 2], [5, -1]], "
            "[1, 1, -1, -1, 1])\n"
            "checked = checked_run(ds)\n"
            "print(checked.report.wf_kind, checked.report.bound, 'flint' in sys.modules)\n")
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True).stdout.split()
    assert shown[0] == "max-margin" and shown[-1] == "False"
    ds = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1], [0, 2], [5, -1]], [1, 1, -1, -1, 1])
    assert shown[1] == str(S.max_margin(ds).bound)
