"""Trusted base: what may enter the kernel (every theorem is copied and checked here first).

Imports only :mod:`verify.kernel.errors` and sympy (lazily).

Every expression a theorem hands the kernel is walked here *before* anything is computed with
it.  It must be built, with sympy's own classes and nothing else, from

- rational numbers (sympy ``Integer`` / ``Rational``; Python ``int`` and ``Fraction`` are
  converted exactly; a ``Float``, ``I``, ``pi``, ``oo`` or a string is refused);
- plain real symbols: a ``Symbol`` whose only stated assumption is ``real=True`` (or none).
  A symbol with any other assumption (``positive``, ``nonnegative``, ``integer``...) is refused,
  because sympy rewrites expressions with it before the kernel sees them (``Abs(p)`` becomes
  ``p`` when ``p`` is nonnegative), so the checked statement would not be the stated one.  That
  a symbol is a natural number is said by the theorem (``naturals``), never by sympy;
- indexed scalars ``y[t]`` (``Indexed`` of an ``IndexedBase`` with a plain name), indices
  walked the same way;
- ``Add``, ``Mul`` (at least two arguments) and ``Pow`` (a base and an integer exponent; a
  negative one is a denominator, which the positive-divisor rule must cover), each with
  sympy's commutativity slot, as sympy's constructors make them;
- the kernel's own ``Dot(u, v)``; vector atoms (declared in the theorem) only inside it;

and written out (a power ``b**n`` as ``|n|`` copies of ``b``) it has at most
:data:`MAX_NODES` nodes, nested at most :data:`MAX_DEPTH` levels deep, its numbers at most
:data:`MAX_BITS` bits.

Any other function (``sin``, ``Abs``, ``sqrt``, a user's ``Function``), any subclass of these
classes, and any other object is refused with :class:`DerivationError` naming it.

>>> import sympy
>>> x = sympy.Symbol("x", real=True)
>>> expression(2 * x + sympy.Rational(1, 3), frozenset())
2*x + 1/3
>>> expression(sympy.I * x, frozenset())
Traceback (most recent call last):
...
verify.kernel.terms.DerivationError: I is not allowed in the kernel (only rational numbers)
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache
from math import gcd
from typing import Any

from verify.kernel.exact import exact_fraction, is_exact_int, type_is_one_of

__all__ = ["MAX_BITS", "MAX_DEPTH", "MAX_NODES", "expression", "snapshot"]

#: The assumptions a plain real symbol may state.
_REAL_ASSUMPTIONS = {"real": True, "commutative": True}
# A name is an ASCII identifier: the canonical printer prints a symbol by its name, so a name
# such as "a + b" would print its product with c as "a + b*c" (another statement's text).
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _error(message: str) -> Exception:
    from verify.kernel.terms import DerivationError

    return DerivationError(message)


def expression(e: Any, vectors: frozenset, vectors_free: bool = False) -> Any:
    """``e`` as a sympy expression after checking every node of it (see the module docstring).

    ``vectors``: names of the vector atoms (allowed only inside ``Dot``); ``vectors_free``:
    vector atoms may occur outside ``Dot`` too (a vector expression).  Returns the sympy object (converted from
    ``int`` / ``Fraction`` if needed); raises :class:`DerivationError` naming the refused part.
    """
    from verify.kernel.terms import _sympy

    sp = _sympy()
    if isinstance(e, bool):
        raise _error(f"{e!r} is not an expression")
    if isinstance(e, (int, Fraction)):
        number = exact_fraction(e)
        if number is None:
            raise _error(f"{e!r} is not an exact number (an int or a Fraction of ints)")
        e = sp.Rational(number.numerator, number.denominator)
    if not isinstance(e, sp.Basic):
        raise _error(f"{type(e).__name__} {e!r} is not an expression (only sympy objects, "
                     f"int and Fraction are)")
    _walk(sp, e, vectors, inside_dot=vectors_free, size=_Size())
    return e


#: The most nodes an expression may have written out as a tree: a power ``b**n`` counts as
#: ``|n|`` copies of ``b`` (an exponent 0 as one), a subexpression shared by several nodes once
#: for each (a sympy tree may share one object everywhere).  The kernel's arithmetic (sympy's
#: ``expand``, ``together``) works on the written-out form: without a bound, ``2**(10**11)``
#: (four nodes) or a tower ``((2**64)**64)**64`` stalled it.  With it, a power costs no more
#: than its product written out, an integer it evaluates to has at most this many times the
#: bits of the input's largest, and the walk itself stops after this many visits.  The
#: built-in theorems need 48, the site's claims 65 (``2**64``): 10,000 leaves a margin of 150
#: (``2**9999`` passes) and keeps a refused input's walk short.  Multiplying out a product of
#: sums stays exponential in general (``(x + y + z)**300``, 1,201 nodes, takes minutes).
MAX_NODES = 10_000

#: The most levels of nodes an expression may nest (a symbol alone is level 1).  sympy's
#: arithmetic recurses several calls per level: a sum nested 126 deep (``Add`` built past its
#: flattening constructor) ended the kernel with RecursionError, not a refusal, and the walk
#: itself recursed once per level.  The built-in theorems nest 7 deep, the site's claims 6;
#: a lemma's substitution at most doubles this.
MAX_DEPTH = 32

#: The most bits the numbers of an expression may have written out (numerator and
#: denominator of each, once for each occurrence, as nodes are counted).  MAX_NODES alone let a
#: 100-digit integer to the power 9999 (four nodes) become 3.3 million bits, a 1,000-digit one
#: 33 million: printing one such number (a refusal's message) took 23 s and ~40 minutes
#: (``str`` is quadratic).  Now at most about 300,000 digits; the tests' largest is 5,000.
MAX_BITS = 1_000_000


class _Size:
    """The nodes counted so far of one expression written out (see :data:`MAX_NODES`)."""

    def __init__(self) -> None:
        self.nodes = self.bits = 0

    def add_bits(self, bits: int) -> None:
        self.bits += bits
        if self.bits > MAX_BITS:
            raise _error(f"the expression's numbers have more than {MAX_BITS} bits written out "
                         f"(a power b**n counts n copies of b)")

    def add(self, copies: int) -> None:
        self.nodes += copies
        if self.nodes > MAX_NODES:
            raise _error(f"the expression has more than {MAX_NODES} nodes written out (a power "
                         f"b**n counts n copies of b)")


def _walk(sp: Any, e: Any, vectors: frozenset, inside_dot: bool, size: _Size,
          copies: int = 1, depth: int = 1) -> None:
    """Check ``e`` (see the module docstring); ``copies``: how many times it occurs written
    out (the product of the exponents of the powers around it); ``depth``: its level."""
    from verify.kernel.terms import _dot_class

    size.add(copies)
    if depth > MAX_DEPTH:
        raise _error(f"the expression nests more than {MAX_DEPTH} levels deep")
    if type(getattr(e, "_args", None)) is not tuple:
        # (sympy reads a node's arguments from ``_args``: a tuple subclass can give them one way
        # to the walk and the statement's text and another way to the kernel's arithmetic)
        raise _error(f"a {type(e).__name__} node whose arguments are not a plain tuple")
    _check_hash(e)
    kind = type(e)
    # every type below by identity: ``kind in (...)`` asks the metaclass's __eq__, which a
    # class can write to claim ``Mul`` (a product of its own printed without brackets), and a
    # module name is the class's to set
    if type_is_one_of(e, _rational_classes(sp)):
        _check_rational(e)
        size.add_bits(copies * (e.p.bit_length() + e.q.bit_length()))
        return
    if type_is_one_of(e, (sp.Symbol, sp.Dummy)):
        _check_symbol(e)
        if e.name in vectors and not inside_dot:
            raise _error(f"vector {e} used as a scalar")
        return
    if kind is sp.Indexed:
        base = e.base
        if type(base) is not sp.IndexedBase or type(base.label) is not sp.Symbol \
                or len(base.args) != 1:
            raise _error(f"{_shown(e)} is not an indexed symbol with a plain name")
        _check_symbol(base.label)
        _check_hash(base)
        _check_hash(base.label)
        if base.label.name in vectors and not inside_dot:
            raise _error(f"vector {e} used as a scalar")
        for index in e.indices:
            _walk(sp, index, frozenset(), False, size, copies, depth + 1)
        return
    if type_is_one_of(e, (sp.Add, sp.Mul, sp.Pow)):
        # (built past sympy's constructors: without the slot sympy fails on the node later; a
        # sum or product of fewer than two terms, or a power of other than a base and an
        # exponent, is nothing sympy makes, and sympy reads a power's first two arguments only)
        if getattr(e, "is_commutative", None) is not True:
            raise _error(f"{kind.__name__} node without sympy's commutativity slot")
        if len(e.args) < 2 or (kind is sp.Pow and len(e.args) != 2):
            raise _error(f"{kind.__name__} node of {len(e.args)} arguments (sympy builds "
                         f"{'a power of exactly 2' if kind is sp.Pow else 'one of at least 2'})")
    if type_is_one_of(e, (sp.Add, sp.Mul)):
        for arg in e.args:
            _walk(sp, arg, vectors, inside_dot, size, copies, depth + 1)
        return
    if kind is sp.Pow:
        base, exponent = e.args
        if not type_is_one_of(exponent, _rational_classes(sp)):
            raise _error(f"{_shown(e)}: only integer powers are allowed in the kernel")
        _check_rational(exponent)
        _check_hash(exponent)
        if exponent.q != 1:
            raise _error(f"{_shown(e)}: only integer powers are allowed in the kernel")
        if copies * abs(exponent.p) > MAX_NODES:     # (refused before anything is computed)
            raise _error(f"a power's exponent {_number(exponent.p)} makes more than "
                         f"{MAX_NODES} nodes written out (a power b**n counts n copies of b)")
        _walk(sp, base, vectors, inside_dot, size, copies * max(1, abs(exponent.p)),
              depth + 1)
        return
    if kind is _dot_class():
        if len(e.args) != 2:          # (built past Function's arity check: printed as Dot(a, b))
            raise _error(f"Dot takes two vectors, not {len(e.args)}")
        for arg in e.args:
            _walk(sp, arg, vectors, True, size, copies, depth + 1)
        return
    if e is sp.I:
        raise _error("I is not allowed in the kernel (only rational numbers)")
    if isinstance(e, sp.Number):
        raise _error(f"the number {_shown(e)} is not allowed in the kernel (only rational "
                     f"numbers)")
    raise _error(f"{_shown(e)} ({kind.__name__}) is not allowed in the kernel (only "
                 f"polynomials in plain real symbols and Dot atoms)")


def _shown(e: Any, text: Any = str) -> str:
    """``e`` for a message about it, or what it is when its text would be long (a refused
    tree may share one node everywhere) or cannot be made (an integer past the process's digit
    limit: ``sys.get_int_max_str_digits()``)."""
    from verify.kernel.terms import _sympy

    try:
        for nodes, _ in enumerate(_sympy().preorder_traversal(e)):
            if nodes == 50:
                return f"a {type(e).__name__} of more than 50 nodes"
        return text(e)
    except Exception:       # (ValueError: the digit limit; a node sympy cannot print)
        return f"a {type(e).__name__} that has no short text"


def _number(n: int) -> str:
    """A builtin int for a message: its digits when short, else its size."""
    return str(n) if n.bit_length() <= 200 else f"<{n.bit_length()}-bit integer>"


@lru_cache(maxsize=1)
def _rational_classes(sp: Any) -> tuple[type, ...]:
    """sympy's own classes of rational numbers (``Rational(p, q)`` makes one of these six),
    looked up once (every node of every expression asks)."""
    numbers = sp.core.numbers
    return (sp.Rational, sp.Integer, numbers.Zero, numbers.One, numbers.NegativeOne,
            numbers.Half)


def _check_rational(number: Any) -> None:
    """A rational atom's ``p`` and ``q`` are builtin ints in lowest terms with ``q > 0``:
    sympy's slots can be set after construction (``3/-1`` reads as positive, ``1/0`` breaks
    its arithmetic), and its text is printed from them."""
    p, q = getattr(number, "p", None), getattr(number, "q", None)    # (slots may be unset)
    if not (type(p) is int and type(q) is int and q > 0 and gcd(p, q) == 1):
        shown = [_number(v) if type(v) is int else _shown(v, repr) for v in (p, q)]
        raise _error(f"the rational {shown[0]}/{shown[1]} is not in lowest terms with a "
                     f"positive denominator")


def _check_hash(e: Any) -> None:
    """A node's cached hash (``_mhash``, a settable slot) is unset or sympy's own: a symbol
    equal to ``t`` with another hash is another key to every dict and set (``xreplace``,
    ``has``, sums) but ``t`` to ``==``: as a per-step index it let ``_mentions`` pass a
    hypothesis naming the index, and a false theorem was checked (session 39d)."""
    cached = getattr(e, "_mhash", None)
    try:
        honest = cached is None or cached == hash((type(e).__name__,) + e._hashable_content())
    except Exception:       # (a forged node without the slots its content reads)
        honest = False
    if not honest:
        raise _error(f"a {type(e).__name__} node whose cached hash is not sympy's own")


def _check_symbol(symbol: Any) -> None:
    if not (type(symbol.name) is str and _NAME.fullmatch(symbol.name)):
        raise _error(f"symbol {symbol.name!r} is not named by an ASCII identifier")
    stated = dict(getattr(symbol, "_assumptions_orig", {}))
    extra = {k: v for k, v in stated.items() if _REAL_ASSUMPTIONS.get(k) != v}
    if extra:
        said = ", ".join(f"{k}={v}" for k, v in sorted(extra.items()))
        raise _error(f"symbol {symbol} carries the assumption {said}; the kernel accepts only "
                     f"plain real symbols (a natural number is declared in the theorem)")




# --- the checked copy of a theorem -------------------------------------------------------------
def snapshot(theorem: Any) -> Any:
    """A fresh copy of ``theorem`` made of the kernel's own classes (exact types, tuples), every
    expression walked by :func:`expression`; the kernel checks the copy, never the original, so
    a proposer's subclass, list or lazily computed field cannot change between two reads.

    >>> import sympy
    >>> from verify.kernel.terms import Derivation, Fact, Theorem
    >>> a = sympy.Symbol("a", nonnegative=True)
    >>> snapshot(Theorem("t", "t", (), (), (), (Fact(abs(a), "=", a),), Derivation(())))
    Traceback (most recent call last):
    ...
    verify.kernel.terms.DerivationError: t: symbol a carries the assumption nonnegative=True; \
