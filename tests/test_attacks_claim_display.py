"""Attacks on the last step from a claim's text to the reader: the statement the kernel shows.

``check_claim`` returns the statement it proved, in the reader's notation
(:func:`verify.kernel.statement_display`).  The atoms (``sqrt``, ``Abs``) and symbolic powers of a
statement come as records built by the elaborator, each with a ``shown`` text.  A lying elaborator
could hand an honest record with a false ``shown`` (the Bernoulli proof shown as
``(x - 5)**n >= n*x + 1``), two records for one symbol (``s = sqrt(x)`` and ``s = sqrt(x + 1)``
make the hypotheses contradictory and prove anything), or an atom defined by itself.  The kernel
prints every atom and power from its own argument and base, and refuses the other two.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from verify import kernel
from verify.claims.induction import prove_power
from verify.claims.parser import parse_claim
from verify.claims.propose import _Prover

from tests.claim_capture import proved_claim as _proved

BERNOULLI = "assume: n >= 0, n integer, x >= -1\n(1 + x)**n >= 1 + n*x"
x = sympy.Symbol("x", real=True)


def _bernoulli():
    prover = _Prover(parse_claim(BERNOULLI))
    prover.assumptions()
    checked, _ = prove_power(prover)
    return prover.statement, kernel.ClaimProof((), checked.theorems[-1].theorem)


@given(offset=st.integers(-9, 9), shown=st.sampled_from(["(x - 5)", "x", "(2*x)", "(x + 1)"]))
@settings(max_examples=20, deadline=None)
def test_a_power_is_shown_from_its_base_and_exponent_never_from_its_shown_text(offset, shown):
    statement, proof = _bernoulli()
    forged = replace(statement, powers=(replace(statement.powers[0], shown=f"{shown}**n"),))
    checked = kernel.check_claim(forged, proof)
    assert checked.shown == "for all real x and integer n with n >= 0, x >= -1: " \
                            "(x + 1)**n >= n*x + 1"
    power = replace(statement.powers[0], offset=offset)
    exponent = "n" if offset == 0 else f"(n {'+' if offset > 0 else '-'} {abs(offset)})"
    assert f"(x + 1)**{exponent}" in kernel.statement_display(replace(statement, powers=(power,)))


@pytest.mark.parametrize("text, forged, honest", [
    ("assume: x >= 0\nsqrt(x) <= (x + 1)/2", "sqrt(x + 7)", "sqrt(x) <= (x + 1)/2"),
    ("Abs(a + b) <= Abs(a) + Abs(b)", "Abs(a - b)", "Abs(a + b) <= Abs(a) + Abs(b)"),
    ("Abs(Abs(a) - Abs(b)) <= Abs(a - b)", "Abs(a)", "Abs(Abs(a) - Abs(b)) <= Abs(a - b)"),
])
def test_an_atom_is_shown_from_its_argument_never_from_its_shown_text(text, forged, honest):
    statement, proof = _proved(text)
    atoms = tuple(replace(a, shown=forged) for a in statement.atoms)
    checked = kernel.check_claim(replace(statement, atoms=atoms), proof)
    assert checked.shown.endswith(": " + honest), checked.shown
    assert forged not in checked.shown.replace(honest, "")


def test_two_atoms_with_one_symbol_are_refused():
    """s = sqrt(x) and s = sqrt(x + 1): s**2 = x and s**2 = x + 1 contradict each other."""
    statement, proof = _proved("assume: x >= 0\nsqrt(x) <= (x + 1)/2")
    atom = statement.atoms[0]
    twin = replace(atom, argument=atom.argument + 1)
    with pytest.raises(kernel.DerivationError, match="share one symbol"):
        kernel.check_claim(replace(statement, atoms=(atom, twin)), proof)


def test_a_power_sharing_an_atoms_symbol_is_refused():
    statement, _ = _proved("assume: x >= 0\nsqrt(x) <= (x + 1)/2")
    power, proof = _bernoulli()
    forged = replace(power, atoms=(replace(statement.atoms[0], symbol=power.powers[0].symbol),))
    with pytest.raises(kernel.DerivationError, match="no square roots, no Abs"):
        kernel.check_claim(forged, proof)
    with pytest.raises(kernel.DerivationError, match="share one symbol"):
        kernel.statement_display(forged)


def test_an_atom_defined_by_itself_is_refused():
    """|s - 1| = s has the one solution s = 1/2: the display of such an atom never ends."""
    statement, proof = _proved("Abs(a + b) <= Abs(a) + Abs(b)")
    first = statement.atoms[0]
    looping = replace(first, argument=first.symbol - 1)
    with pytest.raises(kernel.DerivationError, match="uses itself"):
        kernel.statement_display(replace(statement, atoms=(looping,) + statement.atoms[1:]))


def test_an_atom_of_an_unknown_kind_is_refused_by_the_display():
    statement, _ = _proved("Abs(a + b) <= Abs(a) + Abs(b)")
    odd = replace(statement.atoms[0], kind="floor")
    with pytest.raises(kernel.DerivationError, match="unknown atom kind"):
        kernel.statement_display(replace(statement, atoms=(odd,) + statement.atoms[1:]))


def test_nested_and_indexed_atoms_are_shown_as_written():
    statement, proof = _proved("Abs(Abs(a) - Abs(b)) <= Abs(a - b)")
    assert kernel.check_claim(statement, proof).shown == \
        "for all real a, b: Abs(Abs(a) - Abs(b)) <= Abs(a - b)"
    # the atoms in reverse order: the kernel still prints the inner ones first
    reversed_ = replace(statement, atoms=tuple(reversed(statement.atoms)))
    assert kernel.statement_display(reversed_) == \
        "for all real a, b: Abs(Abs(a) - Abs(b)) <= Abs(a - b)"


def test_an_assumed_domain_condition_that_no_assumption_writes_is_refused():
    """An assumed domain is a hypothesis the display does not show: it must come from a
    ``sqrt`` the assumptions use, or the reader would see ``x + 1 >= 1`` proved for all x."""
    statement, proof = _proved("assume: x >= 0\nx + 1 >= 1")
    forged = replace(statement, assumptions=(), domains=(kernel.Domain(x, "nonneg", True),))
    with pytest.raises(kernel.DerivationError, match="not the argument of a square root"):
        kernel.check_claim(forged, proof)
    nonzero = replace(statement, domains=(kernel.Domain(x, "nonzero", True),))
    with pytest.raises(kernel.DerivationError, match="not the argument of a square root"):
        kernel.check_claim(nonzero, proof)


@pytest.mark.parametrize("text", [
    "assume: sqrt(x) >= 1\nx >= 1",
    "assume: Abs(sqrt(x) - 2) <= 1\nx >= 1",
    "assume: sqrt(sqrt(x) - 1) >= 0\nx >= 1",
])
def test_the_domain_of_a_square_root_in_an_assumption_is_assumed(text):
    statement, proof = _proved(text)
    assert any(d.assumed for d in statement.domains)
    assert kernel.check_claim(statement, proof).shown.startswith("for all real x with ")


def test_an_assumed_domain_of_a_square_root_only_the_goal_uses_is_refused():
    """sqrt(y) in the assumptions assumes y >= 0, but sqrt(x) in the goal only: its domain
    x >= 0 marked assumed is refused (the kernel follows only the atoms the assumptions use;
    a mutant that took every atom as used survived the recorded mutation run)."""
    statement, proof = _proved("assume: x >= 0, sqrt(y) >= 1\nsqrt(x)**2 == x")
    forged = replace(statement, domains=tuple(replace(d, assumed=True)
                                              for d in statement.domains))
    with pytest.raises(kernel.DerivationError, match="x >= 0 is not the argument of a square"):
        kernel.check_claim(forged, proof)
    assert kernel.check_claim(statement, proof).shown == \
        "for all real x, y with x >= 0, sqrt(y) >= 1: sqrt(x)**2 == x"
