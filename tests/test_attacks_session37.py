"""Attacks on the changes of 5cee60b, cc6a902 and a621deb (session 37).

1. ``verify.kernel.row_facts``: ``sparse_multipliers`` returns a dict of builtin ints as given
   (E = 1, no Fraction); ‖rowₙ‖² and F·rowₙ by ``np.einsum`` under the int64 bounds.
2. ``Monitor.__init__``: a w₀ with ``not any(w0)`` gives W0 = [0]*dim and D = η.den·L.
3. ``verify.checks.audit``: numbers parsed by an ``lru_cache``d ``_canonical_number``; builtin
   ``str`` / ``list`` by type identity; errors name ``what[index]``.
4. ``verify.kernel.statements._power``: a base bracketed by its type tested by identity.

Holes found, mended in the same session (the tests below were strict xfails until then):

- the monitor's ``any(w0)`` trusted ``Fraction.__bool__``, which asks the numerator: a plain
  ``Fraction`` whose numerator is an int subclass with ``__bool__ = False`` made the monitor
  start from W0 = 0 while the options say w₀ = 3 (an engine that ignores w₀ was accepted); w₀'s
  entries are now made Fractions of builtin ints (``exact_fraction``) first;
- ``_power`` tested the base's type by identity while ``inputs._walk`` and ``expression_text``
  still accepted a subclass of ``sympy.Mul`` whose metaclass claims ``Mul``: (a·b)² (a ``Pow``
  of such a product) printed ``a*b**2``, the text of a·b², and ``check_claim`` accepted a
  checked (a·b)² ≥ 0 as a proof of the false claim a·b² ≥ 0; every type test of ``_walk`` and
  ``expression_text`` is now by identity, and such a product is refused on entry;
- (older) a non-Mul ``Expr`` whose metaclass claims ``Mul`` passed ``_walk`` and sent
  ``expression_text`` into unbounded recursion (a RecursionError); now refused by ``_walk``.
"""

from __future__ import annotations

from fractions import Fraction
from math import isqrt, lcm

import numpy as np
import pytest
import sympy
from hypothesis import example, given, settings
from hypothesis import strategies as st

import pla
import verify.kernel.certificates as C
from pla.exact import NumberError, parse_fraction
from tests.test_attacks_monitor_wf import ClaimsInt, Inflating, Wrapping
from verify.checks.audit import _Fail, _exact, _vector, audit_text
from verify.checks.monitor import Monitor, ProofViolation
from verify.kernel.data_checks import CertificateError
from verify.kernel.row_facts import row_facts, sparse_multipliers

B = 2**31 - 1                     # the largest |entry| of an int64 data matrix


# --- 1. row facts by einsum: exact at and beyond the int64 bounds --------------------------------
def exact_norms(rows):
    return [sum(v * v for v in row) for row in rows]


def exact_margins(rows, labels, F):
    return [y * sum(f * v for f, v in zip(F, row)) for row, y in zip(rows, labels)]


