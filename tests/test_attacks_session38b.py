"""Attacks on 722f4b9/75ad259 (session 38b): the walk's Dot arity and ``is_commutative`` rules,
``_Context.within`` reading the checked copy, ``_check_induction`` snapshotting first.

Every forged node is fresh (``node`` = ``Expr.__new__`` with ``is_commutative`` set by hand);
no cached sympy object is mutated.

Held: nested/unevaluated compounds print with their value and prove only true statements; a
Dot of scalars, numbers or of a Dot is refused; the kernel's induction names do not collide
with a claim's own ``T`` / ``t``.
Mended after the review (the strict xfails removed): an ``is_commutative=True`` Add/Mul of no
arguments or a Pow of fewer than two crashed with IndexError (not a kernel error); a Pow of three
arguments passed the walk with its third argument never walked (a ``sin`` or a ``Float``
admitted) and made check_theorem raise ValueError.  The walk now takes a Pow of exactly two
arguments and an Add/Mul of at least two: an Add/Mul of one argument (held: it printed as its
argument and proved only its truths) is refused too, since no sympy constructor makes one.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
import sympy as sp

from tests.test_attacks_session38 import NO_VECTORS, X, Y, _sum_statement, node, one_step
from verify.kernel import KernelError, Square, Term, check_theorem
from verify.kernel.claim_statements import ClaimProof, check_claim, sum_theorem
from verify.kernel.inputs import expression
from verify.kernel.statements import expression_text
from verify.kernel.terms import DerivationError, _dot_class


# --- holes: compounds whose arguments lie about their arity --------------------------------------
@pytest.mark.parametrize("make", [lambda: node(sp.Add), lambda: node(sp.Mul),
                                  lambda: node(sp.Pow), lambda: node(sp.Pow, X)],
                         ids=["add()", "mul()", "pow()", "pow(x)"])
def test_a_compound_of_too_few_arguments_is_refused_with_a_kernel_error(make):
    """Mended: these raised IndexError in the walk (Pow) or in the printer (Add/Mul)."""
    with pytest.raises(DerivationError, match="arguments"):
        expression(make(), NO_VECTORS)
    with pytest.raises(KernelError):
        check_theorem(one_step(make(), "=", make()))


@pytest.mark.parametrize("junk", [sp.sin(Y), sp.Float(1.5), Y], ids=["sin", "float", "y"])
def test_a_power_of_three_arguments_is_refused_by_the_walk(junk):
    """Mended: Pow(x, 2, junk) passed the walk, its third argument never walked."""
    with pytest.raises(DerivationError, match="Pow node of 3 arguments"):
        expression(node(sp.Pow, X, sp.Integer(2), junk), NO_VECTORS)


def test_a_power_of_three_arguments_gives_a_kernel_error_in_check_theorem():
    """Mended: Pow(x, 2, y) made check_theorem raise ValueError (too many values to
    unpack), not a kernel error."""
    bad = node(sp.Pow, X, sp.Integer(2), Y)
    with pytest.raises(DerivationError, match="Pow node of 3 arguments"):
        check_theorem(one_step(bad, "=", bad))


def test_a_power_of_three_arguments_proves_nothing_false_about_its_hidden_argument():
    """What the third argument cannot do: x**2 >= y is not proved with the certificate of
    x**2 >= 0 (the kernel computes with x**2 and ignores the hidden y)."""
    bad = node(sp.Pow, X, sp.Integer(2), Y)
    with pytest.raises(KernelError):
        check_theorem(one_step(bad, ">=", Y, (Term(1, (Square(X),)),)))
    with pytest.raises(KernelError):
        check_theorem(one_step(bad, ">=", 0, (Term(1, (Square(Y),)),)))


# --- one-argument and unevaluated compounds ------------------------------------------------------
@pytest.mark.parametrize("cls", [sp.Add, sp.Mul])
def test_a_one_argument_compound_is_refused(cls):
    """Held before (it printed as its argument and proved only its truths), refused now: no
    sympy constructor makes a sum or product of one argument (``Add(x)`` is ``x``), so only a
    forger does, and the walk takes an Add/Mul of at least two.  The genuine ones still pass."""
    one = node(cls, X)
    assert expression_text(one) == "x"                   # (what it printed as)
    with pytest.raises(DerivationError, match=f"{cls.__name__} node of 1 arguments"):
        expression(one, NO_VECTORS)
    with pytest.raises(DerivationError, match=f"{cls.__name__} node of 1 arguments"):
        check_theorem(one_step(one, "=", X))
    assert cls(X) is X
    two = node(cls, X, Y)
    assert expression(two, NO_VECTORS) is two
    assert check_theorem(one_step(two, "=", cls(X, Y))).steps == 1


def test_an_unevaluated_product_of_numbers_prints_its_value():
    six = node(sp.Mul, sp.Integer(2), sp.Integer(3))
    assert expression_text(six) == "6"
    check_theorem(one_step(six, "=", 6))
    with pytest.raises(KernelError):
        check_theorem(one_step(six, "=", 5))


def test_a_nested_sum_is_computed_with_its_value():
    nested = node(sp.Add, node(sp.Add, X, Y), X)
    check_theorem(one_step(nested, "=", 2 * X + Y))
    with pytest.raises(KernelError):
        check_theorem(one_step(nested, "=", X + Y))


# --- held: Dot of non-vectors --------------------------------------------------------------------
@pytest.mark.parametrize("args,rhs", [((X, Y), X * Y), ((X, X), X ** 2),
                                      ((sp.Integer(1), sp.Integer(1)), 1)],
                         ids=["x.y", "x.x", "1.1"])
def test_a_dot_of_scalars_is_refused(args, rhs):
    Dot = _dot_class()
    with pytest.raises(DerivationError, match="vector atom"):
        check_theorem(one_step(Dot(*args), "=", rhs))


def test_a_dot_of_a_dot_is_refused():
    Dot = _dot_class()
    u, v = sp.symbols("u v", real=True)
    th = replace(one_step(Dot(Dot(u, v), u), "=", 0), vectors=("u", "v"))
    with pytest.raises(DerivationError):
        check_theorem(th)


# --- held: induction names and the checked copy -----------------------------------------------
def test_the_kernel_induction_names_avoid_the_claim_symbols():
    n, k = sp.symbols("T t", real=True)
    from verify.kernel import Fact
    from verify.kernel.claim_statements import ClaimStatement, SumGoal

    statement = ClaimStatement(integers=(n,), assumptions=(Fact(n, ">=", 0),),
                               sum=SumGoal(k, 1, n, k, "=", n * (n + 1) / 2))
    expected = sum_theorem(statement)
    names = {expected.proof.variable.name, expected.proof.index.name}
    assert names.isdisjoint({"T", "t"})


def test_a_theorem_swapped_after_the_snapshot_is_not_what_the_kernel_checks(monkeypatch):
    """The proposer's main is swapped for another (valid) theorem right after the snapshot
    (simulated: no proposer code runs there).  The kernel checks its own copy, whose statement
    it compared (session 39; before, it checked the proposer's object and compared a second
    time): the swap changes nothing, the outcome is the unswapped theorem's."""
    import verify.kernel.claim_statements as cs

    statement = _sum_statement()
    expected = sum_theorem(statement)
    other = one_step(X ** 2, ">=", 0, (Term(1, (Square(X),)),))
    real = cs.snapshot

    def snapshot_then_swap(theorem):
        copy = real(theorem)
        for field in ("name", "title", "vectors", "naturals", "hyps", "conclusions", "proof",
                      "family", "summary"):
            object.__setattr__(theorem, field, getattr(other, field))
        return copy

    with pytest.raises(KernelError) as plain:       # past the statement test, then refused
        check_claim(statement, ClaimProof((), replace(expected)))
    assert "state the claim" not in str(plain.value)
    monkeypatch.setattr(cs, "snapshot", snapshot_then_swap)
    main = replace(expected, conclusions=list(expected.conclusions))
    with pytest.raises(KernelError) as swapped:
        check_claim(statement, ClaimProof((), main))
    assert main.conclusions == other.conclusions                     # (it was swapped)
    assert type(swapped.value) is type(plain.value) and str(swapped.value) == str(plain.value)
