"""Attacks on divisors as written, and on the claim checks no test reached (session 39b).

Divisors as written: sympy's ``together`` cancels ``d * d**(-1)`` to 1, so the positive-divisor
rule, which read a line's denominators after ``together``, checked ``x/x = 1`` with no
hypothesis (undefined at x = 0; false under Coq's x/0 = 0).  The same cancellation let the
line through four other doors: a conclusion matched by a derived ``0 = 0``, an antisymmetry
line after a derived ``0 <= 0``, squaring both sides (``x/x >= 1``), and a divisor inside a
``Dot`` argument.  Mended: every divisor *as written* (each ``Pow`` of negative exponent, in
sums, products, powers, Dot atoms and indices) must be known nonzero: each irreducible factor
of it divides a ``> 0`` fact (a positive divisor of the step is one), and none may be 0.

Claim checks (mutation survivors of ``verify/kernel/claim_statements.py``): a claim's theorem
with per-step hypotheses but no naturals, one declaring a vector the claim does not have, an
induction on another variable or index or no induction at all, and an induction theorem that
changes between the two reads of ``_check_induction``: each is refused, with its own message.

A hole found here and mended (inputs.py): the walk admitted a compound whose ``_args`` is a
``tuple`` subclass; its arguments could read one way inside ``check_theorem`` and another
outside, so ``check_claim`` compared one statement's text while the kernel checked another, and
the false claim ``x**2 + y**2 >= 2*x*y + 1`` was proved.  The walk refuses such a node now.

Every forged object is fresh (``node``); no cached sympy object is mutated.
"""

from __future__ import annotations

import sys
from dataclasses import replace

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.test_attacks_session38 import X, Y, _sum_statement, node, one_step, theorem
from verify.kernel import (
    Antisymmetry, Certificate, Chain, Derivation, Fact, Hyp, Induction, Link, Square,
    SquareCompare, Term, Theorem, check_theorem,
)
from verify.kernel.claim_statements import (
    ClaimProof, ClaimStatement, Goal, check_claim, sum_theorem,
)
from verify.kernel.statements import expression_text, statement_text
from verify.kernel.terms import DerivationError, Family, _dot_class

T, t = sp.symbols("T t", real=True)
NOT_COVERED = "written divisor .* is not covered by positive facts"


def inverse(d, k=1):
    """``d**(-k)`` as written (never evaluated)."""
    return node(sp.Pow, d, sp.Integer(-k))


def cancelled(d, form):
    """An expression whose value is 1 wherever ``d != 0``, with ``d`` (or a multiple) as a
    written divisor that ``together`` cancels."""
    if form == "product":          # d * d**(-1)
        return node(sp.Mul, d, inverse(d))
    if form.startswith("power"):   # d**m * d**(-m)
        m = int(form[-1])
        return node(sp.Mul, node(sp.Pow, d, sp.Integer(m)), inverse(d, m))
    if form == "nested":           # (d**(-1))**(-1) * d**(-1): the inner divisor d counts
        return node(sp.Mul, inverse(inverse(d)), inverse(d))
    if form == "scaled":           # (2*d) * (2*d)**(-1)
        twice = node(sp.Mul, sp.Integer(2), d)
        return node(sp.Mul, twice, inverse(twice))
    raise ValueError(form)


FORMS = ["product", "power2", "power3", "nested", "scaled"]
ZERO = Chain("z", 0, (Link("=", 0, Certificate()),))
NONNEG_ZERO = Chain("z", 0, (Link("<=", 0, Certificate()),))


def door(e, name):
    """A theorem concluding ``e = 1`` (``e >= 1`` by squares) through one of the rules."""
    if name == "link":
        return Fact(e, "=", 1), (Chain("l", e, (Link("=", 1, Certificate()),)),)
    if name == "conclusion":       # matched by 0 = 0 after together
        return Fact(e, "=", 1), (ZERO,)
    if name == "antisymmetry":     # e <= 1 and e >= 1 are 0 <= 0 after together
        return Fact(e, "=", 1), (NONNEG_ZERO, Antisymmetry("a", e, 1))
    if name == "compare-squares":  # e >= 0, 1 >= 0, e**2 - 1 >= 0: numerals after together
        return Fact(e, ">=", 1), (SquareCompare("s", e, ">=", 1),)
    raise ValueError(name)


DOORS = ["link", "conclusion", "antisymmetry", "compare-squares"]


def through(e, name, hyps=(), lines=()):
    conclusion, proof = door(e, name)
    return theorem(conclusion, *lines, *proof, hyps=hyps)


