"""The kernel's records (verify/kernel/terms.py): immutable, strings never parsed, ``Dot`` only
through the module.  Each test here killed a surviving mutant of ``make mutation``."""

from __future__ import annotations

import dataclasses

import pytest
import sympy as sp

from verify import kernel
from verify.kernel import registry, terms
from verify.kernel.terms import DerivationError, Fact

x = sp.Symbol("x", real=True)


def test_a_string_is_never_parsed_into_an_expression():
    for text in ("x + 1", "__import__('os')", "1/3"):
        with pytest.raises(DerivationError, match="str .* is not an expression"):
            Fact(text, ">=", 0).normal()
    assert Fact(x, "<", 1).normal() == (1 - x, ">0")


def test_dot_is_reached_through_the_module_and_nothing_else_is():
    assert terms.Dot is terms._dot_class() is kernel.Dot
    assert terms.Dot(x, x) == terms.dot(x, x)
    with pytest.raises(AttributeError):
        terms.NoSuchName
    with pytest.raises(AttributeError):
        kernel.NoSuchName


def test_dot_takes_exactly_two_vectors():
    with pytest.raises(TypeError):
        terms.Dot(x, x, x)
    assert sp.latex(terms.dot(x, x)) == r"\lVert x \rVert^{2}"


@pytest.mark.parametrize("record", [
    Fact(x, "=", x), terms.Rewrite(x, 2, 1), terms.VectorDef(x, x),
    terms.Hyp("h", Fact(x, "=", x)), terms.Family(x, x, ()), terms.Square(x),
    terms.NormSq(x), terms.Term(1), terms.EqTerm(1, "h"), terms.Certificate(),
    terms.Link("=", x), terms.Chain("c", x, ()), terms.LemmaUse("u", None),
    terms.Derivation(()), terms.Induction(x, x, terms.Derivation(()), terms.Derivation(())),
    terms.Theorem("t", "t", (), (), (), (), terms.Derivation(())),
], ids=lambda r: type(r).__name__)
def test_every_kernel_record_is_immutable(record):
    field = dataclasses.fields(record)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(record, field, None)


def _checked():
    return kernel.check_theorem(kernel.Theorem("t", "t", (), (), (), (Fact(x, "=", x),),
                                               kernel.Derivation(())))


def test_the_kernels_token_is_not_shown_and_an_unprintable_edit_is_not_checked():
    done = _checked()
    assert registry.is_checked(done) and "token" not in repr(done)
    object.__setattr__(done, "theorem", "no longer a theorem")
    assert not registry.is_checked(done)


def test_a_certificate_error_says_its_message_and_keeps_its_row():
    from verify.kernel import CertificateError

    error = CertificateError("row 2: y w.x = -1 <= 0", 2)
    assert str(error) == "row 2: y w.x = -1 <= 0" and error.index == 2
    assert error.args == ("row 2: y w.x = -1 <= 0",)


def test_every_record_of_the_kernel_is_frozen():
    """A proof object cannot change after it was built (or checked): each record refuses an
    assignment (written for the mutants of ``make mutation`` that unfreeze a dataclass)."""
    import dataclasses

    import sympy as sp

    from verify.kernel import terms as t

    x = sp.Symbol("x", real=True)
    fact = t.Fact(x, ">=", 0)
    hyp = t.Hyp("h", fact)
    derivation = t.Derivation(())
    theorem = t.Theorem("n", "t", (), (), (hyp,), (fact,), derivation)
    records = [
        fact, t.Rewrite(x, 2, 1), t.VectorDef(x, x), hyp, t.Family(x, x, (hyp,)), t.Square(x),
        t.NormSq(x), t.Term(1), t.EqTerm(1, "h"), t.Certificate(), t.Link(">=", 0),
        t.Chain("c", x, ()), t.LemmaUse("u", None), derivation,
        t.Induction(x, x, derivation, derivation), theorem,
        t.CaseSplit("s", x, fact, derivation, derivation), t.SquareCompare("q", x, ">=", x),
        t.Antisymmetry("a", x, x),
    ]
    assert {type(r) for r in records} | {t.CheckedTheorem} == {
        c for c in vars(t).values() if isinstance(c, type) and dataclasses.is_dataclass(c)}
    for record in records:
        field = dataclasses.fields(record)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, field, None)
    assert t.CheckedTheorem.__dataclass_params__.frozen


@pytest.mark.parametrize("field, value", [
    ("rules", ("ring",)), ("declared", ("h",)), ("lemmas", ("cauchy-schwarz",)), ("steps", 5),
])
def test_a_checked_theorem_edited_in_place_is_no_longer_checked(field, value):
    """object.__setattr__ goes around the frozen dataclass; is_checked compares the record the
    kernel kept (written for a mutant of ``make mutation`` that compared the theorem only)."""
    import sympy as sp

    from verify.kernel import Derivation, Fact, Theorem, check_theorem, is_checked

    a = sp.Symbol("a", real=True)
    done = check_theorem(Theorem("t", "t", (), (), (), (Fact(a, "=", a),), Derivation(())))
    assert is_checked(done)
    object.__setattr__(done, field, value)
    assert not is_checked(done)
