"""Attacks on the kernel's bulk type tests (commit 46dff94): a lying proposer hands the kernel
objects whose *type* claims to be ``int``, ``tuple`` or ``Fraction`` (a metaclass whose
``__eq__``/``__hash__`` say so), with arithmetic, ``numerator``, ``__iter__``, ``__len__`` or
``__getitem__`` that lie.

What must hold, for every entry point that takes data or vectors: the kernel raises its named
error, or returns exactly what the same input made of builtin ints and tuples gives; never a
wrong fact (a positive smallest margin for a w that does not separate, a count of 0 mistakes
for a w that makes one, an inflated dual bound).

Before 46dff94 ``set(map(type, xs)) <= {int}`` (and ``<= {tuple}``, ``type(x) in (tuple,
list)``) asked the metaclass, and the liars below got into the kernel's arithmetic: a
smallest margin of 2⁶² for a w that does not separate (row facts), ρ = 1 for another
(check_separator), 0 mistakes for a w that makes one, a dual bound 10⁶ times too big, a Gordan
certificate for separable data, labels whose products are always 5.

One hole this found, mended: ``check_mistake_count`` compared its own count with
the caller's ``claimed`` by the caller's ``!=``.
"""

from __future__ import annotations

from abc import ABCMeta
from fractions import Fraction

import numpy as np
import pytest

from tests.test_attacks_monitor_wf import ClaimsInt, Inflating, Wrapping, wrapped
from verify.kernel import (
    CertificateError,
    KernelError,
    check_dual_bound,
    check_gordan,
    check_max_margin,
    check_mistake_count,
    check_separator,
    count_mistakes,
    row_products,
    squared_norms,
)
from verify.kernel.data_checks import _check_data
from verify.kernel.row_facts import row_facts

REFUSED = (CertificateError, KernelError, TypeError, ValueError)


# ----------------------------------------------------------------------------- the liars
class ClaimsTuple(type):
    """A metaclass whose classes say they are ``tuple`` to ``==`` and ``hash``."""

    def __eq__(cls, other: object) -> bool:
        return other is tuple or type.__eq__(cls, other)

    def __hash__(cls) -> int:
        return hash(tuple)


class ClaimsFraction(ABCMeta):
    """A metaclass whose classes say they are ``Fraction`` to ``==`` and ``hash``."""

    def __eq__(cls, other: object) -> bool:
        return other is Fraction or type.__eq__(cls, other)

    def __hash__(cls) -> int:
        return hash(Fraction)


class Truncating(Wrapping):
    """A :class:`Wrapping` whose ``numerator`` is itself (so ``_over_common_denominator``'s
    whole-list path keeps it), |.| = 0: the int64 limbs of ``_int64_products`` keep only its
    low bits, and ``matrix @ F`` wraps around."""

    @property
    def numerator(self) -> Truncating:  # type: ignore[override]
        return self


class AddsTooMuch(int, metaclass=ClaimsInt):
    """Claims int; its own numerator; a sum that starts at 0 (``sum(A)``) is a thousand times
    too big."""

    @property
    def numerator(self) -> AddsTooMuch:  # type: ignore[override]
        return self

    def __mul__(self, other: object) -> int:
        if type(other) is int and other == 1:
            return self
        return int(self) * int(other)    # type: ignore[call-overload]

    __rmul__ = __mul__

    def __add__(self, other: object) -> int:
        return 1000 * (int(self) + int(other))    # type: ignore[call-overload]

    __radd__ = __add__


class PositiveLabel(int, metaclass=ClaimsInt):
    """A label that claims int and equals ±1, whose product with a score is always 5."""

    def __mul__(self, other: object) -> int:
        return 5

    __rmul__ = __mul__


class FakeFraction(Fraction, metaclass=ClaimsFraction):
    """Claims Fraction; its numerator is a :class:`Truncating` (its denominator a plain 1)."""

    @property
    def numerator(self) -> Truncating:  # type: ignore[override]
        return Truncating(int(self._numerator))

    @property
    def denominator(self) -> int:  # type: ignore[override]
        return 1