@st.composite
def rows_near_the_norm_bound(draw):
    """Rows whose largest ‖row‖² = dim·m² is near 2⁶² (both sides): every entry of the first row
    ±m, m = isqrt(2^bits / dim) + offset (capped at 2³¹ − 1), other rows random."""
    dim = draw(st.integers(1, 6))
    bits = draw(st.sampled_from([61, 62, 63, 64, 65]))
    m = min(B, max(1, isqrt(2**bits // dim) + draw(st.integers(-2, 2))))
    first = tuple(draw(st.sampled_from([m, -m])) for _ in range(dim))
    others = draw(st.lists(st.tuples(*[st.integers(-m, m)] * dim), max_size=3))
    return (first, *others)


@settings(max_examples=80, deadline=None)
@given(rows_near_the_norm_bound(), st.booleans())
@example(((B, B, B, B),), True)          # 4·(2³¹−1)² ≈ 2⁶⁴: an int64 sum would wrap to ≈ 0
@example(((B, -B, B), (1, 2, 3)), False)
@example(((B,),), True)                  # 1·(2³¹−1)² < 2⁶²: the int64 path, at its largest
def test_einsum_norms_are_exact_near_and_beyond_the_int64_bound(rows, as_matrix):
    data = np.array(rows, dtype=np.int64) if as_matrix else rows
    labels = tuple(1 for _ in rows)
    facts = row_facts(data, labels, with_norms=True)
    expected = exact_norms(rows)
    assert [int(v) for v in facts.norms] == expected
    assert facts.largest_norm == max(expected) and type(facts.largest_norm) is int


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 5), st.sampled_from([61, 62, 63, 64]), st.integers(-3, 3),
       st.sampled_from([B, 2**30 + 7, 1000, 1]), st.lists(st.integers(-1, 1), min_size=2,
                                                           max_size=4), st.booleans())
def test_einsum_margins_are_exact_near_and_beyond_the_int64_bound(dim, bits, offset, entry,
                                                                  pattern, as_matrix):
    """F of Σ|Fᵢ|·entry ≈ 2^bits, rows of ±entry and 0 (several rows, both labels): every margin
    yₙ F·rowₙ is the exact integer, whichever path computed it."""
    total = max(dim, (2**bits + offset) // entry)
    F = [total // dim + (1 if i < total % dim else 0) for i in range(dim)]
    rows = tuple(tuple(entry * pattern[(n + i) % len(pattern)] for i in range(dim))
                 for n in range(len(pattern))) + (tuple([entry] * dim),)
    labels = tuple(1 if n % 2 else -1 for n in range(len(rows)))
    data = np.array(rows, dtype=np.int64) if as_matrix else rows
    facts = row_facts(data, labels, F, with_norms=True)
    expected = exact_margins(rows, labels, F)
    assert [int(v) for v in facts.margins] == expected
    assert facts.smallest_margin == min(expected)
    assert facts.argmin == expected.index(min(expected))
    assert [int(v) for v in facts.norms] == exact_norms(rows)


# --- 1. sparse multipliers: the builtin-int shortcut ----------------------------------------------
class ClaimsIntLessThan(int, metaclass=ClaimsInt):
    """Claims its type is int; says it is below every number (an αₙ ≥ 0 check believes 0 ≤ it
    is false... or true, as it likes) and equal to 1."""

    def __lt__(self, other):
        return False

    def __gt__(self, other):
        return True

    def __eq__(self, other):
        return other == 1

    __hash__ = int.__hash__


def reference_sparse(values, length):
    """What sparse_multipliers must give: each value's exact value (an int's own value, read by
    int.__index__), over the lcm of the denominators; None when it must refuse."""
    exact = {}
    for row, v in values.items():
        if type(row) is not int or not 0 <= row < length:
            return None
        if isinstance(v, bool):
            return None
        if isinstance(v, int):
            exact[row] = Fraction(int.__index__(v))
        elif type(v) is Fraction:
            exact[row] = v
        else:
            return None
    E = lcm(*(f.denominator for f in exact.values())) if exact else 1
    return [(r, int(exact[r] * E)) for r in sorted(exact)], E


values_strategy = st.one_of(
    st.integers(), st.integers(-2**64, 2**64),
    st.sampled_from([2**63 - 1, 2**63, -2**63, -2**63 - 1, 2**64, 0, -1]),
    st.fractions(), st.booleans(),
    st.integers(-50, 50).map(Wrapping), st.integers(-50, 50).map(Inflating),
    st.integers(-50, 50).map(ClaimsIntLessThan))


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.integers(-1, 8), values_strategy, max_size=6))
@example({0: 7, 1: Wrapping(3)})
@example({0: ClaimsIntLessThan(-5)})
@example({0: True, 1: 2})
@example({})
def test_sparse_multipliers_agree_with_the_exact_values_and_hold_only_builtin_ints(values):
    """Whatever the mix (builtin ints near and beyond 2⁶³, Fractions, bools, int subclasses whose
    metaclass claims int): the pairs are builtin ints Vₙ with Vₙ/E the value's own exact value,
    or the dict is refused; never the caller's object."""
    reference = reference_sparse(values, 7)
    try:
        pairs, E = sparse_multipliers(values, 7, "alpha")
    except CertificateError:
        assert reference is None
        return
    assert reference is not None, (values, pairs, E)
    assert (pairs, E) == reference
    assert type(E) is int and E > 0
    assert all(type(r) is int and type(v) is int for r, v in pairs), pairs


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.integers(0, 3), st.integers(0, 2**70), min_size=1, max_size=4),
       st.integers(1, 3))
