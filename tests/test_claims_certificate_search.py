"""The certificate search of claims builds its candidate polynomials as dicts (issue 25, speed):
the product of two reduced dicts is the sympy expansion of the product, reduced by the same
rewriting rules (:func:`verify.search.claim_certificates.reduce_rewrites`)."""

from __future__ import annotations

from fractions import Fraction

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from verify.search.claim_certificates import _Polynomials, find_certificate, reduce_rewrites

s, t, x, y = sympy.symbols("s t x y", real=True)
GENS = [s, t, x, y]
RULES = {s: (2, x + 1), t: (2, x ** 2 * y)}   # s = sqrt(x + 1), t = |x*sqrt(y)|-like atoms

monomials = st.builds(lambda c, e: c * s ** e[0] * t ** e[1] * x ** e[2] * y ** e[3],
                      st.fractions(max_denominator=4).map(lambda f: sympy.Rational(
                          f.numerator, f.denominator)),
                      st.tuples(*[st.integers(0, 3)] * 4))
polynomials = st.lists(monomials, max_size=4).map(lambda terms: sympy.Add(*terms))


@settings(max_examples=60, deadline=None)
@given(polynomials, polynomials)
def test_the_product_of_reduced_dicts_is_the_reduced_expansion(a, b):
    algebra = _Polynomials(GENS, RULES)
    wanted = sympy.Poly(reduce_rewrites(a * b, RULES), *GENS).as_dict()
    got = algebra.product(algebra.of(a), algebra.of(b))
    assert got == {m: Fraction(int(c.p), int(c.q)) for m, c in wanted.items()}  # 2 == Fraction(2)


def test_a_certificate_over_a_rewritten_atom_is_found_and_exact():
    """2*s*x <= x**2 + x + 1 for s = sqrt(x + 1): the search finds (x - s)**2 >= 0."""
    found = find_certificate(sympy.expand(x ** 2 + x + 1 - 2 * s * x), [], [], {s: (2, x + 1)})
    total = sum(c * sympy.Mul(*[f[1] ** 2 for f in factors]) for c, factors in found.terms)
    assert sympy.expand(reduce_rewrites(total - (x ** 2 + x + 1 - 2 * s * x),
                                        {s: (2, x + 1)})) == 0
