"""Run-level checks: the per-step proof monitor, the trace audit replay and the Pocket checks.

Role: decides, for runs (see the trusted-base page for exactly which files decide each command's
verdict). May import :mod:`pla` and :mod:`verify.kernel`; never :mod:`verify.search` for a
verdict.
"""