class LyingRow(tuple, metaclass=ClaimsTuple):
    """A row that claims tuple; it holds ``stored`` (what numpy and ``tuple.__getitem__``
    read) but iterates, counts and indexes ``shown`` (what a Python-level check reads)."""

    shown: tuple

    def __new__(cls, stored: tuple, shown: tuple) -> LyingRow:  # noqa: PYI034
        row = super().__new__(cls, stored)
        row.shown = shown
        return row

    def __iter__(self):
        return iter(self.shown)

    def __len__(self) -> int:
        return len(self.shown)

    def __getitem__(self, i):  # type: ignore[override]
        return self.shown[i]


# --------------------------------------------------------------------------- helpers
def outcome(f, *args, **kwargs):
    """``f``'s result, or ("refused", its named error's text)."""
    try:
        return ("accepted", f(*args, **kwargs))
    except REFUSED as error:
        return ("refused", type(error).__name__, str(error))


def assert_refused_or_same(attack, reference):
    """The attack is refused, or gives exactly the builtin input's answer."""
    assert attack[0] == "refused" or attack == reference, (attack, reference)


ONE_ROW = ((1, -3),)                 # y = +1: y w·x = w₀ − 3w₁


# --------------------------------------------------------------------------- row facts
def test_row_facts_f_claiming_int_cannot_make_a_wrapped_margin():
    """F = (0, 2⁶²): the margin −3·2⁶² wraps in int64 to +2⁶²; |Fᵢ| = 0 chose that path."""
    plain = outcome(row_facts, ONE_ROW, (1,), [0, 2**62])
    assert plain[1].smallest_margin == -3 * 2**62
    attack = outcome(row_facts, ONE_ROW, (1,), [Wrapping(0), Wrapping(2**62)])
    assert attack[0] == "refused" or attack[1].smallest_margin == -3 * 2**62, attack
    assert wrapped(-3 * 2**62) == 2**62      # (what the old kernel reported)


def test_row_facts_labels_claiming_int_are_refused_or_exact():
    plain = outcome(row_facts, ONE_ROW, (1,), [1, 1])
    attack = outcome(row_facts, ONE_ROW, (PositiveLabel(1),), [1, 1])
    assert_refused_or_same(attack, plain)


# --------------------------------------------------------------------------- separators
@pytest.mark.parametrize("w", [
    [Truncating(2**59 + 1), Truncating(2**59)],
    (Truncating(2**59 + 1), Truncating(2**59)),
    [FakeFraction(2**59 + 1), FakeFraction(2**59)],
    [Inflating(2**59 + 1), Inflating(2**59)],
])
def test_check_separator_w_claiming_int_or_fraction(w):
    """w = (2⁵⁹+1, 2⁵⁹) does not separate (margin 1 − 2⁶⁰ < 0); int64 limbs of 59 bits that
    keep only its low bits see w = (1, 0) and a margin of 1."""
    plain = outcome(check_separator, ONE_ROW, 1, (1,), [2**59 + 1, 2**59])
    assert plain[0] == "refused"
    assert_refused_or_same(outcome(check_separator, ONE_ROW, 1, (1,), w), plain)


def test_check_separator_labels_claiming_int_cannot_accept_a_non_separator():
    rows = ((1, 0), (1, 0))
    plain = outcome(check_separator, rows, 1, (1, -1), [1, 0])
    assert plain[0] == "refused"
    attack = outcome(check_separator, rows, 1, (PositiveLabel(1), PositiveLabel(-1)), [1, 0])
    assert_refused_or_same(attack, plain)


def test_check_separator_rows_claiming_tuple_are_refused_or_agree_with_both_views():
    """A row stores (1, −3) and shows (1, 3): the kernel's checks read one, numpy the other.
    Whatever it reports must hold of both (they disagree here, so only a refusal does)."""
    rows = (LyingRow((1, -3), (1, 3)),)
    stored = outcome(check_separator, ((1, -3),), 1, (1,), [0, 1])
    shown = outcome(check_separator, ((1, 3),), 1, (1,), [0, 1])
    assert stored != shown
    attack = outcome(check_separator, rows, 1, (1,), [0, 1])
    assert attack[0] == "refused", attack


def test_rows_whose_length_lies_are_refused_by_the_data_check():
    """A row that stores three entries, one a float, and shows two ints."""
    rows = (LyingRow((1, 2, 0.5), (1, 2)), (1, 1))
    assert outcome(_check_data, rows, 1, (1, -1))[0] == "refused"
    assert outcome(_check_data, ((1, 2), (1, 1)), 1, (1, -1)) == ("accepted", 2)