# --- the hole, as the session-38 review wrote it, through every door -----------------------------
@pytest.mark.parametrize("name", DOORS)
def test_x_over_x_is_refused_without_x_positive_and_proved_with_it(name):
    e = cancelled(X, "product")
    assert expression_text(e) == "x/x"
    with pytest.raises(DerivationError, match=NOT_COVERED):
        check_theorem(through(e, name))
    assert check_theorem(through(e, name, hyps=(Hyp("hx", Fact(X, ">", 0)),))).steps >= 1


@pytest.mark.parametrize("name", ["link", "compare-squares", "antisymmetry"])
def test_a_line_with_a_cancelled_divisor_is_refused_even_when_no_conclusion_repeats_it(name):
    """The rule is per line, not only per conclusion: the line ``x/x = 1`` (``x/x >= 1``) is
    refused at that line although the theorem concludes only ``0 = 0``; with x > 0 it checks."""
    e = cancelled(X, "product")
    _, proof = door(e, name)

    def neutral(hyps=()):
        return theorem(Fact(0, "=", 0), *proof, hyps=hyps)
    where = {"link": "line l, step 1", "compare-squares": "line s", "antisymmetry": "line a"}[name]
    with pytest.raises(DerivationError, match=f"{where}.*{NOT_COVERED}"):
        check_theorem(neutral())
    assert check_theorem(neutral((Hyp("hx", Fact(X, ">", 0)),))).steps >= 1


def test_squaring_both_sides_needs_polynomial_sides_even_when_they_are_defined():
    """1/x >= 0 by squares, x > 0 assumed and 1/x >= 0, 1/x**2 >= 0 derived: every needed fact
    is there and 1/x is defined, but compare-squares takes polynomial sides only."""
    hx = (Hyp("hx", Fact(X, ">", 0)),)
    inv, inv2 = inverse(X), inverse(X, 2)
    lines = (Chain("i", inv, (Link(">=", 0, Certificate((Term(1, ()),), (), ("hx",))),)),
             Chain("i2", inv2, (Link(">=", 0, Certificate((Term(1, ()),), (), ("hx", "hx"))),)))
    assert check_theorem(theorem(Fact(inv2, ">=", 0), *lines, hyps=hx)).steps == 2
    with pytest.raises(DerivationError, match="line s: a squared side must be a polynomial"):
        check_theorem(theorem(Fact(inv, ">=", 0), *lines, SquareCompare("s", inv, ">=", 0),
                              hyps=hx))


@settings(max_examples=60, deadline=None)
@given(k=st.integers(-3, 3), form=st.sampled_from(FORMS), name=st.sampled_from(DOORS))
def test_a_cancelled_divisor_is_refused_unless_it_is_known_positive(k, form, name):
    """d = x + k cancelled in one of five written forms, through each door: refused with no
    hypothesis and with ``d >= 0`` (d may be 0); checked with ``d > 0`` assumed, with ``d < 0``
    (nonzero too), and with ``d > 0`` derived as a line of the proof."""
    d = X + k
    e = cancelled(d, form)
    for hyps in ((), (Hyp("h", Fact(d, ">=", 0)),), (Hyp("h", Fact(Y, ">", 0)),)):
        with pytest.raises(DerivationError, match=NOT_COVERED):
            check_theorem(through(e, name, hyps=hyps))
    for rel in (">", "<"):
        assert check_theorem(through(e, name, hyps=(Hyp("h", Fact(d, rel, 0)),))).steps >= 1
    derived = Chain("pos", d, (Link(">", 0, Certificate((Term(1, ("h",)), Term(1, ())))),))
    proof = through(e, name, hyps=(Hyp("h", Fact(X, ">=", 1 - k)),), lines=(derived,))
    assert check_theorem(proof).steps >= 2


@pytest.mark.parametrize("name", DOORS)
def test_a_divisor_that_is_a_product_needs_every_factor_known_positive(name):
    """(x*y) * (x*y)**(-1): x > 0 alone does not make x*y nonzero; x > 0 and y > 0 do."""
    e = cancelled(X * Y, "product")
    for hyps in ((Hyp("hx", Fact(X, ">", 0)),), (Hyp("hy", Fact(Y, ">", 0)),)):
        with pytest.raises(DerivationError, match=NOT_COVERED):
            check_theorem(through(e, name, hyps=hyps))
    both = (Hyp("hx", Fact(X, ">", 0)), Hyp("hy", Fact(Y, ">", 0)))
    assert check_theorem(through(e, name, hyps=both)).steps >= 1


