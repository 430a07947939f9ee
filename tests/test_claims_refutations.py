"""Refutations a reader checks by hand, and verdict messages of one line (issue 25).

Each false twin of a standard fact is refuted at a simple rational point (or small integer
vectors), and the message states the value of each side.
"""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verify.claims import check_claim_text
from verify.claims.checker import check_markdown_text
from verify.claims.parser import parse_claim
from verify.claims.refute import counterexample_text, scalar_values
from verify.cli.claims import verdict_lines

TWINS = [
    ("assume: x >= 0\nsqrt(x) <= x", "x = 1/4: sqrt(x) = 1/2 > x = 1/4"),
    ("Abs(a + b) >= Abs(a) + Abs(b)", "a = 1, b = -1: Abs(a + b) = 0 < Abs(a) + Abs(b) = 2"),
    ("sqrt(x**2) == x", "x = -1: sqrt(x**2) = 1 != x = -1"),
    ("assume: a >= 0, b >= 0\n(a + b)/2 <= sqrt(a*b)",
     "a = 0, b = 1: (a + b)/2 = 1/2 > sqrt(a*b) = 0"),
    ("vectors: u, v\nnorm(u + v) >= norm(u) + norm(v)",
     "u = (1), v = (-1): norm(u + v) = 0 < norm(u) + norm(v) = 2"),
    ("assume: n >= 1, n integer\nSum(k, (k, 1, n)) == n**2/2",
     "n = 1: Sum(k, (k, 1, n)) = 1 != n**2/2 = 1/2"),
    ("assume: x >= 0\n(1 + x)**3 <= 1 + 3*x", "x = 1: (1 + x)**3 = 8 > 1 + 3*x = 4"),
    ("assume: T > 0, rho > 0, R > 0, W > 0, T*rho <= sqrt(T)*R*W\nT <= R*W/rho",
     "R = 1, T = 4, W = 1, rho = 1/2: T = 4 > R*W/rho = 2"),
    # symbolic exponents (x**n, n integer): refuted at a small exponent
    ("assume: n >= 0, n integer, x >= 0\n(1 + x)**n <= 1 + n*x",
     "n = 2, x = 1: (1 + x)**n = 4 > 1 + n*x = 3"),
    ("assume: n >= 1, n integer\n2**n >= n**2", "n = 3: 2**n = 8 < n**2 = 9"),
    ("assume: n >= 1, n integer, x >= 0, x <= 2\nx**n <= x", "n = 2, x = 2: x**n = 4 > x = 2"),
    ("assume: n >= 0, n integer, r != 1\nSum(r**k, (k, 0, n)) == (1 - r**n)/(1 - r)",
     "n = 0, r = 0: Sum(r**k, (k, 0, n)) = 1 != (1 - r**n)/(1 - r) = 0"),
]


@pytest.mark.parametrize("text, shown", TWINS)
def test_a_false_twin_is_refuted_with_the_value_of_each_side(text, shown):
    verdict = check_claim_text(text)
    assert verdict.status == "refuted"
    assert verdict.reason == shown
    assert verdict.headline() == f"refuted: {verdict.claim.goals[0].text}, at {shown}"


def test_the_values_shown_are_the_exact_values_of_the_sides():
    goal = parse_claim("x**2 >= x").goals[0]
    assert counterexample_text({"x": Fraction(1, 3)}, goal) == "x = 1/3: x**2 = 1/9 < x = 1/3"


def test_a_point_near_a_boundary_of_the_assumptions_is_tried():
    verdict = check_claim_text("assume: x > 7\nx >= 7.01")
    assert verdict.status == "refuted"
    x = verdict.counterexample["x"]
    assert 7 < x < Fraction(701, 100)


def test_the_boundaries_of_the_assumptions_come_before_the_fine_scan():
    values = scalar_values(parse_claim("assume: r < 7\nr <= 7"))
    assert values.index(Fraction(7)) < values.index(Fraction(1, 5))
    assert Fraction(27, 4) in values[:20]


def test_a_claim_false_only_near_a_root_is_refuted():
    # x**2 - x + 0.2 < 0 only strictly between the roots (5 ± sqrt(5))/10
    verdict = check_claim_text("x**2 - x + 0.2 >= 0")
    assert verdict.status == "refuted"
    x = verdict.counterexample["x"]
    assert x**2 - x + Fraction(1, 5) < 0


