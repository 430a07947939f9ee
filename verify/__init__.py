"""verify: the proof side of pla-verify (kernel, certificates, monitor, derivations, claims).

Importing :mod:`verify` is cheap: sympy is imported only by the modules that need it, when they
are used.
"""

__version__ = "0.1.0"