def test_dual_bound_from_an_int_dict_equals_the_bound_from_its_fractions_and_its_list(alpha,
                                                                                      scale):
    """The shortcut (E = 1) changes nothing in the bound (Σα)²/‖Σαyx‖²: the same dict of
    Fractions (the old path) and the dense list give the same exact bound, or the same refusal."""
    rows, labels = ((1, 2), (3, -1), (-2, 5), (4, 4)), (1, -1, 1, -1)
    as_fractions = {r: Fraction(a) for r, a in alpha.items()}
    dense = [alpha.get(n, 0) for n in range(4)]
    outcomes = []
    for form in (alpha, as_fractions, dense):
        try:
            outcomes.append(C.check_dual_bound(rows, scale, labels, form))
        except CertificateError as exc:
            outcomes.append(str(exc))
    assert outcomes[0] == outcomes[1] == outcomes[2]
    if not isinstance(outcomes[0], str):
        total = sum(alpha.values())
        v = [sum(alpha.get(n, 0) * labels[n] * rows[n][i] for n in range(4)) for i in range(2)]
        assert outcomes[0] == Fraction(total * total * scale * scale, sum(x * x for x in v))


def test_a_negative_builtin_int_multiplier_is_still_refused_with_its_row():
    with pytest.raises(CertificateError, match=r"alpha\[2\] = -1 < 0") as info:
        C.check_dual_bound(((1, 2), (3, -1), (-2, 5)), 1, (1, -1, 1), {0: 1, 2: -1})
    assert info.value.index == 2


@pytest.mark.parametrize("values", [{0: 2**63}, {1: -(2**63) - 1}])
def test_int_multipliers_beyond_int64_keep_their_value(values):
    pairs, E = sparse_multipliers(values, 3, "alpha")
    assert E == 1 and pairs == sorted(values.items())


# --- 2. the monitor's w0 = 0 shortcut --------------------------------------------------------------
class FalsyInt(int):
    """An int whose truth value is False whatever its value (Fraction.__bool__ asks it)."""

    def __bool__(self):
        return False


def falsy_fraction(value: int) -> Fraction:
    """A plain Fraction (type identity: the monitor keeps it as it is) equal to ``value`` whose
    ``bool`` is False: its numerator is a FalsyInt."""
    f = Fraction(value)
    f._numerator = FalsyInt(value)
    assert type(f) is Fraction and f == value and not f
    return f


DS = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
WF = [-3, 1, 1]


@settings(max_examples=60, deadline=None)
@given(st.fractions(min_value=Fraction(1, 12), max_value=5, max_denominator=12),
       st.lists(st.one_of(st.just(Fraction(0)), st.fractions(-3, 3, max_denominator=7)),
                min_size=3, max_size=3),
       st.sampled_from([DS, pla.Dataset.from_rows([["1/2", 2], ["3/4", "-1/3"]], [1, -1])]))
def test_monitor_scaling_of_eta_and_w0_is_exact_with_and_without_the_zero_shortcut(eta, w0, ds):
    """W0/D is w₀ exactly, D a multiple of η.den·L and of every w₀ denominator, k·L/D = η: both
    for w₀ = 0 (the shortcut) and any other w₀."""
    w0 = w0[:ds.dim]
    opts = pla.RunOptions(order="first", eta=eta, w0=tuple(w0))
    m = Monitor(ds, opts)
    assert [Fraction(v, m.D) for v in m.W0] == w0
    assert all(type(v) is int for v in m.W0)
    assert m.D % (eta.denominator * ds.scale) == 0
    assert all(m.D % v.denominator == 0 for v in w0)
    assert Fraction(m.k * ds.scale, m.D) == eta
    assert m.w0_zero == (not any(w0))
    if not any(w0):
        assert m.D == eta.denominator * ds.scale


def test_monitor_with_w0_zero_accepts_the_genuine_run_and_refuses_a_run_from_elsewhere():
    m = Monitor(DS, pla.RunOptions(order="first"), wf=WF)
    assert m.finish(pla.run(DS, order="first", on_step=m)).violations == 0
    # an engine that started from w₀ = (1, 0, 0) while the options say 0: caught at t = 0
    liar = Monitor(DS, pla.RunOptions(order="first"), wf=WF)
    with pytest.raises(ProofViolation, match="w_t is the previous w_{t\\+1}"):
        pla.run(DS, options=pla.RunOptions(order="first", w0=(1, 0, 0)), on_step=liar)


