"""The restricted parser of ```claim blocks: arithmetic over real symbols, never code.

A claim block is optional ``assume:`` lines (comma-separated comparisons) and one comparison,
the claim.  Text is parsed with :mod:`ast` and every node is checked against a whitelist:
numbers, names, ``+ - * / **``, unary ``+ -``, comparisons and calls of ``sqrt`` and ``Abs``.
Nothing is ever evaluated, sympified or executed.  Sizes are bounded *before* any sympy object
is built: text length, nesting depth, node count, exponents (integer literals, product along
any path at most :data:`MAX_EXPONENT`), literal size, and an upper bound on the number of
monomials the expanded expression can have.

>>> claim = parse_claim("assume: a >= 0, b >= 0\\n(a + b)**2 >= a**2 + b**2")
>>> [str(r) for r in claim.assumptions], str(claim.goals[0])
(['a >= 0', 'b >= 0'], '(a + b)**2 >= a**2 + b**2')
>>> try:
...     parse_claim("x.__class__ > 0")
... except ClaimSyntaxError as exc:
...     print(exc)
line 1: attribute access is not allowed
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from verify.claims.fences import markdown_lines
from verify.claims.exponents import exponent_parts, literal_exponent
from verify.claims.vectors import misused_vector

__all__ = ["ClaimSyntaxError", "Relation", "Claim", "parse_claim", "parse_relations",
           "MAX_TEXT", "MAX_DEPTH", "MAX_NODES", "MAX_EXPONENT", "MAX_MONOMIALS",
           "MAX_ASSUMPTIONS", "assumption_count", "without_assumptions"]

MAX_TEXT = 2000        # characters in one line
MAX_DEPTH = 40         # nesting depth of the expression tree
MAX_NODES = 400        # AST nodes in one line
MAX_EXPONENT = 64      # product of exponents along any path
MAX_DIGITS = 40        # characters of one numeric literal
MAX_SYMBOLS = 12       # distinct names in one claim
MAX_MONOMIALS = 20000  # upper bound on the monomials of an expanded side
FUNCTIONS = ("sqrt", "Abs", "dot", "norm", "Sum")
MAX_SUM_TERMS = 100    # a sum with numeric bounds is expanded: at most this many terms
_OPS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
#: Unicode relations accepted in the source, read as their ASCII spelling.
UNICODE_RELATIONS = {"\u2264": "<=", "\u2265": ">=", "\u2260": "!="}
#: Header lines of a block: ``id: name``, ``uses: a, b``, ``expect: refuted``.
EXPECTATIONS = ("proved", "refuted", "vacuous", "unproved")
_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**"}


class ClaimSyntaxError(ValueError):
    """A claim the restricted parser refuses; ``line`` is 1-based within the block."""

    def __init__(self, line: int, message: str) -> None:
        self.line = line
        self.message = message
        super().__init__(f"line {line}: {message}")


# Expressions are tuples: ("num", Fraction) ("sym", name) ("neg", e) ("add"|"sub"|"mul"|"div", a, b)
# ("pow", e, int) ("sqrt", e) ("abs", e).
Expr = tuple


@dataclass(frozen=True)
class Relation:
    """``lhs op rhs`` with op one of ``< <= > >= == !=``; ``text`` is the source."""

    lhs: Expr
    op: str
    rhs: Expr
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Claim:
    """Assumptions and the claimed relations (a chained comparison gives several).

    ``ident`` is the claim's name (``id:``), ``uses`` the names of the claims it rests on
    (``uses:``) and ``expect`` the verdict the author expects (``expect:``, default proved).
    """

    assumptions: tuple[Relation, ...]
    goals: tuple[Relation, ...]
    symbols: tuple[str, ...]
    goal_line: int
    ident: str = ""
    uses: tuple[str, ...] = ()
    expect: str = "proved"
    vectors: tuple[str, ...] = ()


def _depth_of_brackets(text: str) -> int:
    depth = best = 0
    for ch in text:
        if ch in "([{":
            depth += 1
            best = max(best, depth)
        elif ch in ")]}":
            depth -= 1
    return best


def ascii_source(text: str, line: int) -> str:
    """``text`` with the Unicode relations spelled in ASCII; any other non-ASCII character is
    refused *here*, on the source, before Python's parser would NFKC-normalise a name such as
    ``𝑥`` into ``x`` (the claim shown and the claim checked must be the same text).

    >>> ascii_source("x \u2264 1", 1).split()
    ['x', '<=', '1']
    """
    for unicode, spelled in UNICODE_RELATIONS.items():
        text = text.replace(unicode, f" {spelled} ")
    for column, ch in enumerate(text, 1):
        if not ch.isascii():
            raise ClaimSyntaxError(line, f"character {ch!r} (U+{ord(ch):04X}) at column {column} "
                                         f"is not allowed: names and operators must be ASCII")
    return text


def _parse_expression(text: str, line: int) -> ast.AST:
    if len(text) > MAX_TEXT:
        raise ClaimSyntaxError(line, f"line longer than {MAX_TEXT} characters")
    if _depth_of_brackets(text) > MAX_DEPTH:
        raise ClaimSyntaxError(line, f"brackets nested deeper than {MAX_DEPTH}")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        message = getattr(exc, "msg", None) or type(exc).__name__
        raise ClaimSyntaxError(line, f"not an expression: {message}") from None
    nodes = 0
    stack = [(tree, 1)]
    while stack:  # iterative: bounded before any recursion
        node, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            raise ClaimSyntaxError(line, f"expression larger than {MAX_NODES} nodes")
        if depth > MAX_DEPTH:
            raise ClaimSyntaxError(line, f"expression nested deeper than {MAX_DEPTH}")
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return tree.body


class _Converter:
    def __init__(self, text: str, line: int) -> None:
        self.text, self.line = text, line
        self.names: set[str] = set()

    def fail(self, message: str) -> None:
        raise ClaimSyntaxError(self.line, message)

    def relation(self, node: ast.AST) -> list[Relation]:
        if not isinstance(node, ast.Compare):
            self.fail("expected a comparison (<, <=, >, >=, ==, !=)")
        parts = [node.left, *node.comparators]
        out = []
        for i, op in enumerate(node.ops):
            if type(op) not in _OPS:
                self.fail(f"comparison {type(op).__name__} is not allowed")
            lhs, rhs = self.expr(parts[i]), self.expr(parts[i + 1])
            for side in (lhs, rhs):
                if _size(side)[1] > MAX_MONOMIALS:
                    self.fail("expression would expand to too many terms")
            text = " ".join((_segment(self.text, parts[i]), _OPS[type(op)],
                             _segment(self.text, parts[i + 1])))
            out.append(Relation(lhs, _OPS[type(op)], rhs, text))
        return out

    def expr(self, node: ast.AST) -> Expr:
        if isinstance(node, ast.Constant):
            return ("num", self.number(node))
        if isinstance(node, ast.Name):
            name = node.id
            if name.startswith("_") or name in FUNCTIONS or not name.isidentifier():
                self.fail(f"name {name!r} is not allowed")
            if not name.isascii():
                self.fail(f"name {name!r} must be ASCII")
            self.names.add(name)
            if len(self.names) > MAX_SYMBOLS:
                self.fail(f"more than {MAX_SYMBOLS} symbols")
            return ("sym", name)
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, ast.USub):
                return ("neg", self.expr(node.operand))
            if isinstance(node.op, ast.UAdd):
                return self.expr(node.operand)
            self.fail(f"operator {type(node.op).__name__} is not allowed")
        if isinstance(node, ast.BinOp):
            if type(node.op) not in _BINOPS:
                self.fail(f"operator {type(node.op).__name__} is not allowed")
            if isinstance(node.op, ast.Pow):
                symbolic = exponent_parts(node.right)
                if symbolic is not None:  # x**n, x**(n + c): n an integer (checked later)
                    return ("powsym", self.expr(node.left), self.expr(ast.Name(symbolic[0])),
                            symbolic[1])
                base, k = self.expr(node.left), self.exponent(node.right)
                if k < 0 and constant_value(base) == 0:
                    self.fail(f"division by zero: {_segment(self.text, node)} (0 to a negative "
                              f"power)")
                return ("pow", base, k)
            kind = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div"}
            out = (kind[type(node.op)], self.expr(node.left), self.expr(node.right))
            if out[0] == "div" and constant_value(out[2]) == 0:
                self.fail(f"division by zero: {_segment(self.text, node)}")
            return out
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id == "Sum":
            return self.sum(node)
        if isinstance(node, ast.Call):
            if not (isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS):
                self.fail("only sqrt(...), Abs(...), dot(u, v) and norm(u) may be called")
            count = 2 if node.func.id == "dot" else 1
            if node.keywords or len(node.args) != count or \
                    any(isinstance(a, ast.Starred) for a in node.args):
                self.fail(f"{node.func.id} takes exactly {('one', 'two')[count - 1]} "
                          f"argument{'s' if count == 2 else ''}")
            if node.func.id == "dot":
                return ("dot", self.expr(node.args[0]), self.expr(node.args[1]))
            if node.func.id == "norm":  # norm(u) = sqrt(dot(u, u))
                u = self.expr(node.args[0])
                return ("sqrt", ("dot", u, u))
            arg = self.expr(node.args[0])
            value = constant_value(arg)
            if node.func.id == "sqrt" and value is not None and value < 0:
                self.fail(f"square root of the negative number {value}: "
                          f"{_segment(self.text, node)} is undefined")
            return ("sqrt" if node.func.id == "sqrt" else "abs", arg)
        if isinstance(node, ast.Attribute):
            self.fail("attribute access is not allowed")
        if isinstance(node, ast.Compare):
            self.fail("a comparison cannot be part of an expression")
        self.fail(f"{type(node).__name__} is not allowed in a claim")
        raise AssertionError  # unreachable

    def sum(self, node: ast.Call) -> Expr:
        """``Sum(expr, (k, a, b))``: a, b integer literals (expanded, at most
        :data:`MAX_SUM_TERMS` terms) or b a name (kept as ("sum", body, k, a, ("sym", n)),
        proved by induction in the kernel)."""
        args = node.args
        if node.keywords or len(args) != 2 or not isinstance(args[1], ast.Tuple) or \
                len(args[1].elts) != 3 or not isinstance(args[1].elts[0], ast.Name):
            self.fail("write a sum as Sum(expr, (k, a, b))")
        k = args[1].elts[0].id
        if not k.isidentifier() or k.startswith("_") or k in FUNCTIONS or not k.isascii():
            self.fail(f"name {k!r} is not allowed")
        before = set(self.names)
        if k in before:
            self.fail(f"the summation index {k} is also used outside the sum")
        body = self.expr(args[0])
        lo, hi = (self.expr(e) for e in args[1].elts[1:])
        self.names = before | (self.names - {k})
        low = constant_value(lo)
        if low is None or low.denominator != 1:
            self.fail("the lower bound of a sum is an integer")
        if any(n == k for n in _names_in(hi)):
            self.fail("the upper bound of a sum cannot use its index")
        high = constant_value(hi)
        if high is None:
            if hi[0] != "sym":
                self.fail("the upper bound of a sum is an integer or a name")
            if any(n == k for n in _names_in(lo)):
                self.fail("the lower bound of a sum cannot use its index")
            return ("sum", body, k, int(low), hi)
        if high.denominator != 1:
            self.fail("the upper bound of a sum is an integer")
        count = int(high) - int(low) + 1
        if count > MAX_SUM_TERMS:
            self.fail(f"a sum with numeric bounds has at most {MAX_SUM_TERMS} terms")
        out: Expr = ("num", Fraction(0))
        for value in range(int(low), int(high) + 1):
            term = substitute(body, k, ("num", Fraction(value)))
            out = term if value == int(low) else ("add", out, term)
        return out

    def number(self, node: ast.Constant) -> Fraction:
        value = node.value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.fail(f"literal {value!r} is not a real number")
        source = _segment(self.text, node)
        if len(source) > MAX_DIGITS:
            self.fail(f"numeric literal longer than {MAX_DIGITS} characters")
        if isinstance(value, float):
            if any(ch in source for ch in "eEjJ"):
                self.fail("write numbers as integers or decimals (no exponent notation)")
            return Fraction(source.replace("_", ""))  # exact: "0.1" is 1/10
        return Fraction(value)

    def exponent(self, node: ast.AST) -> int:
        try:
            return literal_exponent(node, MAX_EXPONENT)
        except ValueError as exc:
            raise ClaimSyntaxError(self.line, str(exc)) from None


def substitute(e: Expr, name: str, value: Expr) -> Expr:
    """``e`` with the symbol ``name`` replaced by ``value``.

    >>> substitute(("add", ("sym", "k"), ("num", 1)), "k", ("num", 2))
    ('add', ('num', 2), ('num', 1))
    """
    if e[0] in ("sym", "num"):
        return value if e == ("sym", name) else e
    if e[0] == "sum":
        if e[2] == name:
            return e
        return ("sum", substitute(e[1], name, value), e[2], e[3], substitute(e[4], name, value))
    if e[0] == "powsym" and e[2] == ("sym", name) and value[0] == "num":  # a sum's term
        return ("pow", substitute(e[1], name, value), int(value[1]) + e[3])
    return (e[0],) + tuple(substitute(c, name, value) if isinstance(c, tuple) else c
                           for c in e[1:])


def _names_in(e: Expr) -> list[str]:
    if e[0] == "sym":
        return [e[1]]
    return [n for c in e[1:] if isinstance(c, tuple) for n in _names_in(c)]


def constant_value(e: Expr) -> Fraction | None:
    """The exact value of a constant expression without sqrt/Abs, else None (also when it is
    undefined, e.g. divides by zero).

    >>> constant_value(("div", ("num", Fraction(1)), ("sub", ("num", Fraction(2)),
    ...                                               ("num", Fraction(2)))))
    """
    kind = e[0]
    if kind == "num":
        return e[1]
    if kind in ("sym", "sqrt", "abs", "dot", "sum", "powsym"):
        return None
    if kind == "neg":
        v = constant_value(e[1])
        return None if v is None else -v
    if kind == "pow":
        v = constant_value(e[1])
        if v is None or (v == 0 and e[2] < 0):
            return None
        return v ** e[2]
    a, b = constant_value(e[1]), constant_value(e[2])
    if a is None or b is None:
        return None
    if kind == "add":
        return a + b
    if kind == "sub":
        return a - b
    if kind == "mul":
        return a * b
    return None if b == 0 else a / b


def _segment(text: str, node: ast.AST) -> str:
    return (ast.get_source_segment(text.strip(), node) or "").strip()


def _size(e: Expr) -> tuple[int, int]:
    """(product of exponents along the worst path, upper bound on monomials)."""
    kind = e[0]
    if kind in ("num", "sym"):
        return 1, 1
    if kind in ("neg", "sqrt", "abs", "powsym"):
        return _size(e[1])
    if kind == "sum":
        power, terms = _size(e[1])
        return power, min(terms + 1, MAX_MONOMIALS + 1)
    if kind == "pow":
        power, terms = _size(e[1])
        k = abs(e[2])
        power *= max(k, 1)
        if power > MAX_EXPONENT:
            return power, MAX_MONOMIALS + 1
        return power, min(terms ** k, comb(k + terms - 1, max(terms - 1, 0)))
    (pa, ta), (pb, tb) = _size(e[1]), _size(e[2])
    terms = ta + tb if kind in ("add", "sub") else ta * tb
    return max(pa, pb), min(terms, MAX_MONOMIALS + 1)


def parse_relations(text: str, line: int = 1) -> tuple[list[Relation], set[str]]:
    """Parse one (possibly chained) comparison or a comma-separated list of them."""
    relations: list[Relation] = []
    text = ascii_source(text, line)
    converter = _Converter(text, line)
    for part in _split_top_level(text, line):
        converter.text = part
        if _size_guard(part):
            raise ClaimSyntaxError(line, "expression too large")
        words = part.split()
        if len(words) == 2 and words[1] == "integer":  # `n integer`: n takes integer values
            name = words[0]
            if not name.isidentifier() or name.startswith("_") or name in FUNCTIONS:
                raise ClaimSyntaxError(line, f"{name!r} is not a name")
            converter.names.add(name)
            relations.append(Relation(("sym", name), "integer", ("num", Fraction(0)), part))
            continue
        relations.extend(converter.relation(_parse_expression(part, line)))
    return relations, converter.names


def _size_guard(text: str) -> bool:
    return len(text) > MAX_TEXT


def _split_top_level(text: str, line: int) -> list[str]:
    if len(text) > MAX_TEXT:
        raise ClaimSyntaxError(line, f"line longer than {MAX_TEXT} characters")
    parts, depth, current = [], 0, []
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    parts = [p for p in (p.strip() for p in parts)]
    if any(not p for p in parts):
        raise ClaimSyntaxError(line, "empty comparison")
    return parts


def parse_claim(block: str) -> Claim:
    """Parse the body of a ```claim block (see the module docstring)."""
    assumptions: list[Relation] = []
    goals: list[Relation] | None = None
    names: set[str] = set()
    goal_line = 0
    header: dict[str, str] = {}
    lines = markdown_lines(block)  # the lines a renderer shows, never split at \x1c
    if len(lines) > 200:
        raise ClaimSyntaxError(201, "a claim block has at most 200 lines")
    for number, raw in enumerate(lines, 1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        if "#" in text:  # never stripped: text after it must not change what is checked
            raise ClaimSyntaxError(number, f"'#' at column {raw.index('#') + 1}: a comment "
                                           f"must be a line of its own (starting with #)")
        key = text.split(":", 1)[0].strip()
        if key in ("id", "uses", "expect", "vectors") and ":" in text:
            if goals is not None:
                raise ClaimSyntaxError(number, f"{key}: must come before the claim")
            if key in header:
                raise ClaimSyntaxError(number, f"{key}: given twice")
            header[key] = _header_value(key, text.split(":", 1)[1], number)
            continue
        if text.startswith("assume:"):
            if goals is not None:
                raise ClaimSyntaxError(number, "assume: lines must come before the claim")
            found, used = parse_relations(text[len("assume:"):], number)
            assumptions.extend(found)
            names |= used
            continue
        if goals is not None:
            raise ClaimSyntaxError(number, "only one claim per block (a second claim found)")
        if "," in text and _split_top_level(text, number)[1:]:
            raise ClaimSyntaxError(number, "a claim is one comparison (did you mean assume:?)")
        goals, used = parse_relations(text, number)
        names |= used
        goal_line = number
    if goals is None:
        raise ClaimSyntaxError(max(len(lines), 1), "the block states no claim")
    if len(names) > MAX_SYMBOLS:
        raise ClaimSyntaxError(goal_line, f"more than {MAX_SYMBOLS} symbols")
    uses = tuple(u.strip() for u in header.get("uses", "").split(",") if u.strip())
    vectors = tuple(v.strip() for v in header.get("vectors", "").split(",") if v.strip())
    problem = misused_vector(vectors, assumptions, goals, FUNCTIONS)
    if problem:
        raise ClaimSyntaxError(goal_line if problem[0] else 1, problem[1])
    return Claim(tuple(assumptions), tuple(goals), tuple(sorted(names - set(vectors))),
                 goal_line, ident=header.get("id", ""), uses=uses,
                 expect=header.get("expect", "proved"),
                 vectors=tuple(sorted(set(vectors) & names)))


_IDENT_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")


def _header_value(key: str, value: str, line: int) -> str:
    value = value.strip()
    if key == "expect":
        if value not in EXPECTATIONS:
            raise ClaimSyntaxError(line, f"expect: must be one of {', '.join(EXPECTATIONS)}")
        return value
    if key == "vectors":
        return value
    names = [v.strip() for v in value.split(",")] if key == "uses" else [value]
    for name in names:
        if not name or len(name) > 80 or not set(name) <= _IDENT_CHARS:
            raise ClaimSyntaxError(line, f"{key}: {name!r} is not a claim name (letters, digits, "
                                         f"- _ . up to 80 characters)")
    return value