@pytest.mark.parametrize("labels", [(PositiveLabel(1),), [PositiveLabel(1)], (True,)])
def test_the_data_check_refuses_labels_claiming_int(labels):
    assert outcome(_check_data, ONE_ROW, 1, labels)[0] == "refused"


# --------------------------------------------------------------------------- mistake counts
def test_count_mistakes_w_claiming_int_cannot_hide_a_mistake():
    """w = (0, 2⁶²) gets the one row wrong (−3·2⁶² < 0); wrapped, the score is +2⁶²."""
    plain = outcome(count_mistakes, ONE_ROW, 1, (1,), [0, 2**62])
    assert plain == ("accepted", 1)
    attack = outcome(count_mistakes, ONE_ROW, 1, (1,), [Truncating(0), Truncating(2**62)])
    assert_refused_or_same(attack, plain)
    claim = outcome(check_mistake_count, ONE_ROW, 1, (1,), [Truncating(0), Truncating(2**62)], 0)
    assert claim[0] == "refused"


def test_count_mistakes_labels_claiming_int():
    rows = ((1, 0), (1, 0))
    plain = outcome(count_mistakes, rows, 1, (1, -1), [1, 0])
    attack = outcome(count_mistakes, rows, 1, (PositiveLabel(1), PositiveLabel(-1)), [1, 0])
    assert_refused_or_same(attack, plain)


# --------------------------------------------------------------------------- dual bounds
ROWS2 = ((1, 2), (1, -1))
LABELS2 = (1, -1)


@pytest.mark.parametrize("alpha", [
    [AddsTooMuch(1), AddsTooMuch(4)],
    (AddsTooMuch(1), AddsTooMuch(4)),
    {0: AddsTooMuch(1), 1: AddsTooMuch(4)},
    {0: FakeFraction(1), 1: FakeFraction(4)},
    [FakeFraction(1), FakeFraction(4)],
])
def test_check_dual_bound_alpha_claiming_int_cannot_inflate_the_bound(alpha):
    """α = (1, 4) gives (Σα)²/‖v‖² = 25/45; a Σ a thousand times too big gave 25·10⁶/45."""
    plain = outcome(check_dual_bound, ROWS2, 1, LABELS2, [1, 4])
    assert plain == ("accepted", Fraction(5, 9))
    assert_refused_or_same(outcome(check_dual_bound, ROWS2, 1, LABELS2, alpha), plain)


def test_check_dual_bound_labels_claiming_int():
    plain = outcome(check_dual_bound, ROWS2, 1, LABELS2, [1, 4])
    attack = outcome(check_dual_bound, ROWS2, 1, (PositiveLabel(1), PositiveLabel(-1)), [1, 4])
    assert_refused_or_same(attack, plain)


# --------------------------------------------------------------------------- Gordan, KKT
def test_check_gordan_lambda_claiming_int_cannot_prove_non_separability():
    """((2, 0), (2, 0)) with labels (1, 1) is separable (w = (1, 0)): no λ may pass.  With
    λ = (2⁶³, 2⁶³) whose products wrap as int64 ones do, each λₙ·2 is 0 and Σ λₙ yₙ xₙ = 0."""
    rows, labels = ((2, 0), (2, 0)), (1, 1)
    for lam in ([Truncating(2**63), Truncating(2**63)], (Truncating(2**63), Truncating(2**63)),
                [FakeFraction(2**63), FakeFraction(2**63)], [AddsTooMuch(1), AddsTooMuch(1)]):
        plain = outcome(check_gordan, rows, 1, labels, [int(v) for v in lam])
        assert plain[0] == "refused"
        assert outcome(check_gordan, rows, 1, labels, lam)[0] == "refused"
    attack = outcome(check_gordan, ((1, 0), (1, 0)), 1, (PositiveLabel(1), PositiveLabel(-1)),
                     [1, 1])
    assert attack[0] == "refused"


def test_check_max_margin_w_and_alpha_claiming_int():
    w, alpha = [Fraction(-1, 3), Fraction(2, 3)], [Fraction(1, 9), Fraction(4, 9)]
    plain = outcome(check_max_margin, ROWS2, 1, LABELS2, w, alpha)
    assert plain == ("accepted", Fraction(5, 9))
    attack = outcome(check_max_margin, ROWS2, 1, LABELS2, w, [AddsTooMuch(1), AddsTooMuch(4)])
    assert_refused_or_same(attack, outcome(check_max_margin, ROWS2, 1, LABELS2, w, [1, 4]))
    attack = outcome(check_max_margin, ROWS2, 3, LABELS2, [Inflating(-1), Inflating(2)],
                     [AddsTooMuch(1), AddsTooMuch(4)])
    reference = outcome(check_max_margin, ROWS2, 3, LABELS2, [-1, 2], [1, 4])
    assert_refused_or_same(attack, reference)


