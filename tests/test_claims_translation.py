"""The claims checker's translation of a claim into kernel terms, on its own.

Since issue 24 only the elaboration (``verify.claims.elaborate``: ``Elaborator``,
``domain_conditions``) is trusted: the kernel writes the atoms' definitions and compares every
proof (``_Prover``, ``_prove`` and the sums' induction, all untrusted) with the elaborated
statement.  These tests pin it down without
the counterexample search in front of it: a false claim handed straight to ``_prove`` must
never come back ``proved``, and a true one must be proved with exactly its domain conditions.
(Most of these tests were written for mutants of ``make mutation`` that survived.)
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from verify.claims.checker import _prove, decide_claim, domain_conditions
from verify.claims.elaborate import ElaborationRefused, Elaborator
from verify.claims.parser import parse_claim

X = ("sym", "x")


def test_domain_conditions_are_innermost_first_without_repeats_and_only_where_needed():
    sqrt_x = ("sqrt", X)
    assert domain_conditions(("add", sqrt_x, sqrt_x)) == [("nonneg", X)]
    assert domain_conditions(("div", ("num", Fraction(1)), ("add", X, sqrt_x))) == [
        ("nonneg", X), ("nonzero", ("add", X, sqrt_x))]
    assert domain_conditions(("pow", X, -2)) == [("nonzero", X)]
    assert domain_conditions(("pow", X, -1)) == [("nonzero", X)]
    assert domain_conditions(("pow", X, 0)) == []                 # x**0 is 1 everywhere
    assert domain_conditions(("pow", X, 2)) == []
    assert domain_conditions(X) == [] and domain_conditions(("num", Fraction(-1))) == []


def test_a_sum_inside_an_expression_is_refused_by_the_elaborator():
    """A symbolic sum is a SumGoal of the statement, never a term inside an expression."""
    with pytest.raises(ElaborationRefused):
        Elaborator().expr(("add", ("sum", ("sym", "k"), "k", 1, ("sym", "n")), X))


#: True claims and the domain conditions their proofs establish.
TRUE = [
    ("x**0 == 1", ()),
    ("assume: x >= 1\n-x <= -1", ()),
    ("assume: x >= 1\n-x + 1 <= 0", ()),
    ("assume: x > 0\nx**(-2) > 0", ("x != 0: x > 0 proved from the assumptions",)),
    ("assume: x >= 0\nsqrt(x)*sqrt(x) == x", ("x >= 0: proved from the assumptions",)),
    ("assume: x >= 0\nsqrt(x) + sqrt(x) >= 0", ("x >= 0: proved from the assumptions",)),
    ("Abs(x) >= x", ()),
    ("Abs(x) >= -x", ()),
    ("Abs(x)**2 == x**2", ()),
    ("assume: x >= 0, sqrt(x) + 1 >= 3\nx >= 4",
     ("x >= 0: assumed (the assumption 'sqrt(x) + 1 >= 3' uses its square root)",)),
    ("assume: sqrt(x) >= 2, sqrt(x) <= 3\nx <= 9",
     ("x >= 0: assumed (the assumption 'sqrt(x) >= 2' uses its square root)",)),
    ("assume: Abs(x) <= 1\nx <= 1", ()),
    ("assume: sqrt(x) >= 0, y >= 0\nx*y >= 0",
     ("x >= 0: assumed (the assumption 'sqrt(x) >= 0' uses its square root)",)),
    ("assume: sqrt(x) >= 1\nx**3 >= 0",
     ("x >= 0: assumed (the assumption 'sqrt(x) >= 1' uses its square root)",)),
    ("assume: x != 2\n(x-2)/(x-2) == 1", ("x - 2 != 0: assumed",)),
    ("assume: x != 1\n(x**2 - 1)/(x - 1) == x + 1", ("x - 1 != 0: assumed",)),
    ("vectors: u, v\ndot(u, u) + 2*dot(u, v) + dot(v, v) >= 0", ()),   # |u + v|^2 >= 0
    ("vectors: u, v\ndot(u, u) - 2*dot(u, v) + dot(v, v) >= 0", ()),   # |u - v|^2 >= 0
    ("vectors: v\nsqrt(dot(v, v)) >= 0", ("Dot(v, v) >= 0: proved from the assumptions",)),
    ("vectors: u, v\nassume: dot(u, v) >= 1\nsqrt(dot(u, v)) >= 0",
     ("Dot(u, v) >= 0: proved from the assumptions",)),
    ("vectors: v\nassume: dot(v, v) >= 1\n1/dot(v, v) - 1/dot(v, v) == 0",
     ("Dot(v, v) != 0: Dot(v, v) > 0 proved from the assumptions",)),
    ("assume: x > 0\n1/Abs(x) > 0", ("|x| != 0: |x| > 0 proved from the assumptions",)),
    ("sqrt(0) >= 0", ()),                                              # constants: no domain
    ("sqrt(1/2) <= 1", ()),
    ("assume: 2 - x != 0\n(x-2)/(x-2) == 1", ("x - 2 != 0: assumed",)),   # either sign
    ("assume: x > 0\nx != 0", ()),
    ("1/(sqrt(2) - 1) > 0", ("\u221a(2) - 1 != 0: \u221a(2) - 1 > 0 proved from the assumptions",)),
]


@pytest.mark.parametrize("text, domain", TRUE)
def test_true_claims_are_proved_with_their_domain_conditions(text, domain):
    verdict = decide_claim(parse_claim(text))
    assert (verdict.status, verdict.domain) == ("proved", domain), verdict.explain()
    status, _, proved_domain = _prove(parse_claim(text))
    assert (status, proved_domain) == ("proved", domain)


#: False claims: the translation alone (no counterexample search) must not prove them.
FALSE = [
    "assume: x >= 0\nsqrt(x) > 0",             # sqrt(0) = 0
    "assume: x >= 0\nsqrt(x) >= 1",
    "Abs(x) > x",                              # x = 1
    "Abs(x) > -x",                             # x = -1
    "assume: x >= 1\n-x >= 0",
    "assume: sqrt(x) >= 0\nx > 0",             # the domain x >= 0 is not x > 0
    "assume: sqrt(x) >= 0\nx >= 1",
    "assume: x >= -1\nsqrt(x) >= 0",            # sqrt(-1/2) is undefined
    "sqrt(x - x - 1) >= 0",                    # a constant -1 the parser does not see
    "assume: x >= 0\nx != 0",                  # != is > or <, never >= or <=
    "assume: x <= 0\nx != 0",
    "assume: x >= 0\nx + sqrt(x) >= 1",        # the domain x >= 0 is not x >= 1
]


@pytest.mark.parametrize("text", FALSE)
def test_false_claims_are_never_proved_by_the_translation(text):
    status, reason, _ = _prove(parse_claim(text))
    assert status != "proved", reason
    assert decide_claim(parse_claim(text)).status == "refuted"


#: Claims the translation refuses, and why.
UNPROVED = [
    ("assume: 1/x >= 1\nx >= 0", "divides by x: write it without a variable denominator"),
    # a constant target is decided by its sign, never handed to the kernel as a false certificate
    ("assume: x >= 0\nx > x", "no certificate found for 'x > x'"),
    ("assume: x >= 0\nx + 1 == x", "'x + 1 == x' is not an identity under the assumptions"),
    ("assume: x >= 0\nx == x + 1", "'x == x + 1' is not an identity under the assumptions"),
    ("vectors: u\ndot(u, u) > 0", "no certificate found for 'dot(u, u) > 0'"),
    ("assume: x >= -1\nsqrt(x) >= 0",
     "the domain condition x >= 0 (of sqrt(x)) does not follow from the assumptions"),
    ("1/(x - x) >= 0", "the denominator 0 is identically 0"),
    ("(x-2)/(x-2) == 1",
     "the domain condition x - 2 != 0 (a denominator) does not follow from the assumptions"),
    # only an equality cancels a factor assumed != 0 (of unknown sign)
    ("assume: x != 1\n(x**2 - 1)/(x - 1) >= x + 1", "cannot clear the denominator x - 1"),
    ("assume: x > 0\nx == 2*x", "'x == 2*x' is not an identity under the assumptions"),
]


@pytest.mark.parametrize("text, reason", UNPROVED)
def test_the_translation_refuses_with_the_reason(text, reason):
    status, why, _ = _prove(parse_claim(text))
    assert status == "unproved" and reason in why, why


_OTHERS = "abcdefghjk"


@pytest.mark.parametrize("text", [
    "assume: x >= 1, " + ", ".join(f"{v} >= 0" for v in _OTHERS) + "\nx**3 >= 1",
    "assume: x >= 1, " + ", ".join(f"{v} == 0" for v in _OTHERS) + "\nx**3 >= 1",
    "assume: x**2 == 2, " + ", ".join(f"{v} == 0" for v in _OTHERS) + "\nx**2 >= 1",
])
def test_the_facts_about_the_goals_own_variables_are_searched_first(text):
    """Ten facts about other variables make the search over every fact too large (it stops
    at its limit); the first search, over the facts about x alone, finds the certificate."""
    status, certificate, _ = _prove(parse_claim(text), vacuity=False)
    assert status == "proved", certificate


@pytest.mark.parametrize("text", [
    "assume: x >= 1, x <= 0\nx >= 5",
    "assume: sqrt(x) <= -1\nx >= 5",
])
def test_contradictory_assumptions_are_found_vacuous(text):
    status, reason, _ = _prove(parse_claim(text))
    assert status == "vacuous", reason
    assert decide_claim(parse_claim(text)).status == "vacuous"


def test_a_domain_condition_is_proved_by_the_kernel_not_by_the_proposer(monkeypatch):
    """A lying proposer offers the same false certificate for everything: the domain condition
    x >= 0 of sqrt(x) does not follow from x >= -1, and the kernel says so."""
    from verify.search import claim_certificates
    from verify.search.claim_certificates import FoundCertificate

    monkeypatch.setattr(claim_certificates, "find_certificate",
                        lambda *args, **kwargs: FoundCertificate(((1, ("h1",)),), ()))
    status, reason, domain = _prove(parse_claim("assume: x >= -1\nsqrt(x) >= 0"))
    assert status == "unproved" and domain == ()
    assert "the domain condition x >= 0 (of sqrt(x)) does not follow" in reason


#: Claims and the exact certificate text a reader checks by hand (big side - small side = ...).
CERTIFICATES = [
    ("assume: x > 0\nx*x == x**2", "x**2 - (x*x) = 0"),
    ("assume: x > 0\n2*x >= x", "2*x - (x) = 1*(x)"),
    ("assume: x >= 1\n-x <= -1", "-1 - (-x) = 1*(x - 1)"),
    ("assume: x >= 1\n0 < x", "x - (0) = 1 + 1*(x - 1)"),
    ("assume: x**2 == 2\nx**2 >= 1",
     "x**2 - (1) = 1/6*(x + 1)**2 + 1/6*(1 - x)**2 + (2/3)*(x**2 - 2)"),
    ("assume: x > 0\nx != 0", "x != 0 since x > 0: x - (0) = 1*(x)"),
    ("assume: x > 0\nx + 1/x >= 2", "(x) * (x + 1/x - (2)) = 1*(1 - x)**2"),
    ("assume: x > 0, y > 0\nx/y + y/x >= 2", "(x)*(y) * (x/y + y/x - (2)) = 1*(x - y)**2"),
]


@pytest.mark.parametrize("text, certificate", CERTIFICATES)
def test_the_certificate_text(text, certificate):
    assert _prove(parse_claim(text))[:2] == ("proved", certificate)


def _root_certificate(q: Fraction, alpha: Fraction, beta: Fraction, strict: bool):
    """_constant_root_certificate for alpha + beta*sqrt(q), with sqrt(q)'s atom defined as
    the prover defines it for a claim; (certificate or None, the prover, the target)."""
    from verify.claims.checker import _constant_root_certificate, _Prover

    claim = parse_claim(f"sqrt({q}) >= 0")
    prover = _Prover(claim)
    prover.assumptions()
    prover.goal_domains()
    s = prover.tr.atom(claim.goals[0].lhs).symbol
    assert s in prover.defined and prover.rewrites[s] == (2, q)
    target = prover.sp.Rational(alpha.numerator, alpha.denominator) + \
        prover.sp.Rational(beta.numerator, beta.denominator) * s
    return _constant_root_certificate(prover, target, strict), prover, target


def _root_expected(q: Fraction, alpha: Fraction, beta: Fraction, strict: bool) -> bool:
    """When the exact comparison of squares gives a certificate (the function's contract)."""
    if beta > 0 and alpha >= 0:
        return not (strict and alpha == 0)          # s > 0 is left to the general search
    if beta > 0 and alpha < 0:                       # s >= c = -alpha/beta: q >= c**2
        c = -alpha / beta
        return q > c * c or (not strict and q == c * c)
    if beta < 0 and alpha > 0:                       # s <= c = alpha/|beta|: c**2 >= q
        c = alpha / -beta
        return c * c > q or (not strict and c * c == q)
    return False


_SMALL = st.fractions(min_value=-4, max_value=4, max_denominator=3)


@given(q=st.fractions(min_value=0, max_value=9, max_denominator=3),
       alpha=_SMALL, beta=_SMALL, strict=st.booleans())
@example(q=Fraction(4), alpha=Fraction(-2), beta=Fraction(1), strict=False)   # s - 2 >= 0, s = 2
@example(q=Fraction(4), alpha=Fraction(-2), beta=Fraction(1), strict=True)
@example(q=Fraction(4), alpha=Fraction(2), beta=Fraction(-1), strict=False)   # 2 - s >= 0
@example(q=Fraction(4), alpha=Fraction(2), beta=Fraction(-1), strict=True)
@example(q=Fraction(2), alpha=Fraction(0), beta=Fraction(1), strict=True)
@example(q=Fraction(2), alpha=Fraction(0), beta=Fraction(3), strict=False)
@example(q=Fraction(0), alpha=Fraction(1), beta=Fraction(1), strict=True)      # sqrt(0)
@example(q=Fraction(0), alpha=Fraction(0), beta=Fraction(1), strict=False)
@example(q=Fraction(0), alpha=Fraction(2), beta=Fraction(1), strict=True)
@example(q=Fraction(0), alpha=Fraction(0), beta=Fraction(-1), strict=False)
@example(q=Fraction(5), alpha=Fraction(2), beta=Fraction(-1), strict=False)    # 4 < 5 <= 8
@example(q=Fraction(1, 5), alpha=Fraction(1, 2), beta=Fraction(-1), strict=False)
@example(q=Fraction(5), alpha=Fraction(-2), beta=Fraction(1), strict=False)
@example(q=Fraction(1, 5), alpha=Fraction(-1, 2), beta=Fraction(1), strict=False)
@example(q=Fraction(2), alpha=Fraction(1), beta=Fraction(1), strict=True)
@example(q=Fraction(2), alpha=Fraction(-1), beta=Fraction(1), strict=True)
@example(q=Fraction(2), alpha=Fraction(3, 2), beta=Fraction(-1), strict=True)
@example(q=Fraction(2), alpha=Fraction(1), beta=Fraction(0), strict=False)
@settings(deadline=None)
def test_the_exact_certificates_for_a_constant_square_root(q, alpha, beta, strict):
    """alpha + beta*sqrt(q) >= 0 (> 0 if strict) gets a certificate exactly when the
    comparison of squares shows it, and the kernel accepts every certificate given."""
    certificate, prover, target = _root_certificate(q, alpha, beta, strict)
    assert (certificate is not None) == _root_expected(q, alpha, beta, strict)
    if certificate is not None:
        kernel, rel = prover.kernel, ">" if strict else ">="
        prover.check("root", kernel.Fact(target, rel, 0),
                     (kernel.Chain("root", target, (kernel.Link(rel, 0, certificate),)),))


_N = "assume: n >= 0, n integer\n"


@pytest.mark.parametrize("text, status, text_in", [
    (_N + "n**2 >= Sum(k, (k, 1, n))", "proved", "base n = 0: empty sum 0 <= 0"),   # sum right
    (_N + "n*(n+1)/2 <= Sum(k, (k, 1, n))", "proved", "base n = 0: empty sum 0 >= 0"),
    (_N + "n**2 + 1 > Sum(k, (k, 1, n))", "unproved", "compared with ==, <= or >="),
    (_N + "-1 < Sum(k, (k, 1, n))", "unproved", "compared with ==, <= or >="),
    (_N + "Sum(k, (k, 1, n)) > -1", "unproved", "compared with ==, <= or >="),
    (_N + "Sum(k, (k, 1, n)) <= Sum(k**2, (k, 1, n))", "unproved",
     "write a symbolic sum alone on one side"),
    (_N + "Sum(k, (k, 1, n)) + 1 >= 1", "unproved", "write a symbolic sum alone on one side"),
    (_N + "0 <= Sum(k, (k, 1, n)) <= n**2", "unproved", "a claim with a symbolic sum is one "
                                                         "comparison"),
    ("assume: Sum(k, (k, 1, n)) >= 0\nn >= 0", "unproved",
     "a symbolic sum in an assumption is not supported"),
    (_N + "1 <= Sum(k, (k, 1, n)) + 1", "unproved", "write a symbolic sum alone on one side"),
    (_N + "Sum(sqrt(k), (k, 1, n)) >= 0", "unproved",
     "a symbolic sum and its closed form are polynomials here"),
    (_N + "Sum(k, (k, 1, n)) <= n**3/n", "unproved",
     "a symbolic sum and its closed form are polynomials here"),
    # the square root of a constant is a number, but the induction has no rule s**2 = 4 for it
    (_N + "Sum(sqrt(4)*k, (k, 1, n)) == n*(n + 1)", "unproved",
     "a symbolic sum and its closed form are polynomials here"),
    (_N + "Sum(k, (k, 1, n)) <= n**2*sqrt(4)", "unproved",
     "a symbolic sum and its closed form are polynomials here"),
    (_N + "Sum(k/2, (k, 1, n)) == n*(n + 1)/4", "proved", "0 (identically)"),   # constant /
])
def test_symbolic_sums_are_proved_by_induction_or_refused_with_the_reason(text, status, text_in):
    verdict_status, text_out, _ = _prove(parse_claim(text))
    assert verdict_status == status and text_in in text_out, text_out


def test_an_induction_is_checked_by_the_kernel_not_by_the_proposer(monkeypatch):
    from verify.search import claim_certificates
    from verify.search.claim_certificates import FoundCertificate

    monkeypatch.setattr(claim_certificates, "find_certificate",
                        lambda *args, **kwargs: FoundCertificate(((5, ()),), ()))
    status, reason, _ = _prove(parse_claim(_N + "n**2 >= Sum(k, (k, 1, n))"))
    assert status == "unproved" and reason.startswith("the kernel rejected the induction"), reason

    def out_of_budget(*args, **kwargs):
        raise claim_certificates.SearchLimitReached("the search ran out of its budget")

    monkeypatch.setattr(claim_certificates, "find_certificate", out_of_budget)
    assert _prove(parse_claim(_N + "n**2 >= Sum(k, (k, 1, n))")) == (
        "unproved", "search limit reached: the search ran out of its budget", ())


@pytest.mark.parametrize("text, proof", [
    (_N + "Sum(-(k-2)**2, (k, 1, n)) <= 0",
     "by induction on n, checked by the kernel: base n = 0: empty sum 0 <= 0; step: "
     "G(n + 1) - G(n) - f(n + 1) = (n - 1)**2 >= 0 for n >= 0; n is 0 + a natural number by "
     "'n >= 0' and 'n integer'"),
    (_N + "Sum(k, (k, 0, n)) == n*(n + 1)/2",
     "by induction on n, checked by the kernel: base n = -1: empty sum 0 == 0; step: "
     "G(n + 1) - G(n) - f(n + 1) = 0 (identically) for n >= -1; n is -1 + a natural number by "
     "'n >= 0' and 'n integer'"),
    ("assume: n >= 1, n integer\nSum(k, (k, 1, n)) <= n**2",
     "by induction on n, checked by the kernel: base n = 0: empty sum 0 <= 0; step: "
     "G(n + 1) - G(n) - f(n + 1) = n >= 0 for n >= 0; n is 0 + a natural number by "
     "'n >= 1' and 'n integer'"),
    ("assume: n >= 0, n integer, t >= 0\nSum(t, (k, 1, n)) >= 0",     # a variable named t
     "by induction on n, checked by the kernel: base n = 0: empty sum 0 >= 0; step: "
     "G(n + 1) - G(n) - f(n + 1) = -t <= 0 for n >= 0; n is 0 + a natural number by "
     "'n >= 0' and 'n integer'"),
    ("assume: 0 <= n, n integer\nSum(k, (k, 1, n)) >= 0",
     "by induction on n, checked by the kernel: base n = 0: empty sum 0 >= 0; step: "
     "G(n + 1) - G(n) - f(n + 1) = -n - 1 <= 0 for n >= 0; n is 0 + a natural number by "
     "'0 <= n' and 'n integer'"),
    ("assume: n > 0, n integer\nSum(k, (k, 1, n)) >= 0",
     "by induction on n, checked by the kernel: base n = 0: empty sum 0 >= 0; step: "
     "G(n + 1) - G(n) - f(n + 1) = -n - 1 <= 0 for n >= 0; n is 0 + a natural number by "
     "'n > 0' and 'n integer'"),
    ("assume: n >= 0, n integer, m integer, r != 0\nSum(r**2, (k, 1, n)) >= 0",
     "by induction on n, checked by the kernel: base n = 0: empty sum 0 >= 0; step: "
     "G(n + 1) - G(n) - f(n + 1) = -r**2 <= 0 for n >= 0; n is 0 + a natural number by "
     "'n >= 0' and 'n integer'"),
    ("assume: 0 < n, n integer\nSum(k, (k, 1, n)) >= 0",
     "by induction on n, checked by the kernel: base n = 0: empty sum 0 >= 0; step: "
     "G(n + 1) - G(n) - f(n + 1) = -n - 1 <= 0 for n >= 0; n is 0 + a natural number by "
     "'0 < n' and 'n integer'"),
])
def test_the_text_of_an_induction(text, proof):
    assert _prove(parse_claim(text)) == ("proved", proof, ())


@pytest.mark.parametrize("text, reason", [
    (_N + "Sum(n, (k, 1, n)) == n**2", "the summand cannot use n"),
    (_N + "Sum(k, (k, 1, n)) == n**2", "not an identity: the difference t is not 0"),
    (_N + "Sum(k, (k, 1, n)) <= n", "no certificate that -t >= 0 (the increment of the closed "
                                    "form minus the summand, for every natural t)"),
    ("assume: n >= -5, n integer\nSum(k, (k, 1, n)) == n*(n + 1)/2", "induction on n needs"),
    ("assume: n >= 0, m integer\nSum(k, (k, 1, n)) >= 0", "induction on n needs"),
    ("assume: n integer\nSum(k, (k, 1, n)) >= 0", "induction on n needs"),
    ("assume: n <= 5, n integer\nSum(k, (k, 1, n)) >= 0", "induction on n needs"),
    ("assume: -1 <= n, n integer\nSum(k, (k, 1, n)) >= 0", "induction on n needs"),
    ("assume: n > -1, n integer\nSum(k, (k, 1, n)) >= 0", "induction on n needs"),
    # a bound on another variable, or an upper bound on n, is not a lower bound on n
    ("assume: r >= 0, n integer\nSum(k, (k, 1, n)) >= 0", "induction on n needs"),
    ("assume: 0 <= r, n integer\nSum(k, (k, 1, n)) >= 0", "induction on n needs"),
    ("assume: 5 >= n, n integer\nSum(k, (k, 1, n)) >= 0", "induction on n needs"),
])
def test_an_induction_is_refused_with_the_reason(text, reason):
    status, why, _ = _prove(parse_claim(text))
    assert status == "unproved" and why.startswith(reason), why


def test_an_inner_product_in_a_denominator_is_refused_not_a_crash():
    """sympy cannot divide polynomials in v by Dot(v, v) (it raised PolynomialError, and the
    claims checker crashed); the denominator is now left uncleared, with the reason."""
    from verify.claims.checker import check_claim_text

    verdict = check_claim_text("vectors: v\nassume: dot(v, v) >= 1\n1/dot(v, v) <= 1")
    assert verdict.status == "unproved"
    assert "cannot clear the denominator" in verdict.reason
    assert verdict.domain == ("Dot(v, v) != 0: Dot(v, v) > 0 proved from the assumptions",)
