"""A second, independent checker: Coq files that ``coqc`` accepts or rejects.

Role: re-checks, independently: the Coq library decides inside ``coqc``; the Python modules
here only write text (untrusted exporters). May import :mod:`pla`, :mod:`verify.kernel` and
:mod:`verify.search` (for the certificate to export).

The ``.v`` files next to this module are a small Coq library (package data, so an installed
``pla`` can write them out):

- ``Vectors.v``: vectors over Q (lists read with zero padding), ``dot``, ``norm2``, bilinearity,
  symmetry, Cauchy-Schwarz;
- ``Perceptron.v``: the PLA update and runs, and Novikoff's theorem proven once, in general;
- ``Certificates.v``: boolean checkers over integer data, each proven correct;
- ``InnerProduct.v``: an abstract real inner-product space and the tactics the exported
  kernel theorems use.

The Python modules only *write text* and are not trusted: :mod:`verify.coq.library` writes the
library and its ``Makefile``, :mod:`verify.coq.certificate_files` a data set's certificate,
:mod:`verify.coq.theorem_files` the built-in theorems, :mod:`verify.coq.run_files` one run.
Coq decides.

>>> from verify.coq.library import LIBRARY_FILES
>>> LIBRARY_FILES[0]
'Vectors.v'
"""