@pytest.mark.parametrize("zero", [sp.Integer(0), node(sp.Add, X, node(sp.Mul, sp.Integer(-1), X))],
                         ids=["0", "x - x unevaluated"])
def test_a_written_divisor_that_is_zero_is_refused(zero):
    """1/0 and 1/(x - x) (left unevaluated, which sympy's expand does not simplify): refused,
    never read as zoo = zoo."""
    e = node(sp.Mul, X, inverse(zero))
    with pytest.raises(DerivationError, match="which is 0"):
        check_theorem(one_step(e, "=", e))
    with pytest.raises(DerivationError, match="which is 0"):
        check_theorem(through(e, "conclusion", hyps=(Hyp("hx", Fact(X, ">", 0)),)))


def test_a_divisor_inside_a_dot_argument_is_a_divisor_too():
    """Dot(x*u/x, u) = Dot(u, u): bilinearity takes the scalar x/x out of Dot and cancels it;
    as written it needs x != 0 (a hole through the Dot door before)."""
    Dot, u = _dot_class(), sp.Symbol("u", real=True)
    lhs = Dot(node(sp.Mul, X, u, inverse(X)), u)

    def proof(hyps):
        return Theorem("t", "t", ("u",), (), hyps, (Fact(lhs, "=", Dot(u, u)),), Derivation((
            Chain("l", lhs, (Link("=", Dot(u, u), Certificate()),)),)))
    with pytest.raises(DerivationError, match=NOT_COVERED):
        check_theorem(proof(()))
    assert check_theorem(proof((Hyp("hx", Fact(X, ">", 0)),))).steps == 1


def test_an_induction_conclusion_is_read_as_written_before_t_is_substituted():
    """(x + T)/(x + T) = 1 for every natural T: substituting T := 0, t, t + 1 rebuilds the
    product with sympy's evaluation, which cancels it to 1 = 1; the conclusion as written
    (undefined at x = -T) is refused.  x/x = 1 with x > 0 assumed is still proved by
    induction."""
    def induction(e, hyps=()):
        return Theorem("t", "t", (), (T,), hyps, (Fact(e, "=", 1),),
                       Induction(T, t, Derivation((ZERO,)), Derivation((ZERO,))))
    with pytest.raises(DerivationError, match=NOT_COVERED):
        check_theorem(induction(cancelled(X + T, "product"), (Hyp("hx", Fact(X, ">", 0)),)))
    with pytest.raises(DerivationError, match=NOT_COVERED):
        check_theorem(induction(cancelled(X, "product")))
    assert check_theorem(induction(cancelled(X, "product"),
                                   (Hyp("hx", Fact(X, ">", 0)),))).steps == 2


def test_the_positive_divisors_still_cover_what_together_leaves():
    """The rule as before: 1/x + 1/x = 2/x with a positive divisor x; without it refused."""
    e = node(sp.Add, inverse(X), inverse(X))
    hx = (Hyp("hx", Fact(X, ">", 0)),)
    step = Chain("l", e, (Link("=", 2 * inverse(X), Certificate((), (), ("hx",))),))
    assert check_theorem(theorem(Fact(e, "=", 2 * inverse(X)), step, hyps=hx)).steps == 1
    bare = Chain("l", e, (Link("=", 2 * inverse(X), Certificate()),))
    with pytest.raises(DerivationError, match="not covered by positive divisors"):
        check_theorem(theorem(Fact(e, "=", 2 * inverse(X)), bare, hyps=hx))


# --- _Context.within: what a claim's theorem may declare -----------------------------------------
SQUARE = ClaimStatement(goals=(Goal(X ** 2, ">=", 0),))


def square_proof(**changes):
    """x**2 >= 0 by one square, the proof of SQUARE (with ``changes`` to the theorem)."""
    return replace(one_step(X ** 2, ">=", 0, (Term(1, (Square(X),)),)), **changes)


def test_the_square_claim_is_proved_as_built():
    assert check_claim(SQUARE, ClaimProof((), square_proof())).shown.endswith("x**2 >= 0")


def test_a_claims_theorem_with_per_step_hypotheses_and_no_naturals_is_refused():
    """Per-step hypotheses are assumptions the claim does not make (a lemma with a family could
    use them): refused even when the theorem has no naturals (the check's second operand)."""
    proof = square_proof(family=Family(t, T, (Hyp("every", Fact(Y, ">=", 1)),)))
    assert check_theorem(proof).steps == 1
    with pytest.raises(DerivationError, match="no naturals or per-step hypotheses"):
        check_claim(SQUARE, ClaimProof((), proof))
    with pytest.raises(DerivationError, match="domain theorem .*no naturals or per-step"):
        check_claim(SQUARE, ClaimProof((proof,), square_proof()))


