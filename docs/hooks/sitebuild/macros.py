"""Numbers in prose, filled in from exact runs at build time: ``{{ run('walk').updates }}``.

Grammar of one macro (nothing else is evaluated; there is no ``eval``)::

    {{ KIND('NAME').FIELD[.FIELD...] [| FILTER] }}

- KIND is ``data``, ``run``, ``separator``, ``proof``, ``orders`` or ``pocket`` (see
  :class:`sitebuild.examples.ExampleBook`), NAME an example defined in
  :mod:`sitebuild.examples`, FIELD an attribute (or a 0-based index into a tuple);
- FILTER is ``tex`` (fractions as ``\\frac{p}{q}``, for use inside ``$...$``),
  ``floor``, ``ceil``, ``plus1`` (a 0-based index shown 1-based), ``neg`` or ``count``.

Without a filter an exact number is shown as it is (``7``, ``-3/4``), a tuple as
``(1, -2, 3/4)``, a boolean as ``yes``/``no``.  An unknown kind, example or field
fails the build, so a page can never show a stale or mistyped number.

>>> class Book:
...     def run(self, name):
...         from types import SimpleNamespace
...         from fractions import Fraction
...         return SimpleNamespace(updates=7, w=(Fraction(-3), Fraction(1, 2)))
>>> expand_macros("PLA made {{ run('walk').updates }} updates; w = {{ run('walk').w | tex }}.", Book())
'PLA made 7 updates; w = \\\\left(-3, \\\\frac{1}{2}\\\\right).'
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

__all__ = ["MacroError", "KINDS", "FILTERS", "expand_macros", "expand_macros_in_markdown", "format_value"]

KINDS = ("data", "run", "separator", "proof", "orders", "pocket")
FILTERS = ("tex", "floor", "ceil", "plus1", "neg", "count")
_MACRO = re.compile(r"\{\{(?P<body>[^{}]*?)\}\}")
_BODY = re.compile(
    r"""^\s*(?P<kind>[a-z]+)\(\s*(?P<quote>['"])(?P<name>[\w.-]+)(?P=quote)\s*\)"""
    r"""(?P<path>(?:\.\w+)+)\s*(?:\|\s*(?P<filter>\w+)\s*)?$"""
)


class MacroError(ValueError):
    """A ``{{ ... }}`` macro that does not parse or names something that does not exist."""


def _tex(value: Any) -> str:
    if isinstance(value, bool):
        return r"\text{yes}" if value else r"\text{no}"
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        sign = "-" if value < 0 else ""
        return rf"{sign}\frac{{{abs(value.numerator)}}}{{{value.denominator}}}"
    if isinstance(value, (tuple, list)):
        return r"\left(" + ", ".join(_tex(v) for v in value) + r"\right)"
    return str(value)


def format_value(value: Any, filter_name: str | None = None) -> str:
    """Show an exact value in prose, optionally through a filter.

    >>> format_value(Fraction(-3, 4)), format_value((Fraction(1), Fraction(1, 2))), format_value(True)
    ('-3/4', '(1, 1/2)', 'yes')
    >>> format_value(Fraction(7, 2), "floor"), format_value(Fraction(7, 2), "tex")
    ('3', '\\\\frac{7}{2}')
    """
    if filter_name == "tex":
        return _tex(value)
    if filter_name == "floor":
        return str(math.floor(value))
    if filter_name == "ceil":
        return str(math.ceil(value))
    if filter_name == "plus1":
        return str(value + 1)
    if filter_name == "neg":
        return str(-value)
    if filter_name == "count":
        return str(len(value))
    if filter_name is not None:
        raise MacroError(f"unknown filter {filter_name!r} (known: {', '.join(FILTERS)})")
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(format_value(v) for v in value) + ")"
    return str(value)


def _resolve(book: Any, kind: str, name: str, path: str) -> Any:
    if kind not in KINDS:
        raise MacroError(f"unknown kind {kind!r} (known: {', '.join(KINDS)})")
    value = getattr(book, kind)(name)
    for part in path.strip(".").split("."):
        if part.isdigit():
            try:
                value = value[int(part)]
            except (IndexError, TypeError, KeyError):
                raise MacroError(f"{kind}('{name}'): cannot take item {part}") from None
        elif part.startswith("_") or not hasattr(value, part):
            raise MacroError(f"{kind}('{name}') has no field {part!r}")
        else:
            value = getattr(value, part)
    return value


def expand_macros(text: str, book: Any) -> str:
    """Replace every ``{{ ... }}`` macro of ``text`` by its value from ``book``.

    >>> expand_macros("{{ nonsense }}", object())
    Traceback (most recent call last):
    ...
    sitebuild.macros.MacroError: cannot parse macro '{{ nonsense }}' (expected {{ run('NAME').FIELD }})
    """

    def replace(match: re.Match[str]) -> str:
        parsed = _BODY.match(match.group("body"))
        if parsed is None:
            raise MacroError(
                f"cannot parse macro {match.group(0)!r} (expected {{{{ run('NAME').FIELD }}}})"
            )
        value = _resolve(book, parsed.group("kind"), parsed.group("name"), parsed.group("path"))
        return format_value(value, parsed.group("filter"))

    return _MACRO.sub(replace, text)


_FENCE_LINE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(`+)(?:.+?)\1", re.DOTALL)


def expand_macros_in_markdown(markdown: str, book: Any) -> str:
    """Like :func:`expand_macros`, but leaves fenced code blocks and `code spans` alone.

    That lets a page show the macro syntax itself as code.

    >>> expand_macros_in_markdown("`{{ run('x').y }}` stays\\n\\n```\\n{{ a }}\\n```\\n", object())
    "`{{ run('x').y }}` stays\\n\\n```\\n{{ a }}\\n```\\n"
    """
    out: list[str] = []
    prose: list[str] = []
    fence: str | None = None

    def flush() -> None:
        text = "".join(prose)
        pieces, last = [], 0
        for span in _CODE_SPAN.finditer(text):
            pieces.append(expand_macros(text[last: span.start()], book))
            pieces.append(span.group(0))
            last = span.end()
        pieces.append(expand_macros(text[last:], book))
        out.append("".join(pieces))
        prose.clear()

    for line in markdown.splitlines(keepends=True):
        marker = _FENCE_LINE.match(line)
        if fence is None:
            if marker:
                flush()
                fence = marker.group(1)
                out.append(line)
            else:
                prose.append(line)
        else:
            out.append(line)
            if marker and marker.group(1)[0] == fence[0] and len(marker.group(1)) >= len(fence) \
                    and not line.strip()[len(marker.group(1)):].strip():
                fence = None
    flush()
    return "".join(out)
