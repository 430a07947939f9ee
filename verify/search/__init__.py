"""Untrusted proposers: certificate search (float LP/NNLS, exact finishing), claim-certificate
search and the optional z3 cross-check.

Role: proposes. Nothing here decides a verdict: every object found is handed to
:mod:`verify.kernel`, whose answer is the verdict. May import :mod:`pla` and
:mod:`verify.kernel`.
"""
