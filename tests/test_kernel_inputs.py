"""The kernel's input walk (verify/kernel/inputs.py) refuses, node by node, everything that is not
a polynomial in plain real symbols and Dot atoms -- each refusal below was a surviving mutant
of ``make mutation`` (the walk skipped a check and no test noticed)."""

from __future__ import annotations

import pytest
import sympy as sp

from verify.kernel.inputs import expression
from verify.kernel.terms import DerivationError, dot

x = sp.Symbol("x", real=True)
t = sp.Symbol("t", real=True)
w = sp.Symbol("w", real=True)
v = sp.Symbol("v", real=True)


class _SneakyInteger(sp.Integer):
    """An Integer subclass from outside sympy: a proposer could override its arithmetic."""


class _SneakyIndexedBase(sp.IndexedBase):
    """An IndexedBase subclass: could carry its own assumptions or printing."""


def _refused(e, vectors=frozenset(), match="", **options):
    with pytest.raises(DerivationError, match=match):
        expression(e, frozenset(vectors), **options)


def test_plain_real_symbols_are_accepted_and_any_other_assumption_is_refused():
    assert expression(2 * x + sp.Symbol("y"), frozenset()) == 2 * x + sp.Symbol("y")
    assert expression(sp.Symbol("c", commutative=True), frozenset()) == sp.Symbol("c")
    _refused(sp.Symbol("z", real=False), match="assumption real=False")
    _refused(sp.Symbol("p", positive=True), match="assumption positive=True")


def test_a_bool_is_not_the_integer_it_subclasses():
    _refused(True, match="True is not an expression")
    _refused(False, match="False is not an expression")
    assert expression(1, frozenset()) == 1


def test_a_vector_outside_dot_is_refused_unless_the_caller_allows_vector_expressions():
    _refused(2 * w, {"w"}, match="vector w used as a scalar")
    assert expression(2 * w, frozenset({"w"}), vectors_free=True) == 2 * w
    assert expression(dot(w, v) + x, frozenset({"w", "v"})) == dot(w, v) + x
    _refused(w ** 2, {"w"}, match="vector w used as a scalar")          # a power's base


def test_an_indexed_vector_outside_dot_is_refused():
    W = sp.IndexedBase("W")
    _refused(W[t] + 1, {"W"}, match=r"vector W\[t\] used as a scalar")
    assert expression(dot(W[t], v), frozenset({"W", "v"})) == dot(W[t], v)


@pytest.mark.parametrize("indexed", [
    lambda: _SneakyIndexedBase("y")[t],                 # a subclass of IndexedBase
    lambda: sp.IndexedBase(sp.Dummy("y"))[t],           # a label that is not a Symbol
    lambda: sp.IndexedBase("y", shape=(3,))[t],         # a base with more than a name
])
def test_an_indexed_scalar_needs_a_plain_base(indexed):
    _refused(indexed(), match="not an indexed symbol with a plain name")


def test_the_label_and_the_indices_of_an_indexed_scalar_are_checked():
    _refused(sp.IndexedBase(sp.Symbol("y", positive=True))[t], match="assumption positive")
    _refused(sp.IndexedBase("y")[sp.Symbol("n", integer=True)], match="assumption integer")
    assert expression(sp.IndexedBase("y")[t + 1], frozenset()) == sp.IndexedBase("y")[t + 1]


def test_a_number_class_from_outside_sympy_is_refused_as_a_value_and_as_an_exponent():
    sneaky = _SneakyInteger(10 ** 30)
    assert type(sneaky) is _SneakyInteger
    _refused(sneaky, match="the number 10+ is not allowed")
    _refused(sp.Pow(x, _SneakyInteger(10 ** 30), evaluate=False),
             match="only integer powers are allowed")
    assert expression(x ** 3 * sp.Rational(1, 3), frozenset()) == x ** 3 / 3


def test_the_arguments_of_dot_are_walked():
    _refused(dot(sp.Symbol("u", positive=True), w), {"u", "w"}, match="assumption positive")
    _refused(dot(sp.sqrt(w), w), {"w"}, match="only integer powers")


def test_each_refusal_names_what_was_refused():
    _refused(sp.sin(x), match=r"sin\(x\) \(sin\) is not allowed in the kernel")
    _refused(sp.Float(0.5), match="the number 0.5000* is not allowed")
    _refused(sp.I * x, match="I is not allowed")
    _refused("x", match="str 'x' is not an expression")


# --- the checked copy of a theorem (snapshot) --------------------------------------------------
from verify.kernel.inputs import snapshot  # noqa: E402
from verify.kernel.terms import (  # noqa: E402
    Certificate, Chain, Derivation, Fact, Hyp, Induction, LemmaUse, Link, Rewrite, Term, Theorem,
)


def _theorem(**changes):
    base = dict(name="t", title="t", vectors=(), naturals=(), hyps=(),
                conclusions=(Fact(x, "=", x),), proof=Derivation(()))
    return Theorem(**{**base, **changes})


def _forced(obj, **fields):
    """``obj`` with fields set past the dataclass's own checks (as a hostile proposer can)."""
    for name, value in fields.items():
        object.__setattr__(obj, name, value)
    return obj


def _snapshot_refuses(theorem, match):
    with pytest.raises(DerivationError, match=match):
        snapshot(theorem)


class _MyFact(Fact):
    pass


def test_snapshot_refuses_what_is_not_made_of_the_kernels_own_classes():
    _snapshot_refuses("a theorem", "is not a kernel Theorem")
    _snapshot_refuses(_forced(_theorem(), name=7), "7 is not a name")
    _snapshot_refuses(_forced(_theorem(), conclusions={Fact(x, "=", x)}), "set is not a tuple")
    _snapshot_refuses(_theorem(conclusions=(_MyFact(x, "=", x),)), "is not a kernel Fact")
    _snapshot_refuses(_theorem(hyps=(Hyp("h", _forced(Fact(x, "=", x), rel=">>")),)),
                      "unknown relation|>>")
    _snapshot_refuses(_theorem(hyps=(Hyp("h", "x >= 0"),)), "hypothesis h: unknown kind str")
    _snapshot_refuses(_theorem(hyps=(Hyp("h", _forced(Rewrite(x, 2, t), power=2.0)),)),
                      "rule h: power must be a positive int")
    _snapshot_refuses(_theorem(proof="by inspection"), "unknown proof kind")
    _snapshot_refuses(_theorem(proof=Derivation(("a line",))), "unknown line 'a line'")
    link = Link("=", x, Certificate((Term(1, (3.5,)),)))
    _snapshot_refuses(_theorem(proof=Derivation((Chain("c", x, (link,)),))),
                      "unknown certificate factor 3.5")


def test_snapshot_refuses_a_lemma_use_that_substitutes_a_non_symbol_or_names_no_conclusion():
    use = LemmaUse("u", None, ((x + 1, t),), 0)
    _snapshot_refuses(_theorem(proof=Derivation((use,))),
                      "line u: can only substitute symbols, not x \\+ 1")
    use = LemmaUse("u", None, ((x, t),), "0")
    _snapshot_refuses(_theorem(proof=Derivation((use,))), "line u: conclusion must be an int")


def test_snapshot_copies_an_induction_and_walks_its_variable():
    proof = Induction(sp.Symbol("T", positive=True), t, Derivation(()), Derivation(()))
    _snapshot_refuses(_theorem(proof=proof), "assumption positive")
    copy = snapshot(_theorem(proof=Induction(x, t, Derivation(()), Derivation(()))))
    assert type(copy.proof) is Induction and copy.proof.variable == x
