"""Presentation: turns checked theorems and claim verdicts into LaTeX and Markdown pages.

Role: shows. Never decides a verdict; renders only objects the kernel has already checked.
May import :mod:`verify.kernel`, :mod:`verify.proofs` and :mod:`verify.claims`.
"""