def test_a_w0_whose_fractions_are_falsy_but_nonzero_is_not_taken_for_zero():
    opts = pla.RunOptions(order="first", w0=(falsy_fraction(3), Fraction(0), Fraction(0)))
    try:
        m = Monitor(DS, opts, wf=WF)
    except (TypeError, ValueError, ProofViolation):
        return                                     # refusing such a w0 is a defence too
    assert [Fraction(v, m.D) for v in m.W0] == [3, 0, 0]
    # an engine that ignored w0 (the run from 0) must not pass as the run of these options
    with pytest.raises(ProofViolation):
        m.finish(pla.run(DS, order="first", on_step=m))


# --- 3. the audit's remembered number texts ------------------------------------------------------
def reference_exact(value, what):
    """The audit's number check before a621deb (a Fraction, or the _Fail message)."""
    if type(value) is not str:
        return f"{what} must be an exact number string, not {value!r}"
    try:
        f = parse_fraction(value)
    except NumberError as exc:
        return f"{what}: {exc}"
    if str(f) != value:
        return f"{what} = {value!r} is not in canonical form {str(f)!r}"
    return f


def outcome(call):
    try:
        return call()
    except _Fail as failure:
        assert failure.check == "format"
        return failure.message


number_texts = st.one_of(
    st.fractions().map(str),                                     # canonical
    st.fractions().map(lambda f: f"{2 * f.numerator}/{2 * f.denominator}"),   # not reduced
    st.fractions().map(lambda f: f"+{f}"), st.fractions().map(lambda f: f"{f} "),
    st.fractions().map(lambda f: f"0{f}"), st.integers().map(lambda i: f"{i}.0"),
    st.integers().map(lambda i: f"{i}/1"), st.sampled_from(["-0", "0", "1", "1e0", "１", "٣",
                                                            "1_0", "nan", "", " ", "1/0",
                                                            "0.5", "1/2", "2/4", "-1/-2"]),
    st.text(alphabet="0123456789-+/. eE_%１", max_size=10))


@settings(max_examples=300, deadline=None)
@given(st.lists(number_texts, min_size=1, max_size=8), st.integers(0, 7))
def test_remembered_number_texts_give_what_a_fresh_parse_gives(texts, where):
    """Every text, in any order and repeated (the cache hit), gives the old check's Fraction or
    its message; in a vector the message names the entry (``x[i]``)."""
    for text in texts + texts[::-1]:
        for name, index in (("score", None), ("x", where)):
            label = name if index is None else f"{name}[{index}]"
            got = outcome(lambda: _exact(text, name, index))
            expected = reference_exact(text, label)
            assert got == expected and type(got) is type(expected), (text, got, expected)
    vector = outcome(lambda: _vector(list(texts), len(texts), "w_after"))
    first_bad = next((i for i, t in enumerate(texts)
                      if type(reference_exact(t, "v")) is str), None)
    if first_bad is None:
        assert vector == [parse_fraction(t) for t in texts]
    else:
        assert vector == reference_exact(texts[first_bad], f"w_after[{first_bad}]")


class LyingStr(str):
    """A str that says it equals every text (and is never unequal), hashed as ``"1"``."""

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    def __hash__(self):
        return hash("1")


def test_a_str_subclass_never_reaches_the_cache_nor_passes_as_canonical():
    """``LyingStr("6/8")`` would pass the canonical-form test (``"3/4" != text`` is its own
    ``__ne__``: False) and could sit in the cache beside ``"1"``; it is refused as not a str."""
    assert _exact("1", "score") == 1                       # "1" remembered first
    for value in (LyingStr("6/8"), LyingStr("1"), LyingStr("x")):
        with pytest.raises(_Fail, match=r"^score must be an exact number string, not '"):
            _exact(value, "score")
        with pytest.raises(_Fail, match=r"^x\[2\] must be an exact number string"):
            _exact(value, "x", 2)
    assert _exact("1", "score") == 1 and type(_exact("1", "score")) is Fraction
    with pytest.raises(_Fail, match=r"is not in canonical form '3/4'"):
        _exact("6/8", "score")