the kernel accepts only plain real symbols (a natural number is declared in the theorem)
    """
    from verify.kernel.terms import DerivationError, Theorem

    if type(theorem) is not Theorem:
        raise DerivationError(f"{theorem!r} is not a kernel Theorem")
    try:
        return _Copier(theorem).theorem(theorem)
    except DerivationError as exc:
        raise DerivationError(f"{_name(theorem.name)}: {exc}") from None


#: How deeply case splits may nest (each level doubles the work; 2**8 cases at most).
_MAX_CASE_DEPTH = 8


def _name(value: Any) -> str:
    if type(value) is not str:
        raise _error(f"{value!r} is not a name (a str)")
    return value


def _exact(value: Any, cls: Any) -> Any:
    if type(value) is not cls:
        raise _error(f"{value!r} is not a kernel {cls.__name__}")
    return value


def _sequence(value: Any) -> tuple:
    if not type_is_one_of(value, (tuple, list)):
        raise _error(f"{type(value).__name__} is not a tuple")
    return tuple(value)


class _Copier:
    """Copies one theorem; knows its vector atoms."""

    def __init__(self, theorem: Any) -> None:
        self.vectors = frozenset(_name(v) for v in _sequence(theorem.vectors))

    def scalar(self, e: Any) -> Any:
        return expression(e, self.vectors)

    def vector(self, e: Any) -> Any:
        """A vector expression (vector atoms allowed outside Dot; checked again when used)."""
        return expression(e, self.vectors, vectors_free=True)

    def theorem(self, t: Any) -> Any:
        from verify.kernel.terms import Family, Theorem

        family = None
        if t.family is not None:
            f = _exact(t.family, Family)
            family = Family(self.scalar(f.index), self.scalar(f.upper),
                            tuple(self.hyp(h) for h in _sequence(f.hyps)))
        return Theorem(_name(t.name), _name(t.title), tuple(sorted(self.vectors)),
                       tuple(self.scalar(n) for n in _sequence(t.naturals)),
                       tuple(self.hyp(h) for h in _sequence(t.hyps)),
                       tuple(self.fact(c) for c in _sequence(t.conclusions)),
                       self.proof(t.proof), family, _name(t.summary))

    def fact(self, f: Any) -> Any:
        from verify.kernel.terms import Fact

        f = _exact(f, Fact)
        return Fact(self.scalar(f.lhs), _name(f.rel), self.scalar(f.rhs))

    def hyp(self, h: Any) -> Any:
        from verify.kernel.terms import Fact, Hyp, Rewrite, VectorDef

        h = _exact(h, Hyp)
        c = h.content
        if type(c) is Fact:
            content = self.fact(c)
        elif type(c) is Rewrite:
            if not is_exact_int(c.power):
                raise _error(f"rule {h.name}: power must be a positive int")
            content = Rewrite(self.scalar(c.target), c.power, self.scalar(c.rhs))
        elif type(c) is VectorDef:
            content = VectorDef(self.vector(c.vector), self.vector(c.value))
        else:
            raise _error(f"hypothesis {h.name}: unknown kind {type(c).__name__}")
        return Hyp(_name(h.name), content, _name(h.note))

    def proof(self, p: Any) -> Any:
        from verify.kernel.terms import Derivation, Induction

        if type(p) is Induction:
            return Induction(self.scalar(p.variable), self.scalar(p.index),
                             self.derivation(p.base), self.derivation(p.step))
        if type(p) is not Derivation:
            raise _error("unknown proof kind")
        return self.derivation(p)

    def derivation(self, d: Any, depth: int = 0) -> Any:
        from verify.kernel.terms import (Antisymmetry, CaseSplit, Chain, Derivation, LemmaUse,
                                         SquareCompare)

        if depth > _MAX_CASE_DEPTH:
            raise _error(f"case splits nested deeper than {_MAX_CASE_DEPTH}")
        lines = []
        for line in _sequence(_exact(d, Derivation).lines):
            if type(line) is Chain:
                lines.append(Chain(_name(line.name), self.scalar(line.start),
                                   tuple(self.link(k) for k in _sequence(line.links)),
                                   _name(line.note)))
            elif type(line) is LemmaUse:
                lines.append(self.lemma_use(line))
            elif type(line) is CaseSplit:
                lines.append(CaseSplit(_name(line.name), self.scalar(line.expr),
                                       self.fact(line.conclusion),
                                       self.derivation(line.nonneg, depth + 1),
                                       self.derivation(line.negative, depth + 1),
                                       _name(line.note)))
            elif type(line) is SquareCompare:
                lines.append(SquareCompare(_name(line.name), self.scalar(line.larger),
                                           _name(line.rel), self.scalar(line.smaller),
                                           _name(line.note)))
            elif type(line) is Antisymmetry:
                lines.append(Antisymmetry(_name(line.name), self.scalar(line.lhs),
                                          self.scalar(line.rhs), _name(line.note)))
            else:
                raise _error(f"unknown line {line!r}")
        return Derivation(tuple(lines))

    def link(self, k: Any) -> Any:
        from verify.kernel.terms import Certificate, EqTerm, Link, NormSq, Square, Term

        k = _exact(k, Link)
        c = _exact(k.certificate, Certificate)
        terms = []
        for term in _sequence(c.terms):
            factors = []
            for f in _sequence(_exact(term, Term).factors):
                if type(f) is Square:
                    factors.append(Square(self.scalar(f.expr)))
                elif type(f) is NormSq:
                    factors.append(NormSq(self.vector(f.vector)))
                elif type(f) is str:
                    factors.append(f)
                else:
                    raise _error(f"unknown certificate factor {f!r}")
            terms.append(Term(self.coefficient(term.coeff), tuple(factors)))
        eqs = tuple(EqTerm(self.scalar(_exact(q, EqTerm).multiplier), _name(q.name))
                    for q in _sequence(c.eq_terms))
        divisors = tuple(_name(n) for n in _sequence(c.divisors))
        return Link(_name(k.rel), self.scalar(k.expr), Certificate(tuple(terms), eqs, divisors),
                    _name(k.note))

    def coefficient(self, c: Any) -> Fraction:
        """A certificate coefficient as a Fraction of builtin ints: an int, a Fraction, or one
        of sympy's own rational classes by identity (a subclass of Rational whose module says
        ``sympy.core.numbers`` and whose ``<`` says it is not negative was taken as it was)."""
        from verify.kernel.terms import _sympy

        number = exact_fraction(c)
        if number is None and type_is_one_of(c, _rational_classes(_sympy())):
            _check_rational(c)
            number = Fraction(c.p, c.q)
        if number is None:
            raise _error(f"certificate: coefficient {_shown(c, repr)} is not a rational number "
                         f"(an int, a Fraction of ints or a sympy Rational)")
        return number

    def lemma_use(self, use: Any) -> Any:
        from verify.kernel.terms import LemmaUse, _sympy

        sp = _sympy()
        pairs = []
        for pair in _sequence(use.substitution):
            key, value = _sequence(pair)
            if type(key) is not sp.Symbol:
                raise _error(f"line {use.name}: can only substitute symbols, not {key}")
            pairs.append((key, self.vector(value)))
        if not is_exact_int(use.conclusion):
            raise _error(f"line {use.name}: conclusion must be an int")
        return LemmaUse(_name(use.name), use.lemma, tuple(pairs), use.conclusion,
                        _name(use.note))
