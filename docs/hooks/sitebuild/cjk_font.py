"""The Chinese quotations of the site in any browser: a web font cut to the characters used.

The audit quotes the five source notes in Chinese; on a machine without a CJK font those
characters would show as empty boxes. At build time the site collects every CJK character of
its pages (:func:`cjk_characters`) and cuts a subset of a free CJK font with fontTools
(:func:`write_subset`) to exactly those characters: ``fonts/cjk-quotes.woff``, a few hundred
kilobytes instead of megabytes. ``docs/stylesheets/site.css`` loads it for the CJK ranges only
(``unicode-range``), ahead of the system fonts, so Latin text is unchanged.

The source font is the Debian package ``fonts-wqy-microhei`` (WenQuanYi Micro Hei, Apache 2.0
or GPLv3 with font exception), which ``make fonts`` installs when missing; without it the
strict build fails and says so (it never ships a page with boxes).

>>> sorted(cjk_characters("<p>感知器 PLA 「演算法」</p><code>x</code>"))
['「', '」', '器', '感', '法', '演', '知', '算']
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

__all__ = ["SOURCE_FONTS", "CJK_RANGES", "MissingCJKFont", "cjk_characters", "find_source_font",
           "write_subset"]

SOURCE_FONTS = (
    Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"),
    Path("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"),
)

# The code points loaded from the subset: CJK radicals, symbols and punctuation, kana, the
# unified ideographs (with extension A), compatibility ideographs and the full-width forms.
CJK_RANGES = ((0x2E80, 0x2FDF), (0x3000, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF),
              (0xF900, 0xFAFF), (0xFE30, 0xFE4F), (0xFF00, 0xFFEF))


class MissingCJKFont(FileNotFoundError):
    """No source font to cut the CJK subset from."""


def _is_cjk(character: str) -> bool:
    code = ord(character)
    return any(low <= code <= high for low, high in CJK_RANGES)


def cjk_characters(text: str) -> set[str]:
    """The characters of ``text`` in :data:`CJK_RANGES` (each distinct character tested once:
    the site's pages are millions of characters and a few thousand distinct ones).

    >>> sorted(cjk_characters("a「引」b引"))
    ['「', '」', '引']
    """
    return {c for c in set(text) if _is_cjk(c)}


def unicode_range_css() -> str:
    """The ``unicode-range`` value of the ``@font-face`` rule, from :data:`CJK_RANGES`.

    >>> unicode_range_css().split(", ")[0]
    'U+2E80-2FDF'
    """
    return ", ".join(f"U+{low:04X}-{high:04X}" for low, high in CJK_RANGES)


def find_source_font(candidates: Iterable[Path] = SOURCE_FONTS) -> Path:
    """The first installed source font; :class:`MissingCJKFont` when there is none."""
    for path in candidates:
        if path.is_file():
            return path
    names = ", ".join(str(p) for p in candidates)
    raise MissingCJKFont(f"no CJK font to cut the quotations' web font from (looked for {names}); "
                         "install the Debian package fonts-wqy-microhei (`make fonts`)")


def write_subset(characters: Iterable[str], target: Path, source: Path | None = None) -> list[str]:
    """Write a WOFF font with exactly ``characters`` (those the source font has) to ``target``.

    Returns the characters the source font lacks (sorted); the caller decides whether that is
    an error.
    """
    from fontTools import subset
    from fontTools.ttLib import TTFont

    source = find_source_font() if source is None else source
    wanted = sorted(set(characters))
    font = TTFont(str(source), fontNumber=0)
    cmap = font.getBestCmap()
    missing = [c for c in wanted if ord(c) not in cmap]
    options = subset.Options()
    options.flavor = "woff"
    options.hinting = False
    options.desubroutinize = True
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # keep the copyright and licence names
    options.notdef_outline = True
    options.drop_tables = [*options.drop_tables, "FFTM"]  # a FontForge timestamp, not needed
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(c) for c in wanted if ord(c) in cmap])
    subsetter.subset(font)
    target.parent.mkdir(parents=True, exist_ok=True)
    subset.save_font(font, str(target), options)
    return missing