def test_a_list_subclass_is_not_a_vector():
    class LyingList(list):
        def __len__(self):
            return 2

    with pytest.raises(_Fail, match="w0 must be a list of 2 exact numbers"):
        _vector(LyingList(["1", "2", "3"]), 2, "w0")
    with pytest.raises(_Fail, match=r"^x\[1\] must be an exact number string, not 5$"):
        _vector(["1", 5], 2, "x")
    with pytest.raises(_Fail, match=r"^x\[0\] must be an exact number string, not True$"):
        _vector([True, "1"], 2, "x")


def genuine_trace(ds):
    import os
    import tempfile

    from pla.trace import TraceWriter, header_record, step_record, summary_record

    path = os.path.join(tempfile.mkdtemp(), "t.jsonl")
    opts = pla.RunOptions(order="first")
    with TraceWriter(path, header_record(ds, opts)) as tw:
        result = pla.run(ds, options=opts, on_step=lambda s: tw.write(step_record(s)))
        tw.close(summary_record(result))
    return open(path, encoding="utf-8").read().splitlines()


@pytest.mark.parametrize("key, index, old, new, name", [
    ("x", 1, '"3"', '"6/2"', "x[1] = '6/2' is not in canonical form '3'"),
    ("w_before", 0, '"0"', '"-0"', "w_before[0] = '-0' is not in canonical form '0'"),
    ("w_after", 2, '"3"', '"3.0"', "w_after[2] = '3.0' is not in canonical form '3'"),
    ("score", None, '"0"', '"0/1"', "score = '0/1' is not in canonical form '0'"),
])
def test_the_audit_names_the_line_and_entry_of_a_non_canonical_number(key, index, old, new,
                                                                      name):
    import json

    lines = genuine_trace(DS)
    record = json.loads(lines[1])                     # the first step (t = 0, w_t = 0)
    value = record[key] if index is None else record[key][index]
    assert json.dumps(value) == old, record
    if index is None:
        record[key] = json.loads(new)
    else:
        record[key][index] = json.loads(new)
    lines[1] = json.dumps(record, separators=(",", ":"))
    report = audit_text("\n".join(lines) + "\n", DS)
    assert report.status == "failed"
    assert (report.failure.line, report.failure.check) == (2, "format")
    assert report.failure.message == name
    # the genuine trace, after the failing one (its numbers remembered), still passes
    assert audit_text("\n".join(genuine_trace(DS)) + "\n", DS).status == "ok"


# --- 4. statement texts: a power's base bracketed by its type tested by identity ------------------
def claims(base_type, claimed):
    class Claims(type(base_type)):
        def __eq__(cls, other):
            return other is claimed or type.__eq__(cls, other)

        __hash__ = type.__hash__

    return Claims


a, b = sympy.symbols("a b", real=True)


@pytest.mark.parametrize("expr, text", [
    (sympy.Pow(a + 1, 2, evaluate=False), "(a + 1)**2"),
    (sympy.Pow(a * b, 2, evaluate=False), "(a*b)**2"),
    (sympy.Pow(sympy.Pow(a, 2, evaluate=False), 3, evaluate=False), "(a**2)**3"),
    (sympy.Pow(sympy.Integer(-2), 3, evaluate=False), "(-2)**3"),
    (sympy.Pow(sympy.Rational(1, 2), 3, evaluate=False), "(1/2)**3"),
    (sympy.Pow(a * b, -1, evaluate=False), "1/(a*b)"),
    (a * b**2, "a*b**2"),
    (a**2, "a**2"),
])
def test_a_power_s_base_is_bracketed_exactly_when_it_is_a_sum_product_power_or_fraction(expr,
                                                                                       text):
    from verify.kernel.statements import expression_text

    assert expression_text(expr) == text


@pytest.mark.parametrize("claimed", [sympy.Add, sympy.Mul, sympy.Pow])
def test_a_symbol_claiming_a_compound_type_is_printed_as_a_symbol(claimed):
    from verify.kernel.inputs import expression
    from verify.kernel.statements import expression_text

    class Lying(sympy.Symbol, metaclass=claims(sympy.Symbol, claimed)):
        pass

    x = Lying("a", real=True)
    assert type(x) == claimed
    e = sympy.Pow(x, 2, evaluate=False)
    try:
        expression(e, frozenset())
    except Exception as exc:                         # refused by the input check: also fine
        assert type(exc).__name__ == "DerivationError"
        return
    assert expression_text(e) == "a**2"


