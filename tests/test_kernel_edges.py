"""The trusted kernel at its edges: boundaries, ties, refusals and conventions.

These tests were written to kill the mutants that ``make mutation`` (tests/mutation_testing.py)
found surviving: each pins one decision of the kernel exactly at the point where a flipped
comparison, a dropped ``raise`` or an off-by-one constant would change it.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
import sympy

from verify import kernel

# ---------------------------------------------------------------------------- derivations: objects


def test_every_kernel_record_is_a_frozen_dataclass():
    public = [getattr(kernel, name) for name in kernel.__all__]  # loaded on first use too
    records = [obj for obj in public if isinstance(obj, type) and dataclasses.is_dataclass(obj)]
    assert {r.__name__ for r in records} >= {
        "Fact", "Rewrite", "VectorDef", "Hyp", "Family", "Square", "NormSq", "Term", "EqTerm",
        "Certificate", "Link", "Chain", "LemmaUse", "Derivation", "Induction", "Theorem",
        "CheckedTheorem", "MarginFacts"}
    for record in records:
        assert record.__dataclass_params__.frozen, record.__name__


def test_dot_prints_as_a_norm_or_a_dot_product_in_latex():
    x, y = sympy.symbols("x y")
    assert sympy.latex(kernel.dot(x, x)) == r"\lVert x \rVert^{2}"
    assert sympy.latex(kernel.dot(x, x) ** 3) == r"\left(\lVert x \rVert^{2}\right)^{3}"
    assert sympy.latex(kernel.dot(x, y)) == r"x \cdot y"
    assert sympy.latex(kernel.dot(x, y) ** 2) == r"\left(x \cdot y\right)^{2}"


def test_the_dot_class_is_a_lazy_module_attribute_and_nothing_else_is():
    x, y = sympy.symbols("x y")
    assert kernel.Dot is type(kernel.dot(x, y))
    with pytest.raises(AttributeError, match="NoSuchName"):
        kernel.NoSuchName
    assert getattr(kernel, "dot_", None) is None


@pytest.mark.parametrize("relation", ["==", "!=", "=<", ""])
def test_a_fact_with_an_unknown_relation_is_refused(relation):
    with pytest.raises(kernel.DerivationError, match="unknown relation"):
        kernel.Fact(1, relation, 2)

def test_a_checked_theorem_hides_its_token_and_equal_checks_compare_equal():
    a = sympy.Symbol("a", real=True)
    first, second = (kernel.check_theorem(_one_step(a, "=", a)) for _ in range(2))
    assert first == second and "token" not in repr(first)


# ------------------------------------------------------------------------ derivations: hypotheses


def _one_step(start, rel, end, cert=kernel.Certificate(), hyps=(), vectors=(), conclusion=None):
    return kernel.Theorem("t", "t", vectors, (), tuple(hyps),
                          (conclusion or kernel.Fact(start, rel, end),),
                          kernel.Derivation((kernel.Chain("c", start,
                                                          (kernel.Link(rel, end, cert),)),)))


@pytest.mark.parametrize("second", [
    kernel.Hyp("h", kernel.Fact(1, ">=", 0)),     # a fact after a fact
    kernel.Hyp("h", kernel.Rewrite(sympy.Symbol("y"), 2, 1)),
])
def test_a_hypothesis_name_may_be_used_once(second):
    a = sympy.Symbol("a", real=True)
    for hyps in [(kernel.Hyp("h", kernel.Fact(a, ">=", 0)), second),
                 (kernel.Hyp("h", kernel.Rewrite(sympy.Symbol("y"), 2, 1)), second)]:
        with pytest.raises(kernel.DerivationError, match="'h' used twice"):
            kernel.check_theorem(_one_step(a, "=", a, hyps=hyps))


@pytest.mark.parametrize("power", [0, -1, Fraction(3, 2), 2.0, "2"])
def test_a_rewriting_rule_needs_a_positive_int_power(power):
    a, y = sympy.symbols("a y", real=True)
    hyps = (kernel.Hyp("r", kernel.Rewrite(y, power, 1)),)
    with pytest.raises(kernel.DerivationError, match="power must be a positive int"):
        kernel.check_theorem(_one_step(a, "=", a, hyps=hyps))


def test_a_rewriting_rule_of_power_one_replaces_the_symbol():
    a, y = sympy.symbols("a y", real=True)
    hyps = (kernel.Hyp("r", kernel.Rewrite(y, 1, 3)),)
    assert kernel.check_theorem(_one_step(a * y, "=", 3 * a, hyps=hyps)).declared == ("r",)


def test_a_vector_definition_must_define_a_vector_atom():
    u, v = sympy.symbols("u v")
    hyps = (kernel.Hyp("def", kernel.VectorDef(sympy.Symbol("s"), v)),)
    with pytest.raises(kernel.DerivationError, match="rule def: s is not a vector atom"):
        kernel.check_theorem(_one_step(kernel.dot(u, v), "=", kernel.dot(v, u), hyps=hyps,
                                       vectors=("u", "v")))


def test_a_hypothesis_of_an_unknown_kind_is_refused():
    a = sympy.Symbol("a", real=True)
    with pytest.raises(kernel.DerivationError, match="hypothesis h: unknown kind"):
        kernel.check_theorem(_one_step(a, "=", a, hyps=(kernel.Hyp("h", "a >= 0"),)))


def test_a_hypothesis_must_be_a_polynomial():
    a = sympy.Symbol("a", real=True)
    hyps = (kernel.Hyp("h", kernel.Fact(1 / a, ">=", 0)),)
    with pytest.raises(kernel.DerivationError, match="hypothesis h must be a polynomial"):
        kernel.check_theorem(_one_step(a, "=", a, hyps=hyps))


# --------------------------------------------------------------- derivations: vector definitions


def _definition_chain(depth):
    """v0 = v1, v1 = v2, ..., v(depth-1) = u: Dot(v0, u) needs ``depth`` rounds of definitions."""
    names = [f"v{i}" for i in range(depth)] + ["u"]
    symbols = [sympy.Symbol(n) for n in names]
    hyps = tuple(kernel.Hyp(f"d{i}", kernel.VectorDef(symbols[i], symbols[i + 1]))
                 for i in range(depth))
    u = symbols[-1]
    return _one_step(kernel.dot(symbols[0], u), "=", kernel.dot(u, u), hyps=hyps,
                     vectors=tuple(names))


def test_vector_definitions_nest_31_deep_and_no_deeper():
    assert len(kernel.check_theorem(_definition_chain(31)).declared) == 31
    with pytest.raises(kernel.DerivationError, match="vector definitions do not terminate"):
        kernel.check_theorem(_definition_chain(32))


def test_a_circular_vector_definition_is_refused():
    u, v = sympy.symbols("u v")
    hyps = (kernel.Hyp("loop", kernel.VectorDef(u, u + v)),)
    with pytest.raises(kernel.DerivationError, match="vector definitions do not terminate"):
        kernel.check_theorem(_one_step(kernel.dot(u, v), "=", kernel.dot(v, u), hyps=hyps,
                                       vectors=("u", "v")))


def test_only_the_vector_definitions_used_are_declared():
    u, v, w = sympy.symbols("u v w")
    hyps = (kernel.Hyp("dv", kernel.VectorDef(v, 2 * u)),
            kernel.Hyp("dw", kernel.VectorDef(w, 3 * u)))
    checked = kernel.check_theorem(_one_step(kernel.dot(v, u), "=", 2 * kernel.dot(u, u),
                                             hyps=hyps, vectors=("u", "v", "w")))
    assert checked.declared == ("dv",) and "vector-definition" in checked.rules
    plain = kernel.check_theorem(_one_step(kernel.dot(u, u), "=", kernel.dot(u, u), hyps=hyps,
                                           vectors=("u", "v", "w")))
    assert plain.declared == () and "vector-definition" not in plain.rules


@pytest.mark.parametrize("argument", ["u*v", "2", "u + 1"])
def test_a_dot_argument_must_be_a_combination_of_vector_atoms(argument):
    u, v = sympy.symbols("u v")
    bad = kernel.dot(sympy.sympify(argument, locals={"u": u, "v": v}), u)
    with pytest.raises(kernel.DerivationError, match="is not a scalar multiple of one vector atom"):
        kernel.check_theorem(_one_step(bad, "=", 0, vectors=("u", "v")))


# ------------------------------------------------------------------ derivations: rewriting rules


def _rewrite_chain(length):
    """Rules x(i) = x(i+1) declared last-first: x0 needs ``length`` rounds of rewriting."""
    xs = sympy.symbols(f"x0:{length + 1}", real=True)
    hyps = tuple(kernel.Hyp(f"r{i}", kernel.Rewrite(xs[i], 1, xs[i + 1]))
                 for i in reversed(range(length)))
    return _one_step(xs[0], "=", xs[-1], hyps=hyps)


def test_rewriting_takes_at_most_15_rounds():
    assert len(kernel.check_theorem(_rewrite_chain(15)).declared) == 15
    with pytest.raises(kernel.DerivationError, match="rewriting does not terminate"):
        kernel.check_theorem(_rewrite_chain(16))


def test_one_rule_rewrites_at_most_63_times_in_a_row():
    a, y = sympy.symbols("a y", real=True)
    hyps = (kernel.Hyp("y2", kernel.Rewrite(y, 2, 1)),)
    assert kernel.check_theorem(_one_step(a * y ** 126, "=", a, hyps=hyps))
    with pytest.raises(kernel.DerivationError, match="rule y2 does not terminate"):
        kernel.check_theorem(_one_step(a * y ** 128, "=", a, hyps=hyps))


# ------------------------------------------------------------------------ derivations: facts


@pytest.mark.parametrize("lhs, rel, rhs, holds", [
    (1, ">=", 1, True), (1, ">=", 2, False), (2, ">", 1, True), (1, ">", 1, False),
    (3, "=", 3, True), (1, "=", 2, False), (1, "<=", 1, True), (2, "<", 1, False),
])
def test_a_numeral_conclusion_is_decided_exactly(lhs, rel, rhs, holds):
    theorem = kernel.Theorem("n", "n", (), (), (), (kernel.Fact(lhs, rel, rhs),),
                             kernel.Derivation(()))
    if holds:
        assert kernel.check_theorem(theorem).steps == 0
    else:
        with pytest.raises(kernel.DerivationError, match="is not derived"):
            kernel.check_theorem(theorem)


@pytest.mark.parametrize("rel, holds", [("=", True), (">=", True), ("<=", True), (">", False)])
def test_an_equality_hypothesis_is_available_in_both_directions(rel, holds):
    a, b = sympy.symbols("a b", real=True)
    theorem = kernel.Theorem("e", "e", (), (), (kernel.Hyp("h", kernel.Fact(a, "=", b)),),
                             (kernel.Fact(b, rel, a),), kernel.Derivation(()))
    if holds:
        assert kernel.check_theorem(theorem)
    else:
        with pytest.raises(kernel.DerivationError, match="is not derived"):
            kernel.check_theorem(theorem)


def test_a_factor_must_name_an_inequality_and_a_divisor_a_strict_one():
    a, b = sympy.symbols("a b", real=True)
    hyps = (kernel.Hyp("eq", kernel.Fact(a, "=", 0)), kernel.Hyp("ge", kernel.Fact(a, ">=", 0)))
    with pytest.raises(kernel.DerivationError, match="'eq' is a =0 fact, a >=0/>0 fact is needed"):
        kernel.check_theorem(_one_step(a + 1, ">=", 1,
                                       kernel.Certificate((kernel.Term(1, ("eq",)),)), hyps))
    with pytest.raises(kernel.DerivationError, match="'ge' is a >=0 fact, a >0 fact is needed"):
        kernel.check_theorem(_one_step(a + 1, ">=", 1, kernel.Certificate(
            (kernel.Term(1, ("ge",)),), divisors=("ge",)), hyps))


# ------------------------------------------------------------------- derivations: certificates


def test_an_equality_step_takes_no_inequality_terms():
    a, b = sympy.symbols("a b", real=True)
    hyps = (kernel.Hyp("hb", kernel.Fact(b, ">=", 0)),)
    with pytest.raises(kernel.DerivationError, match="an equality step takes no inequality terms"):
        kernel.check_theorem(_one_step(a, "=", a + b,
                                       kernel.Certificate((kernel.Term(1, ("hb",)),)), hyps))


def test_a_zero_coefficient_is_allowed_but_is_never_strict():
    a = sympy.Symbol("a", real=True)
    hyps = (kernel.Hyp("ge", kernel.Fact(a, ">=", 0)), kernel.Hyp("gt", kernel.Fact(a, ">", 0)))
    terms = (kernel.Term(0, ("gt",)), kernel.Term(1, ("ge",)))
    assert kernel.check_theorem(_one_step(a + 1, ">=", 1, kernel.Certificate(terms), hyps))
    with pytest.raises(kernel.DerivationError, match="a strict step needs a positive term"):
        kernel.check_theorem(_one_step(a + 1, ">", 1, kernel.Certificate(terms), hyps))


def test_squares_and_norms_are_never_strict():
    x, y = sympy.symbols("x y", real=True)
    u = sympy.Symbol("u")
    with pytest.raises(kernel.DerivationError, match="a strict step needs a positive term"):
        kernel.check_theorem(_one_step(x ** 2 + y ** 2, ">", 2 * x * y, kernel.Certificate(
            (kernel.Term(1, (kernel.Square(x - y),)),))))
    with pytest.raises(kernel.DerivationError, match="a strict step needs a positive term"):
        kernel.check_theorem(_one_step(kernel.dot(u, u), ">", 0, kernel.Certificate(
            (kernel.Term(1, (kernel.NormSq(u),)),)), vectors=("u",)))


def test_an_unknown_certificate_factor_is_refused():
    a = sympy.Symbol("a", real=True)
    with pytest.raises(kernel.DerivationError, match="unknown certificate factor 42"):
        kernel.check_theorem(_one_step(a ** 2, ">=", 0, kernel.Certificate(
            (kernel.Term(1, (42,)),))))


# ------------------------------------------------------------------------ derivations: chains


def _chain(*links, hyps=()):
    a = sympy.Symbol("a", real=True)
    return kernel.Theorem("c", "c", (), (), tuple(hyps), (), kernel.Derivation(
        (kernel.Chain("c", a, tuple(kernel.Link(rel, expr, cert) for rel, expr, cert in links)),)))


def test_an_empty_chain_is_refused():
    with pytest.raises(kernel.DerivationError, match="line c: empty chain"):
        kernel.check_theorem(_chain())


def test_a_chain_with_an_unknown_relation_is_refused():
    a = sympy.Symbol("a", real=True)
    with pytest.raises(kernel.DerivationError, match="line c: unknown relation in \\['~'\\]"):
        kernel.check_theorem(_chain(("~", a, kernel.Certificate())))


def test_a_chain_may_not_mix_directions_even_with_every_relation():
    a = sympy.Symbol("a", real=True)
    one = kernel.Certificate((kernel.Term(1),))
    with pytest.raises(kernel.DerivationError, match="line c: chain mixes <= and >="):
        kernel.check_theorem(_chain(("<=", a + 1, one), (">=", a, one)))
    every = [("=", a, kernel.Certificate()), ("<=", a + 1, one), ("<", a + 2, one),
             (">=", a + 1, one), (">", a, one)]
    with pytest.raises(kernel.DerivationError, match="line c: chain mixes <= and >="):
        kernel.check_theorem(_chain(*every))


def test_a_failing_step_is_named_by_line_and_1_based_step():
    a = sympy.Symbol("a", real=True)
    with pytest.raises(kernel.DerivationError, match=r"line c, step 1 \(<=\): certificate does "
                                                     r"not match"):
        kernel.check_theorem(_chain(("<=", a - 1, kernel.Certificate((kernel.Term(1),)))))
    with pytest.raises(kernel.DerivationError, match=r"line c, step 2 \(<\): "):
        kernel.check_theorem(_chain(("<=", a + 1, kernel.Certificate((kernel.Term(1),))),
                                    ("<", a + 1, kernel.Certificate((kernel.Term(1),)))))


def test_transitivity_is_used_only_by_chains_of_two_or_more_steps():
    a = sympy.Symbol("a", real=True)
    one = kernel.Certificate((kernel.Term(1),))
    assert "transitivity" not in kernel.check_theorem(_chain(("<", a + 1, one))).rules
    assert "transitivity" in kernel.check_theorem(
        _chain(("<", a + 1, one), ("<=", a + 2, one))).rules


@pytest.mark.parametrize("rel", [">", "<"])
def test_a_chain_is_strict_exactly_when_one_of_its_steps_is(rel):
    a, b = sympy.symbols("a b", real=True)
    weak, strict = rel + "=", rel
    start, end = (a + b, b) if rel == ">" else (b, a + b)

    def theorem(hyp_rel, links, conclusion_rel):
        return kernel.Theorem("s", "s", (), (), (kernel.Hyp("h", kernel.Fact(a, hyp_rel, 0)),),
                              (kernel.Fact(start, conclusion_rel, end),),
                              kernel.Derivation((kernel.Chain("c", start, links),)))

    by_h = kernel.Certificate((kernel.Term(1, ("h",)),))
    with pytest.raises(kernel.DerivationError, match="is not derived"):
        kernel.check_theorem(theorem(">=", (kernel.Link(weak, end, by_h),), strict))
    assert kernel.check_theorem(theorem(">=", (kernel.Link(weak, end, by_h),), weak))
    assert kernel.check_theorem(theorem(">", (kernel.Link(strict, end, by_h),), strict))
    assert kernel.check_theorem(theorem(">", (kernel.Link(weak, end, by_h),
                                              kernel.Link("=", end)), weak))


# ------------------------------------------------------------------------ derivations: lemmas

A, B, N, T, I = sympy.symbols("a b N T i", real=True)
U, V = sympy.symbols("u v")


def _checked(theorem):
    return kernel.check_theorem(theorem)


def _natural_lemma():
    """N >= 0 for a natural N (by the rule naturals-nonneg)."""
    return _checked(kernel.Theorem("nat", "nat", (), (N,), (), (kernel.Fact(N, ">=", 0),),
                                   kernel.Derivation(())))


def _induction_lemma():
    """T >= 0, by induction on T."""
    step = kernel.Derivation((kernel.Chain("s", I + 1, (kernel.Link(">=", 0, kernel.Certificate(
        (kernel.Term(1, ("IH",)), kernel.Term(1)))),)),))
    return _checked(kernel.Theorem("ind", "ind", (), (T,), (), (kernel.Fact(T, ">=", 0),),
                                   kernel.Induction(T, I, kernel.Derivation(()), step)))


def _use(lemma, substitution, conclusion, naturals=(), hyps=(), vectors=(), number=0):
    return kernel.Theorem("use", "use", vectors, naturals, hyps, (conclusion,),
                          kernel.Derivation((kernel.LemmaUse("l", lemma, substitution,
                                                             number),)))


@pytest.mark.parametrize("image, natural", [
    (2, True), (0, True), (sympy.Symbol("t") + 1, True), (sympy.Symbol("t"), True),
    (-1, False), (sympy.Rational(1, 2), False), (A, False),
    (sympy.Symbol("t") + sympy.Symbol("s"), False), (sympy.Symbol("t") - 1, False),
])
def test_a_natural_of_a_lemma_maps_only_to_a_natural(image, natural):
    naturals = (sympy.Symbol("t"), sympy.Symbol("s"))
    theorem = _use(_natural_lemma(), ((N, image),), kernel.Fact(image, ">=", 0), naturals)
    if natural:
        assert _checked(theorem).lemmas == ("nat",)
    else:
        with pytest.raises(kernel.DerivationError, match="N must map to a natural number"):
            _checked(theorem)


def test_the_induction_variable_of_a_lemma_maps_only_to_a_natural():
    assert _checked(_use(_induction_lemma(), ((T, 3),), kernel.Fact(3, ">=", 0)))
    with pytest.raises(kernel.DerivationError, match="line l: -1 is not a natural number here"):
        _checked(_use(_induction_lemma(), ((T, -1),), kernel.Fact(-1, ">=", 0)))


def test_only_a_checked_theorem_is_a_lemma():
    theorem = kernel.Theorem("nat", "nat", (), (N,), (), (kernel.Fact(N, ">=", 0),),
                             kernel.Derivation(()))
    forged = object.__new__(kernel.CheckedTheorem)
    for name, value in [("theorem", theorem), ("rules", ()), ("declared", ()), ("lemmas", ()),
                        ("steps", 0), ("token", object())]:
        object.__setattr__(forged, name, value)
    for fake in (theorem, forged):
        with pytest.raises(kernel.DerivationError, match="line l: lemma is not a checked theorem"):
            _checked(_use(fake, ((N, 1),), kernel.Fact(1, ">=", 0)))


def test_a_lemma_substitutes_symbols_only():
    with pytest.raises(kernel.DerivationError, match="can only substitute symbols, not N \\+ 1"):
        _checked(_use(_natural_lemma(), ((N + 1, 2),), kernel.Fact(1, ">=", 0)))


def test_a_lemma_vector_must_be_a_vector_where_it_is_used():
    symmetric = _checked(kernel.Theorem("sym", "sym", ("u", "v"), (), (), (
        kernel.Fact(kernel.dot(U, V), "=", kernel.dot(V, U)),), kernel.Derivation((
            kernel.Chain("c", kernel.dot(U, V), (kernel.Link("=", kernel.dot(V, U)),)),))))
    w = sympy.Symbol("w")
    assert _checked(_use(symmetric, (), kernel.Fact(kernel.dot(U, V), "=", kernel.dot(V, U)),
                         vectors=("u", "v")))
    assert _checked(_use(symmetric, ((U, w), (V, w)),
                         kernel.Fact(kernel.dot(w, w), "=", kernel.dot(w, w)), vectors=("w",)))
    with pytest.raises(kernel.DerivationError, match="line l: lemma vector v is not a vector here"):
        _checked(_use(symmetric, ((U, w),), kernel.Fact(1, "=", 1), vectors=("w",)))


@pytest.mark.parametrize("number", [1, -1])
def test_a_lemma_conclusion_must_exist(number):
    with pytest.raises(kernel.DerivationError, match=f"nat has no conclusion {number}"):
        _checked(_use(_natural_lemma(), ((N, 1),), kernel.Fact(1, ">=", 0), number=number))


@pytest.mark.parametrize("available, holds", [
    (kernel.Rewrite(B, 2, 1), True), (kernel.Rewrite(B, 3, 1), False),
    (kernel.Rewrite(A, 2, 1), False), (kernel.Rewrite(B, 2, 4), False),
])
def test_a_lemma_rewriting_rule_must_be_declared_with_the_same_power_and_value(available, holds):
    lemma = _checked(kernel.Theorem("sq", "sq", (), (), (kernel.Hyp("r", kernel.Rewrite(B, 2, 1)),),
                                    (kernel.Fact(A * B ** 2, "=", A),), kernel.Derivation((
                                        kernel.Chain("c", A * B ** 2, (kernel.Link("=", A),)),))))
    theorem = _use(lemma, (), kernel.Fact(A * B ** 2, "=", A),
                   hyps=(kernel.Hyp("mine", available),))
    if holds:
        assert _checked(theorem)
    else:
        with pytest.raises(kernel.DerivationError, match="hypothesis r of sq is not available"):
            _checked(theorem)


def test_a_per_step_hypothesis_the_kernel_cannot_read_is_refused_at_once():
    family = kernel.Family(I, T, (kernel.Hyp("odd", 1),))
    with pytest.raises(kernel.DerivationError, match="odd: hypothesis odd: unknown kind int"):
        _checked(kernel.Theorem("odd", "odd", (), (T,), (), (kernel.Fact(T, ">=", 0),),
                                kernel.Derivation(()), family=family))


# ----------------------------------------------------------------- derivations: lines, theorems


@pytest.mark.parametrize("name", ["c", "h", "N>=0"])
def test_a_line_name_may_be_used_once(name):
    line = kernel.Chain(name, A, (kernel.Link("=", A),))
    theorem = kernel.Theorem("t", "t", (), (N,), (kernel.Hyp("h", kernel.Fact(A, ">=", 0)),), (),
                             kernel.Derivation((kernel.Chain("c", A, (kernel.Link("=", A),)),
                                                line) if name == "c" else (line,)))
    with pytest.raises(kernel.DerivationError, match=f"line name '{name}' used twice"):
        kernel.check_theorem(theorem)


def test_a_line_that_is_neither_a_chain_nor_a_lemma_is_refused():
    theorem = kernel.Theorem("t", "t", (), (), (), (), kernel.Derivation(
        (kernel.Hyp("x", kernel.Fact(A, ">=", 0)),)))
    with pytest.raises(kernel.DerivationError, match="unknown line Hyp"):
        kernel.check_theorem(theorem)


# ------------------------------------------------------------------------ derivations: induction

C = sympy.IndexedBase("c")
J = sympy.Symbol("j", real=True)


def _induction(hyps=(), family=None, naturals=(T,), conclusions=None, variable=T, index=I,
               step=None):
    """c[T] >= c[0] by induction on T from c[i+1] >= c[i] (a per-step hypothesis)."""
    family = family if family is not None else kernel.Family(I, T, (kernel.Hyp(
        "grow", kernel.Fact(C[I + 1], ">=", C[I])),))
    step = step or kernel.Derivation((kernel.Chain("s", C[I + 1], (
        kernel.Link(">=", C[I], kernel.Certificate((kernel.Term(1, ("grow",)),))),
        kernel.Link(">=", C[0], kernel.Certificate((kernel.Term(1, ("IH",)),))))),))
    base = kernel.Derivation((kernel.Chain("b", C[0], (kernel.Link("=", C[0]),)),))
    return kernel.Theorem("ind", "ind", (), naturals, tuple(hyps),
                          conclusions or (kernel.Fact(C[T], ">=", C[0]),),
                          kernel.Induction(variable, index, base, step), family=family)


def test_an_induction_over_a_natural_with_fresh_index_is_accepted():
    checked = kernel.check_theorem(_induction())
    assert "induction" in checked.rules and checked.steps == 3


def test_an_induction_variable_must_be_a_natural():
    with pytest.raises(kernel.DerivationError, match="ind: induction variable T is not a natural"):
        kernel.check_theorem(_induction(naturals=()))


def test_per_step_hypotheses_must_run_to_the_induction_variable():
    family = kernel.Family(I, T + 1, (kernel.Hyp("grow", kernel.Fact(C[I + 1], ">=", C[I])),))
    with pytest.raises(kernel.DerivationError, match="ind: per-step hypotheses must run to T"):
        kernel.check_theorem(_induction(family=family))


@pytest.mark.parametrize("symbol", [T, I])
def test_a_hypothesis_of_an_induction_may_not_mention_its_variable_or_index(symbol):
    hyps = (kernel.Hyp("h", kernel.Fact(symbol, ">=", 0)),)
    with pytest.raises(kernel.DerivationError, match="ind: hypothesis h mentions the induction "
                                                     "variable T or index i"):
        kernel.check_theorem(_induction(hyps=hyps))


@pytest.mark.parametrize("index, mentioned, allowed", [
    (I, T, False), (I, I, True), (J, I, False), (J, T, False), (J, J, True),
])
def test_a_per_step_hypothesis_may_mention_only_its_own_index(index, mentioned, allowed):
    hyps = (kernel.Hyp("grow", kernel.Fact(C[index + 1], ">=", C[index])),
            kernel.Hyp("g", kernel.Fact(C[index] ** 2 + (mentioned - index) ** 2, ">=", 0)))
    theorem = _induction(family=kernel.Family(index, T, hyps))
    if allowed:
        assert kernel.check_theorem(theorem)
    else:
        with pytest.raises(kernel.DerivationError, match="ind: per-step hypothesis g mentions"):
            kernel.check_theorem(theorem)


def test_an_induction_index_must_be_fresh_in_the_conclusions():
    with pytest.raises(kernel.DerivationError, match="ind: the induction index i must be fresh"):
        kernel.check_theorem(_induction(conclusions=(kernel.Fact(C[T] + I, ">=", C[0] + I),)))


def test_an_induction_with_two_conclusions_has_two_hypotheses_ih1_and_ih2():
    conclusions = (kernel.Fact(C[T], ">=", C[0]), kernel.Fact(2 * C[T], ">=", 2 * C[0]))
    step = kernel.Derivation((
        kernel.Chain("s1", C[I + 1], (
            kernel.Link(">=", C[I], kernel.Certificate((kernel.Term(1, ("grow",)),))),
            kernel.Link(">=", C[0], kernel.Certificate((kernel.Term(1, ("IH1",)),))))),
        kernel.Chain("s2", 2 * C[I + 1], (
            kernel.Link(">=", 2 * C[I], kernel.Certificate((kernel.Term(2, ("grow",)),))),
            kernel.Link(">=", 2 * C[0], kernel.Certificate((kernel.Term(1, ("IH2",)),))))),
    ))
    assert kernel.check_theorem(_induction(conclusions=conclusions, step=step))
    with pytest.raises(kernel.DerivationError, match="no hypothesis or earlier line named 'IH'"):
        kernel.check_theorem(_induction(conclusions=conclusions))


def test_the_other_naturals_of_an_induction_stay_natural_in_base_and_step():
    base = kernel.Derivation((kernel.Chain("b", C[0] + N, (kernel.Link(
        ">=", C[0], kernel.Certificate((kernel.Term(1, ("N>=0",)),))),)),))
    step = kernel.Derivation((kernel.Chain("s", C[I + 1] + N, (
        kernel.Link(">=", C[I] + N, kernel.Certificate((kernel.Term(1, ("grow",)),))),
        kernel.Link(">=", C[0], kernel.Certificate((kernel.Term(1, ("IH",)),))))),))
    theorem = dataclasses.replace(_induction(naturals=(T, N)), conclusions=(
        kernel.Fact(C[T] + N, ">=", C[0]),), proof=kernel.Induction(T, I, base, step))
    assert kernel.check_theorem(theorem).steps == 3
    without_n = dataclasses.replace(theorem, naturals=(T,))
    with pytest.raises(kernel.DerivationError, match="no hypothesis or earlier line named 'N>=0'"):
        kernel.check_theorem(without_n)


def test_an_induction_step_must_prove_the_next_case_not_the_current_one():
    with pytest.raises(kernel.DerivationError, match=r"conclusion c\[i \+ 1\] >= c\[0\] is not "
                                                     r"derived"):
        kernel.check_theorem(_induction(step=kernel.Derivation(())))


def test_a_proof_of_an_unknown_kind_is_refused():
    theorem = kernel.Theorem("odd", "odd", (), (), (), (), proof="by inspection")
    with pytest.raises(kernel.DerivationError, match="odd: unknown proof kind"):
        kernel.check_theorem(theorem)


# ---------------------------------------------------------------------------- certificates: data


@pytest.mark.parametrize("scale", [0, -1, True, 1.0, Fraction(1)])
def test_data_scale_must_be_a_positive_int(scale):
    with pytest.raises(kernel.CertificateError, match="scale must be a positive int"):
        kernel.check_separator([[1]], scale, [1], [1])


def test_data_scale_one_is_accepted():
    assert kernel.check_separator([[1]], 1, [1], [1]).rho == 1


@pytest.mark.parametrize("rows, labels", [([], []), ([[1]], []), ([[1], [2]], [1])])
def test_data_needs_as_many_labels_as_rows_and_at_least_one_row(rows, labels):
    with pytest.raises(kernel.CertificateError, match="rows and"):
        kernel.check_separator(rows, 1, labels, [1])


@pytest.mark.parametrize("label", [0, 2, -2, True, Fraction(1, 2)])
def test_data_labels_are_plus_or_minus_one(label):
    with pytest.raises(kernel.CertificateError, match="not \\+1 or -1") as caught:
        kernel.check_separator([[1], [1]], 1, [1, label], [1])
    assert caught.value.index == 1


@pytest.mark.parametrize("rows", [[[1, 2], [1]], [[1, 2], [1, 2, 3]], [[1, 2], [1, True]],
                                  [[1, 2], [1, Fraction(1)]], [[1, 2], [1, 2.0]]])
def test_data_rows_are_ints_of_one_length(rows):
    with pytest.raises(kernel.CertificateError, match="row 1 is not 2 ints") as caught:
        kernel.check_separator(rows, 1, [1, 1], [1, 1])
    assert caught.value.index == 1


@pytest.mark.parametrize("w", [[1], [1, 1, 1]])
def test_weights_of_the_wrong_length_are_refused(w):
    with pytest.raises(kernel.CertificateError, match="expected 2"):
        kernel.check_separator([[1, 1]], 1, [1], w)


def test_squared_radius_is_the_largest_squared_norm_over_the_squared_scale():
    assert kernel.squared_radius([[1, 2], [3, 0], [0, -2]], 2) == Fraction(9, 4)
    assert kernel.squared_radius([[0, 0]], 3) == 0


# ---------------------------------------------------------------------- certificates: separator


def test_separator_margin_is_exact_over_mixed_denominators():
    # w = (1/2, 1/3, -1/6) over scale 3: y w.x = y (3 a + 2 b - c) / 18
    rows, labels = [[3, 3, 0], [1, -3, 3], [6, 0, 6]], [1, -1, 1]
    w = [Fraction(1, 2), Fraction(1, 3), Fraction(-1, 6)]
    facts = kernel.check_separator(rows, 3, labels, w)
    values = [y * sum(a * Fraction(v, 3) for a, v in zip(w, row)) for row, y in zip(rows, labels)]
    assert facts.rho == min(values) == Fraction(1, 3) and facts.argmin == 1


def test_separator_argmin_is_the_first_row_attaining_the_margin():
    facts = kernel.check_separator([[2], [1], [-1], [1]], 1, [1, 1, -1, 1], [1])
    assert facts == kernel.MarginFacts(Fraction(1), 1)


def test_separator_rejects_a_zero_score_and_names_the_first_bad_row():
    with pytest.raises(kernel.CertificateError, match="row 1: y w.x = 0 <= 0") as caught:
        kernel.check_separator([[1, 0], [0, 1], [0, -1]], 1, [1, 1, 1], [1, 0])
    assert caught.value.index == 1


def test_separator_reports_the_exact_negative_score():
    with pytest.raises(kernel.CertificateError, match=r"row 0: y w.x = -3/4 <= 0"):
        kernel.check_separator([[3, 1]], 2, [-1], [Fraction(1, 2), 0])


# ------------------------------------------------------------------- certificates: max margin


LINE_ROWS, LINE_LABELS = [[1, -3], [1, -2], [1, 2], [1, 5]], [-1, -1, 1, 1]


def test_max_margin_accepts_zero_multipliers_and_returns_the_squared_norm():
    # w* = (0, 1/2): margins 3/2, 1, 1, 5/2; alpha on the two support vectors only
    norm2 = kernel.check_max_margin(LINE_ROWS, 1, LINE_LABELS, [0, Fraction(1, 2)],
                                    [0, Fraction(1, 8), Fraction(1, 8), 0])
    assert norm2 == Fraction(1, 4)


def test_max_margin_with_a_scale_and_mixed_denominators():
    # the rows over scale 2 (x = rows / 2): w* = (0, 1), alpha = (0, 1/2, 1/2, 0)
    assert kernel.check_max_margin(LINE_ROWS, 2, LINE_LABELS, [0, 1],
                                   [0, Fraction(1, 2), Fraction(1, 2), 0]) == 1


def test_max_margin_rejects_a_negative_multiplier_by_row():
    with pytest.raises(kernel.CertificateError, match=r"alpha\[3\] = -1/8 < 0") as caught:
        kernel.check_max_margin(LINE_ROWS, 1, LINE_LABELS, [0, Fraction(1, 2)],
                                [0, Fraction(1, 8), Fraction(1, 8), Fraction(-1, 8)])
    assert caught.value.index == 3


def test_max_margin_checks_stationarity_in_every_coordinate():
    # bias coordinate right, second coordinate wrong: the error names coordinate 1
    with pytest.raises(kernel.CertificateError, match="in coordinate 1"):
        kernel.check_max_margin(LINE_ROWS, 1, LINE_LABELS, [0, 1],
                                [0, Fraction(1, 8), Fraction(1, 8), 0])


def test_max_margin_primal_feasibility_names_the_row_below_one():
    # w = (0, 1/4) = sum alpha y x with alpha = (0, 1/16, 1/16, 0): margins 3/4, 1/2, 1/2, 5/4
    with pytest.raises(kernel.CertificateError, match=r"primal feasibility: row 0: y w.x = 3/4 < 1") \
            as caught:
        kernel.check_max_margin(LINE_ROWS, 1, LINE_LABELS, [0, Fraction(1, 4)],
                                [0, Fraction(1, 16), Fraction(1, 16), 0])
    assert caught.value.index == 0


def test_max_margin_complementary_slackness_names_the_row():
    # w = (0, 1): alpha = (0, 1/4, 1/4, 0); rows 1, 2 have margin 2 but a positive multiplier
    with pytest.raises(kernel.CertificateError, match=r"complementary slackness: row 1: "
                                                      r"alpha = 1/4 > 0 but y w.x = 2 != 1"):
        kernel.check_max_margin(LINE_ROWS, 1, LINE_LABELS, [0, 1],
                                [0, Fraction(1, 4), Fraction(1, 4), 0])


# ---------------------------------------------------------------------- certificates: Gordan


def test_gordan_accepts_zero_entries_and_fractions():
    rows, labels = [[1, 0], [1, 0], [1, 5]], [1, -1, 1]
    kernel.check_gordan(rows, 1, labels, [Fraction(1, 3), Fraction(1, 3), 0])


def test_gordan_names_the_negative_entry_and_the_nonzero_coordinate():
    rows, labels = [[1, 0], [1, 0], [1, 5]], [1, -1, 1]
    with pytest.raises(kernel.CertificateError, match=r"lambda\[2\] < 0") as caught:
        kernel.check_gordan(rows, 1, labels, [1, 1, -1])
    assert caught.value.index == 2
    with pytest.raises(kernel.CertificateError, match="in coordinate 1"):
        kernel.check_gordan([[1, 0], [1, 1]], 1, [1, -1], [1, 1])


# -------------------------------------------------------------------- certificates: mistakes


# scores w.x of the rows below for w = (0, 1): -1, 0, 0, 2, 2, -3, 1, -1
MISTAKE_ROWS = [[1, -1], [1, 0], [1, 0], [1, 2], [1, 2], [1, -3], [1, 1], [1, -1]]
MISTAKE_LABELS = [1, 1, -1, 1, -1, -1, 1, -1]  # wrong, zero, zero, right, wrong, right, right, right


@pytest.mark.parametrize("zero, expected", [
    ("mistake", 4), ("positive", 3), ("negative", 3), ("correct", 2),
])
def test_count_mistakes_under_each_sign_convention(zero, expected):
    assert kernel.count_mistakes(MISTAKE_ROWS, 1, MISTAKE_LABELS, [0, 1], zero) == expected
    # the same signs beyond int64 (the scores are then Python integers, not an int64 array)
    assert kernel.count_mistakes(MISTAKE_ROWS, 1, MISTAKE_LABELS, [0, 2**70], zero) == expected


def test_count_mistakes_zero_score_rules_by_label():
    for zero, wrong_labels in [("mistake", {1, -1}), ("positive", {-1}), ("negative", {1}),
                               ("correct", set())]:
        for y in (1, -1):
            assert kernel.count_mistakes([[0, 0]], 1, [y], [1, 1], zero) == (y in wrong_labels)


def test_count_mistakes_nonzero_scores_ignore_the_convention():
    for zero in kernel.ZERO_RULES:
        assert kernel.count_mistakes([[1], [-1], [1], [-1]], 1, [1, -1, -1, 1], [1], zero) == 2


def test_count_mistakes_default_convention_counts_zero_scores():
    assert kernel.count_mistakes([[0]], 1, [1], [1]) == 1


def test_count_mistakes_refuses_an_unknown_convention():
    with pytest.raises(kernel.CertificateError, match="unknown zero convention"):
        kernel.count_mistakes([[1]], 1, [1], [1], zero="sometimes")


def test_check_mistake_count_accepts_only_the_exact_count():
    kernel.check_mistake_count(MISTAKE_ROWS, 1, MISTAKE_LABELS, [0, 1], 4)
    kernel.check_mistake_count(MISTAKE_ROWS, 1, MISTAKE_LABELS, [0, 1], 2, zero="correct")
    for wrong in (3, 5, 0):
        with pytest.raises(kernel.CertificateError, match=f"w makes 4 mistakes, not the claimed "
                                                          f"{wrong}"):
            kernel.check_mistake_count(MISTAKE_ROWS, 1, MISTAKE_LABELS, [0, 1], wrong)


def test_a_claimed_count_or_a_zero_rule_of_another_type_is_refused():
    """The claim is compared only as a builtin int (a float or bool equal to the count, or an
    int subclass, would decide the comparison with its own ==); a zero rule only as a str."""
    class Rule(str):
        pass

    for claimed in (4.0, Fraction(4), True):
        with pytest.raises(kernel.CertificateError, match="is not an int"):
            kernel.check_mistake_count(MISTAKE_ROWS, 1, MISTAKE_LABELS, [0, 1], claimed)
    with pytest.raises(kernel.CertificateError, match="unknown zero convention"):
        kernel.count_mistakes(MISTAKE_ROWS, 1, MISTAKE_LABELS, [0, 1], Rule("mistake"))
