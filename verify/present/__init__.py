"""Presentation: turns checked theorems and claim verdicts into LaTeX and Markdown pages.

Role: shows. Never decides a verdict; renders only objects the kernel has already checked.
May import :mod:`verify.kernel` and :mod:`verify.proofs` (never :mod:`verify.claims`: a
claim arrives as the parser's plain tuples and its verdict).
"""