def test_a_product_whose_type_claims_mul_is_bracketed_or_refused_as_a_power_s_base():
    from verify.kernel.inputs import expression
    from verify.kernel.statements import content_text, expression_text
    from verify.kernel.terms import DerivationError, Fact

    class FakeMul(sympy.Mul, metaclass=claims(sympy.Mul, sympy.Mul)):
        pass

    square = sympy.Pow(FakeMul(a, b, evaluate=False), 2, evaluate=False)   # (a·b)², ≥ 0
    try:
        expression(square, frozenset())
        text = expression_text(square)
    except DerivationError:
        return
    assert text == "(a*b)**2"
    assert content_text(Fact(square, ">=", 0)) != content_text(Fact(a * b**2, ">=", 0))
    assert expression_text(sympy.Pow(FakeMul(a, b, evaluate=False), -1, evaluate=False)) == \
        "1/(a*b)"


def test_a_non_product_claiming_mul_is_refused_with_a_named_error():
    from verify.kernel.inputs import expression
    from verify.kernel.statements import expression_text
    from verify.kernel.terms import DerivationError

    class FakeMulExpr(sympy.Expr, metaclass=claims(sympy.Expr, sympy.Mul)):
        pass

    e = FakeMulExpr()
    with pytest.raises(DerivationError):
        expression(e, frozenset())
        expression_text(e)


def test_a_false_claim_is_not_proved_through_a_product_claiming_mul():
    from verify.kernel import (Certificate, Chain, Derivation, DerivationError, Fact, Link,
                               Square, Term, Theorem)
    from verify.kernel.claim_statements import ClaimProof, ClaimStatement, Goal, check_claim

    class FakeMul(sympy.Mul, metaclass=claims(sympy.Mul, sympy.Mul)):
        pass

    square = sympy.Pow(FakeMul(a, b, evaluate=False), 2, evaluate=False)
    proof = Theorem("t", "t", (), (), (), (Fact(square, ">=", 0),), Derivation((
        Chain("l1", square, (Link(">=", 0, Certificate((Term(1, (Square(a * b),)),))),)),)))
    false_claim = ClaimStatement(goals=(Goal(a * b**2, ">=", 0),))
    assert (a * b**2).subs({a: -1, b: 1}) < 0                       # the claim is false
    with pytest.raises(DerivationError):
        check_claim(false_claim, ClaimProof((), proof))


def test_a_rational_of_a_class_that_names_sympy_s_module_is_refused():
    """inputs._walk used to admit any subclass of sympy.Rational whose ``__module__`` said
    ``sympy.core.numbers`` (a class sets its own module name): its ``p`` and ``q`` are the
    class's to define.  Only sympy's own six rational classes are admitted now, by identity."""
    from verify.kernel.inputs import expression
    from verify.kernel.errors import KernelError

    class Forged(sympy.Rational):
        __module__ = "sympy.core.numbers"
        __slots__ = ()

    forged = object.__new__(Forged)
    forged.p, forged.q = 1, 2
    with pytest.raises(KernelError, match="not a plain tuple"):     # (no _args: session 39)
        expression(forged, frozenset())
    forged._args = ()                                                # as sympy's numbers have
    with pytest.raises(KernelError, match="not allowed"):
        expression(forged, frozenset())
    for honest in (sympy.Rational(3, 2), sympy.Integer(7), sympy.S.Half, sympy.S.Zero,
                   sympy.S.One, sympy.S.NegativeOne):
        assert expression(honest, frozenset()) == honest
    a = sympy.Symbol("a", real=True)
    with pytest.raises(KernelError, match="integer powers"):
        expression(a ** sympy.Rational(1, 2), frozenset())
    assert expression(a ** 3, frozenset()) == a ** 3


def test_the_audit_remembers_short_number_texts_only():
    """A header's w₀ may hold numbers of 200,000 digits: such a text is parsed each time and
    never kept by the audit's memo of number texts (which outlives one audit)."""
    from verify.checks import audit

    audit._canonical_number.cache_clear()
    long_text = "7" * 5_000 + "/3"
    assert audit._exact(long_text, "w0", 0) == Fraction(int("7" * 5_000), 3)
    assert audit._canonical_number.cache_info().currsize == 0
    assert audit._exact("-12/7", "score") == Fraction(-12, 7)
    assert audit._exact("-12/7", "score") == Fraction(-12, 7)
    info = audit._canonical_number.cache_info()
    assert (info.currsize, info.hits) == (1, 1)