def test_vector_counterexamples_are_small_integer_vectors_in_one_to_three_dimensions():
    verdict = check_claim_text("vectors: u, v, w\ndot(u, v)*dot(v, w) <= dot(u, w)*dot(v, v)")
    assert verdict.status == "refuted"
    vectors = [verdict.counterexample[k] for k in "uvw"]
    assert len({len(v) for v in vectors}) == 1 and 1 <= len(vectors[0]) <= 3
    assert all(c.denominator == 1 and abs(c) <= 2 for v in vectors for c in v)
    u, v, w = vectors
    dot = lambda p, q: sum(a * b for a, b in zip(p, q))  # noqa: E731
    assert dot(u, v) * dot(v, w) > dot(u, w) * dot(v, v)


def test_a_refuted_claim_says_its_verdict_once():
    claim = check_markdown_text("```claim\nassume: x >= 0\nsqrt(x) <= x\n```\n")[0]
    shown = verdict_lines(claim)
    assert shown == "<text>:1: refuted: sqrt(x) <= x, at x = 1/4: sqrt(x) = 1/2 > x = 1/4" \
                    "  [FAILS: expected proved]"
    assert shown.count("refuted") == 1


def test_an_unproved_claim_is_one_line_and_one_short_hint():
    claim = check_markdown_text("```claim\nassume: a > 0, b > 0\n"
                                "sqrt(a*b)/(a + b - sqrt(a*b)) > 0\n```\n")[0]
    lines = verdict_lines(claim).split("\n")
    assert lines[0] == "<text>:1: unproved: assume a > 0, b > 0: " \
                       "sqrt(a*b)/(a + b - sqrt(a*b)) > 0  [FAILS: expected proved]"
    assert len(lines) == 2 and lines[1].startswith("    hint: assume ")
    assert len(lines[1]) <= 170


def test_verbose_adds_the_certificate():
    claim = check_markdown_text("```claim\nassume: x >= 0\nx**3 - 3*x + 2 >= 0\n```\n")[0]
    short, verbose = verdict_lines(claim), verdict_lines(claim, verbose=True)
    assert "\n" not in short and short.startswith("<text>:1: proved: for all real x with x >= 0")
    assert verbose.startswith(short + "\n    proved: ")
    assert verbose.endswith("since x**3 - 3*x + 2 - (0) = 2*(1 - x)**2 + 1*(x)*(1 - x)**2")


def test_a_uses_problem_is_named_once():
    text = "```claim\nid: bad\nx >= 1\n```\n\n```claim\nuses: bad\nx**2 >= 0\n```\n"
    second = check_markdown_text(text)[1]   # dependencies resolved within the text
    assert verdict_lines(second) == ("<text>:6: proved: for all real x: x**2 >= 0  [FAILS: uses "
                                     "'bad' (<text>:1), which is not fully verified]")


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 9), st.integers(-9, 9), st.integers(-9, 9))
def test_a_false_quadratic_is_refuted_at_a_point_where_it_really_fails(a, b, c):
    verdict = check_claim_text(f"{a}*x**2 + {b}*x + {c} >= 0")
    false_somewhere = b * b - 4 * a * c > 0
    # a true quadratic is never refuted (the certificate search may still leave it unproved)
    assert (verdict.status == "refuted") == false_somewhere, verdict.headline()
    if false_somewhere:
        x = verdict.counterexample["x"]
        assert isinstance(x, Fraction) and a * x * x + b * x + c < 0
        assert verdict.reason.startswith(f"x = {x}: ")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 6), max_size=4))
def test_the_shells_of_simple_points_are_every_index_tuple_ordered_by_its_largest_index(sizes):
    """Built directly (no product filtered by max): each index tuple exactly once, in the order
    of its largest index, lexicographic within one largest index."""
    from itertools import product

    from verify.claims.refute import _shells

    every = list(product(*(range(size) for size in sizes)))
    assert list(_shells(sizes)) == sorted(every, key=lambda t: (max(t, default=0), t))


@pytest.mark.parametrize("text", ["assume: a >= 0\na*b <= a**2 + b**2 + 1",
                                  "vectors: u, v\ndot(u, v) <= dot(u, u) + dot(v, v)"])
def test_the_wider_search_leaves_out_only_the_simple_points_tried_before(text):
    """After a first search of 300 points, the second (another seed) starts where the simple
    points of the first ended (per dimension of the vectors); its random points are its own."""
    from verify.claims.refute import _candidates

    claim = parse_claim(text)
    again = list(_candidates(claim, 1200, 1))
    rest = list(_candidates(claim, 1200, 1, start=300))
    first = set(_candidates(claim, 300, 0))
    left_out, i = [], 0                       # rest is again with some points left out, in order
    for point in again:
        if i < len(rest) and rest[i] == point:
            i += 1
        else:
            left_out.append(point)
    assert i == len(rest) and set(left_out) <= first
    assert len(left_out) == (300 if not claim.vectors else 25 + 100 + 100)  # 25 in dimension 1