# --------------------------------------------------------------------------- products, norms
def test_row_products_and_norms_refuse_lying_rows_and_vectors():
    """``row_products`` (F = (0, 2⁶²) wrapped gives +2⁶²) and ``squared_norms`` of a row that
    stores (1, 2⁴⁰) and shows (1, 2)."""
    attack = outcome(row_products, ONE_ROW, [Wrapping(0), Wrapping(2**62)])
    assert_refused_or_same(attack, outcome(row_products, ONE_ROW, [0, 2**62]))
    rows = (LyingRow((1, -3), (1, 3)),)
    assert outcome(row_products, rows, [0, 1])[0] == "refused"
    assert outcome(squared_norms, (LyingRow((1, 2**40), (1, 2)),))[0] == "refused"


def test_int64_matrix_data_with_labels_claiming_int():
    """The numpy path: an int64 matrix is checked afresh, its labels by identity too."""
    rows = np.array([[1, 0], [1, 0]], dtype=np.int64)
    attack = outcome(check_separator, rows, 1, (PositiveLabel(1), PositiveLabel(-1)), [1, 0])
    assert attack[0] == "refused"


# --------------------------------------------------------------------------- the claimed count
class AgreesWithEverything(int):
    """An int subclass (its type does not lie) whose == and != agree with any count."""

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    __hash__ = int.__hash__


def test_check_mistake_count_refuses_a_claimed_count_that_is_not_a_plain_int():
    """w = (0, 1) makes 1 mistake on these data; a claim of 5 must be refused, whatever its
    ``!=`` says (``actual != claimed`` runs the subclass's reflected ``__ne__`` first)."""
    assert outcome(check_mistake_count, ((1, 1), (1, 2)), 1, (1, -1), [0, 1], 5)[0] == "refused"
    attack = outcome(check_mistake_count, ((1, 1), (1, 2)), 1, (1, -1), [0, 1],
                     AgreesWithEverything(5))
    assert attack[0] == "refused", attack


def test_a_symbol_whose_type_claims_to_be_a_sum_does_not_change_a_statement_s_text():
    """``statement_text`` is what lemma use and ``pla proof`` compare; a base whose metaclass
    says it is ``sympy.Add`` used to be bracketed as a sum (``(a)**2`` for ``a**2``), so two
    statements could differ in text while stating the same thing, or the other way round."""
    import sympy

    from verify.kernel.statements import expression_text

    class ClaimsAdd(type(sympy.Symbol)):
        def __eq__(cls, other):
            return other is sympy.Add or type.__eq__(cls, other)

        __hash__ = type.__hash__

    class LyingSymbol(sympy.Symbol, metaclass=ClaimsAdd):
        pass

    honest = sympy.Symbol("a", real=True)
    lying = LyingSymbol("a", real=True)
    assert type(lying) == sympy.Add                     # the lie the old test believed
    assert expression_text(lying ** 2) == expression_text(honest ** 2) == "a**2"
    assert expression_text((honest + 1) ** 2) == "(a + 1)**2"   # a real sum keeps its brackets


@pytest.mark.parametrize("value", [Inflating(3), Wrapping(3), True])
def test_sparse_multipliers_take_the_all_int_shortcut_only_for_builtin_ints(value):
    """{row: αₙ} of builtin ints skip the Fractions (E = 1, the pairs as given); a value whose
    type claims int (or a bool) must not: it is made a Fraction of plain ints or refused, and
    no caller's object reaches the kernel's arithmetic."""
    from verify.kernel.row_facts import sparse_multipliers

    assert sparse_multipliers({2: 5, 0: 7}, 3, "alpha") == ([(0, 7), (2, 5)], 1)
    try:
        pairs, E = sparse_multipliers({0: 7, 1: value}, 3, "alpha")
    except CertificateError:
        return
    assert E == 1 and pairs == [(0, 7), (1, 3)]
    assert all(type(v) is int for _, v in pairs)
