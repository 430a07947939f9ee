"""verify: the proof side of pla-verify (kernel, certificates, monitor, derivations, claims).

The public surface (``verify.__all__``): :func:`certify` answers "are these data linearly
separable?" with a kernel-checked :class:`Certificate` (a :class:`Separator` with Novikoff's
bound, or a :class:`NonSeparable` Gordan certificate); :func:`check_weights` checks given
weights; :func:`checked_run` runs PLA with every inequality of the convergence proof checked
(a :class:`CheckedRun`; :class:`ProofViolation` when one fails); :func:`audit` re-checks a
trace file; :class:`CheckedPerceptron` and :class:`CheckedPocket` are the proof-checked
scikit-learn estimators.  Results are frozen dataclasses with ``to_json()``.  Everything else
lives in the subpackages (``verify.kernel``, ``verify.search``, ``verify.checks``, ...).

>>> import pla, verify
>>> ds = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
>>> certificate = verify.certify(ds)
>>> certificate.separable, certificate.bound_updates
(True, 117)
>>> verify.checked_run(ds, order="first").report.violations
0

Importing :mod:`verify` is cheap: sympy is imported only by the modules that need it, when they
are used.
"""

__version__ = "0.1.0"

__all__ = [
    "certify", "check_weights", "checked_run", "audit", "Certificate", "Separator",
    "NonSeparable", "CheckedRun", "ProofViolation", "CheckedPerceptron", "CheckedPocket",
]

#: Public names served lazily from their modules (``verify.certify(dataset)``), so that
#: ``import verify`` imports nothing else.  ``Monitor`` is kept for older callers.
_LAZY = {
    "certify": "verify.search.certificates",
    "check_weights": "verify.search.certificates",
    "Certificate": "verify.search.certificates",
    "Separator": "verify.search.certificates",
    "NonSeparable": "verify.search.certificates",
    "checked_run": "verify.checks.checked_run",
    "CheckedRun": "verify.checks.checked_run",
    "audit": "verify.checks.audit",
    "ProofViolation": "verify.kernel.steps",
    "CheckedPerceptron": "verify.checks.estimators",
    "CheckedPocket": "verify.checks.estimators",
    "Monitor": "verify.checks.monitor",
}


def __getattr__(name: str) -> object:  # PEP 562
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'verify' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted(__all__)
