"""verify: the proof side of pla-verify (kernel, certificates, monitor, derivations, claims).

Importing :mod:`verify` is cheap: sympy is imported only by the modules that need it, when they
are used.
"""

__version__ = "0.1.0"

#: Public names served lazily from their modules (``verify.certify(dataset)``), so that
#: ``import verify`` imports nothing else.
_LAZY = {
    "certify": "verify.search.certificates",
    "Separator": "verify.search.certificates",
    "NonSeparable": "verify.search.certificates",
    "check_weights": "verify.search.certificates",
    "Monitor": "verify.checks.monitor",
    "ProofViolation": "verify.kernel.steps",
    "audit": "verify.checks.audit",
    "CheckedPerceptron": "verify.checks.estimators",
    "CheckedPocket": "verify.checks.estimators",
}


def __getattr__(name: str) -> object:  # PEP 562
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'verify' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