def test_a_claims_theorem_declaring_a_vector_the_claim_lacks_is_refused():
    proof = square_proof(vectors=("u",))
    assert check_theorem(proof).steps == 1
    with pytest.raises(DerivationError, match=r"declares the vectors \['u'\], the claim \[\]"):
        check_claim(SQUARE, ClaimProof((), proof))


# --- _check_induction: the kernel's own induction, read once ------------------------------------
@pytest.mark.parametrize("change", ["no induction", "another variable", "another index"])
def test_a_sum_claim_is_proved_by_induction_on_the_kernels_own_t_and_t(change):
    """The main theorem states the claim (same text), but its proof is no induction, or an
    induction on another variable or index: refused by that test, before check_theorem (each
    operand of the test has its own case)."""
    statement = _sum_statement()
    expected = sum_theorem(statement)
    proof = expected.proof
    other = sp.Symbol(f"{proof.index.name}9", real=True)
    main = replace(expected, proof={
        "no induction": Derivation(()),
        "another variable": replace(proof, variable=other),
        "another index": replace(proof, index=other)}[change])
    assert statement_text(main) == statement_text(expected)
    with pytest.raises(DerivationError, match="induction on the kernel's T and t"):
        check_claim(statement, ClaimProof((), main))


def flipping(cls, before, after, sticky=True):
    """``cls(*before)`` whose arguments read as ``after`` inside check_theorem (and, if
    ``sticky``, from then on): a tuple subclass in the node's ``_args``, which the walk admits
    (see the strict xfail below)."""
    state = {"flipped": False}

    def current():
        frame, inside = sys._getframe(2), False
        while frame is not None and not inside:
            inside, frame = frame.f_code.co_name == "check_theorem", frame.f_back
        state["flipped"] = inside or (sticky and state["flipped"])
        return after if state["flipped"] else before

    class Args(tuple):
        def __iter__(self):
            return iter(current())

        def __len__(self):
            return len(current())

        def __getitem__(self, i):
            return current()[i]

    e = node(cls, *before)
    e._args = Args(before)
    return e


def test_an_induction_theorem_that_changes_between_its_two_reads_is_refused():
    """Bernoulli's induction theorem, its conclusion's right side 1 + T*x read as 1/2 + 1/2 +
    T*x once check_theorem has begun: the first read states the claim, the checked theorem
    another text.  Refused by the walk (the Add's arguments are not a plain tuple); and
    _check_induction reads the proposer's theorem once (it checks its own copy, whose statement
    it compared), so a theorem that changes between reads cannot be checked as another."""
    from tests.test_attacks_claims_powers import BERNOULLI, _proved

    statement, main = _proved(BERNOULLI)
    assert check_claim(statement, ClaimProof((), main))
    c = main.conclusions[0]
    rhs = sp.S(c.rhs)
    half = sp.Rational(1, 2)
    lying = flipping(sp.Add, rhs.args, (half, half, *[a for a in rhs.args if a != 1]))
    forged = replace(main, conclusions=(Fact(c.lhs, c.rel, lying),))
    with pytest.raises(DerivationError, match="not a plain tuple"):
        check_claim(statement, ClaimProof((), forged))


def test_a_node_whose_arguments_change_between_reads_proves_no_false_claim():
    """Was a hole (found in session 39, mended in inputs.py): the walk admitted an Add whose
    ``_args`` is a tuple subclass; its arguments read one way inside check_theorem and another
    outside, so the claim's text compare saw x**2 + y**2 >= 2*x*y + 1 while the kernel checked
    x**2 + y**2 >= 2*x*y + 0.  The walk now refuses arguments that are not a plain tuple."""
    goal_rhs = 2 * X * Y + 1
    statement = ClaimStatement(goals=(Goal(X ** 2 + Y ** 2, ">=", goal_rhs),))
    lying = flipping(sp.Add, goal_rhs.args, (2 * X * Y, sp.Integer(0)), sticky=False)
    proof = one_step(X ** 2 + Y ** 2, ">=", lying, (Term(1, (Square(X - Y),)),))
    with pytest.raises(DerivationError, match="not a plain tuple"):
        check_claim(statement, ClaimProof((), proof))
