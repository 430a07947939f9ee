"""Render the site's maths to MathML on the server, so pages need no network and no JavaScript.

Pages write maths as ``$...$`` / ``$$...$$`` (or ``\\(...\\)`` / ``\\[...\\]``).
``pymdownx.arithmatex`` in generic mode wraps each formula in
``<span class="arithmatex">\\(...\\)</span>`` or ``<div class="arithmatex">\\[...\\]</div>``;
:func:`render_math_in_html` replaces every such element by MathML produced by
``latex2mathml``, which every current browser renders natively (MathML Core).

A formula that cannot be rendered is an error, never silently left as TeX:
:class:`MathRenderError` names the formula, and the strict build fails.

>>> print(latex_to_mathml(r"t \\leq \\frac{R^{2}}{\\rho^{2}}")[:60])
<math xmlns="http://www.w3.org/1998/Math/MathML" display="in
>>> "\\\\" in render_math_in_html('<span class="arithmatex">\\\\(x^2\\\\)</span>')
False
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ElementTree

__all__ = ["MathRenderError", "latex_to_mathml", "render_math_in_html", "render_math_in_page"]


class MathRenderError(ValueError):
    """A LaTeX formula that the server-side renderer cannot turn into MathML."""

    def __init__(self, latex: str, reason: str) -> None:
        self.latex = latex
        self.reason = reason
        super().__init__(f"cannot render maths {latex!r}: {reason}")


# latex2mathml knows `split`, `array` and `matrix` but not the amsmath display
# environments that people (and the notes) write; these are rewritten to the
# equivalent environment it does know before conversion.
_ENVIRONMENT_REWRITES = {
    "aligned": ("split", ""),
    "align": ("split", ""),
    "align*": ("split", ""),
    "alignat": ("split", ""),
    "eqnarray": ("split", ""),
    "eqnarray*": ("split", ""),
    "gathered": ("array", "{c}"),
    "gather": ("array", "{c}"),
    "gather*": ("array", "{c}"),
    "multline": ("array", "{c}"),
    "equation": (None, ""),
    "equation*": (None, ""),
}
_BEGIN_END = re.compile(r"\\(begin|end)\{([a-zA-Z*]+)\}")
_ARITHMATEX = re.compile(
    r'<(?P<tag>span|div) class="arithmatex">(?P<body>.*?)</(?P=tag)>', re.DOTALL
)
_MATHML_NS = "{http://www.w3.org/1998/Math/MathML}"


def _rewrite_environments(latex: str) -> str:
    def replace(match: re.Match[str]) -> str:
        kind, name = match.group(1), match.group(2)
        if name not in _ENVIRONMENT_REWRITES:
            return match.group(0)
        target, argument = _ENVIRONMENT_REWRITES[name]
        if target is None:
            return ""
        return f"\\{kind}{{{target}}}" + (argument if kind == "begin" else "")

    return _BEGIN_END.sub(replace, latex)


# Commands latex2mathml does not know, rewritten to equivalents it does.
_COMMAND_REWRITES = (
    (re.compile(r"\\arg(?![a-zA-Z])"), r"\operatorname{arg}"),
    (re.compile(r"\\ "), r"\;"),  # "\ " (a control space) is an ordinary space
)


_OPERATOR_NAME = re.compile(r"\\operatorname(\*?)\{([^{}]*)\}")
_SPACING = re.compile(r"\\[,;:! ]")


def _rewrite_commands(latex: str) -> str:
    """Rewrite the few common commands latex2mathml lacks.

    A spacing command inside ``\\operatorname{...}`` (``arg\\,min``) becomes a thin space
    character: latex2mathml would otherwise print the ``*`` of ``\\operatorname*``.

    >>> _rewrite_commands(r"\\arg\\min_{w} f\\ x")
    '\\\\operatorname{arg}\\\\min_{w} f\\\\;x'
    >>> _rewrite_commands(r"\\operatorname*{arg\\,min}_w") == "\\\\operatorname*{arg\\u2009min}_w"
    True
    """
    latex = _OPERATOR_NAME.sub(
        lambda m: f"\\operatorname{m.group(1)}{{{_SPACING.sub(chr(0x2009), m.group(2))}}}", latex)
    for pattern, replacement in _COMMAND_REWRITES:
        latex = pattern.sub(lambda _: replacement, latex)
    return latex


_PAIRED_DELIMITERS = ((r"\lVert", r"\rVert"), (r"\lvert", r"\rvert"), (r"\langle", r"\rangle"))


def _pair_delimiters(latex: str) -> str:
    """Turn balanced ``\\lVert x \\rVert`` into ``\\left\\lVert x \\right\\rVert``.

    Without the pairing latex2mathml attaches a following superscript to the closing bar
    alone (``<msup><mo>‖</mo>``), which browsers draw as a small, lowered bar.

    >>> _pair_delimiters(r"\\lVert w \\rVert^{2}")
    '\\\\left\\\\lVert w \\\\right\\\\rVert^{2}'
    """
    for opening, closing in _PAIRED_DELIMITERS:
        bare_open = re.compile(r"(?<!\\left)" + re.escape(opening) + r"(?![a-zA-Z])")
        bare_close = re.compile(r"(?<!\\right)" + re.escape(closing) + r"(?![a-zA-Z])")
        if len(bare_open.findall(latex)) == len(bare_close.findall(latex)) > 0:
            latex = bare_open.sub(lambda _: "\\left" + opening, latex)
            latex = bare_close.sub(lambda _: "\\right" + closing, latex)
    return latex


def latex_to_mathml(latex: str, display: bool = False) -> str:
    """Convert one LaTeX formula to a ``<math>`` element (a string).

    Raises :class:`MathRenderError` when the converter fails or leaves a LaTeX
    command or a stray ``&`` in the output (which the browser would show raw).

    >>> "<mfrac>" in latex_to_mathml(r"\\left( \\frac{a}{b} \\right)", display=True)
    True
    >>> try:
    ...     latex_to_mathml(r"\\nosuchcommand x")
    ... except MathRenderError as error:
    ...     print(error.reason)
    unknown command \\nosuchcommand
    """
    from latex2mathml.converter import convert

    source = _pair_delimiters(_rewrite_commands(_rewrite_environments(latex.strip())))
    try:
        mathml = convert(source, display="block" if display else "inline")
    except Exception as error:  # latex2mathml raises many unrelated types
        raise MathRenderError(latex, f"{type(error).__name__}: {error}") from None
    # An ASCII "*" as an operator (w^*) is drawn as a raised text asterisk; U+2217 is the
    # mathematical asterisk that TeX draws.
    mathml = mathml.replace("<mo>&#x0002A;</mo>", "<mo>&#x02217;</mo>")
    try:
        root = ElementTree.fromstring(mathml)
    except ElementTree.ParseError as error:
        raise MathRenderError(latex, f"converter produced malformed MathML ({error})") from None
    for element in root.iter():
        text = element.text or ""
        if element.tag != f"{_MATHML_NS}mtext" and "\\" in text:
            raise MathRenderError(latex, f"unknown command {text.strip()}")
        if element.tag == f"{_MATHML_NS}mi" and text.strip() == "&":
            raise MathRenderError(latex, "alignment '&' outside an environment that supports it")
        if element.tag == f"{_MATHML_NS}merror":
            raise MathRenderError(latex, "converter reported an error")
    return mathml


def _strip_delimiters(body: str) -> tuple[str, bool]:
    text = body.strip()
    for opening, closing, display in (("\\(", "\\)", False), ("\\[", "\\]", True),
                                      ("$$", "$$", True), ("$", "$", False)):
        if text.startswith(opening) and text.endswith(closing) and len(text) >= 2 * len(opening):
            return text[len(opening): len(text) - len(closing)], display
    raise MathRenderError(text, "arithmatex element without \\( \\) or \\[ \\] delimiters")


def render_math_in_html(page_html: str) -> str:
    """Replace every arithmatex-wrapped formula in ``page_html`` by MathML.

    Display formulas become ``<div class="arithmatex math-display">`` around a
    block ``<math>``; inline ones keep their ``<span class="arithmatex">``.

    >>> out = render_math_in_html('<p><span class="arithmatex">\\\\(a &lt; b\\\\)</span></p>')
    >>> "&#x0003C;" in out and "arithmatex" in out
    True
    """

    def replace(match: re.Match[str]) -> str:
        latex, display = _strip_delimiters(html.unescape(match.group("body")))
        mathml = latex_to_mathml(latex, display=display)
        if match.group("tag") == "div" or display:
            return f'<div class="arithmatex math-display">{mathml}</div>'
        return f'<span class="arithmatex">{mathml}</span>'

    return _ARITHMATEX.sub(replace, page_html)


_TAG_OR_TEXT = re.compile(r"(<!--.*?-->|<[^>]+>)", re.DOTALL)
_SKIPPED_ELEMENTS = ("pre", "code", "script", "style", "textarea", "math", "kbd", "samp")
_INLINE_TEX = re.compile(r"\\\((.+?)\\\)|\\\[(.+?)\\\]", re.DOTALL)


def _plain_text_of(latex: str) -> str:
    """What a formula reads as in plain text (for ``<title>``): the text of its MathML.

    >>> _plain_text_of(r"\\operatorname{sign}(0)")
    'sign(0)'
    """
    root = ElementTree.fromstring(latex_to_mathml(latex))
    return "".join(root.itertext())


def render_math_in_page(page_html: str) -> str:
    """Render the TeX that the Markdown stage leaves outside the content: in the table of
    contents and navigation (heading titles are copied there as text, ``\\(...\\)``
    included), in ``<summary>`` titles and anywhere else in the page's text.

    Text inside ``pre``/``code``/``script``/``style``/``math`` is left alone; in ``<title>``
    a formula becomes its plain text (a title cannot hold markup).

    >>> page = '<title>What is \\\\(x^2\\\\)?</title><a>What is \\\\(x^2\\\\)?</a><code>\\\\(y\\\\)</code>'
    >>> out = render_math_in_page(page)
    >>> out.split("<a>")[0]
    '<title>What is x2?</title>'
    >>> "<math" in out.split("<a>")[1] and out.endswith("<code>\\\\(y\\\\)</code>")
    True
    """
    pieces = _TAG_OR_TEXT.split(page_html)
    skipping: list[str] = []
    in_title = False
    for i, piece in enumerate(pieces):
        if piece.startswith("<"):
            if piece.startswith("<!--"):
                continue
            name = re.match(r"</?\s*([a-zA-Z0-9]+)", piece)
            if not name:
                continue
            tag = name.group(1).lower()
            closing = piece.startswith("</")
            if tag == "title":
                in_title = not closing
            elif tag in _SKIPPED_ELEMENTS and not piece.endswith("/>"):
                if closing:
                    if tag in skipping:
                        del skipping[len(skipping) - 1 - skipping[::-1].index(tag)]
                else:
                    skipping.append(tag)
            continue
        if skipping or ("\\(" not in piece and "\\[" not in piece):
            continue

        def replace(match: re.Match[str]) -> str:
            display = match.group(2) is not None
            latex = html.unescape(match.group(2) if display else match.group(1))
            if in_title:
                return html.escape(_plain_text_of(latex))
            mathml = latex_to_mathml(latex, display=display)
            return f'<span class="arithmatex">{mathml}</span>'

        pieces[i] = _INLINE_TEX.sub(replace, piece)
    return "".join(pieces)
