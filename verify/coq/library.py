"""Write the Coq library (package data) and a ``Makefile`` that compiles it into a directory.

The contract scripts rely on: after :func:`write_library` (which ``pla proof --coq DIR`` calls),
``make -C DIR`` compiles every ``.v`` file of DIR, and ``coqc -R DIR PLA FILE.v`` then checks
a certificate file written by ``pla certify --coq FILE.v``.

>>> import tempfile, os
>>> with tempfile.TemporaryDirectory() as d:
...     written = write_library(d)
...     sorted(os.listdir(d))[:4]
['.written-by-pla-verify', 'Certificates.v', 'InnerProduct.v', 'Makefile']
"""

from __future__ import annotations

import os
import re
import shutil
from importlib import resources
from typing import Iterable

__all__ = ["LIBRARY_FILES", "LOGICAL_ROOT", "MARKER", "library_source", "library_size",
           "write_library", "check_command", "makefile_text"]

#: The library's files, each after the files it imports.
LIBRARY_FILES = ("Vectors.v", "Perceptron.v", "Certificates.v", "Runs.v", "Packed.v", "InnerProduct.v")
#: The logical name the library is compiled under (``-R DIR PLA``).
LOGICAL_ROOT = "PLA"

_IMPORT = re.compile(r"From\s+PLA\s+Require\s+(?:Import|Export)\s+([A-Za-z0-9_ ]+)\.")


def library_source(name: str) -> str:
    """The text of one library file.

    >>> "Theorem novikoff" in library_source("Perceptron.v")
    True
    """
    if name not in LIBRARY_FILES:
        raise KeyError(name)
    return resources.files("verify.coq").joinpath(name).read_text(encoding="utf-8")


def library_size() -> dict[str, int]:
    """Lines per library file (the size the docs report).

    >>> library_size()["Vectors.v"] > 50
    True
    """
    return {name: len(library_source(name).splitlines()) for name in LIBRARY_FILES}


def _imports(text: str) -> list[str]:
    names: list[str] = []
    for match in _IMPORT.finditer(text):
        names += match.group(1).split()
    return names


def makefile_text(files: Iterable[str]) -> str:
    """A Makefile compiling ``files`` (``.v`` names of the library) with ``-R . PLA``,
    dependencies read from their ``From PLA Require`` lines.

    >>> "Perceptron.vo: Perceptron.v Vectors.vo" in makefile_text(["Vectors.v", "Perceptron.v"])
    True
    """
    return _makefile({name: library_source(name) if name in LIBRARY_FILES else ""
                      for name in files})


def _makefile(sources: dict[str, str]) -> str:
    lines = [
        "# Written by pla-verify (`pla proof --coq DIR`): `make -C DIR` compiles every file.",
        "COQC ?= coqc",
        "",
        "all: " + " ".join(name[:-2] + ".vo" for name in sources),
        "",
    ]
    for name, text in sources.items():
        deps = [d + ".vo" for d in _imports(text) if d + ".v" in sources]
        lines += [f"{name[:-2]}.vo: {name} {' '.join(deps)}".rstrip(),
                  f"\t$(COQC) -q -R . {LOGICAL_ROOT} {name}", ""]
    lines += ["clean:", "\trm -f *.vo *.vok *.vos *.glob .*.aux", "", ".PHONY: all clean", ""]
    return "\n".join(lines)


#: The file that marks a directory as written by ``pla`` (so a later export may replace it).
MARKER = ".written-by-pla-verify"


def write_library(directory: str, extra: dict[str, str] | None = None, *,
                  force: bool = False) -> list[str]:
    """Write the library, the ``extra`` files (name -> text) and the Makefile into ``directory``;
    return the written file names.  A directory holding files ``pla`` did not write (no
    :data:`MARKER`) is refused unless ``force``.  Every file goes through the one write path,
    :func:`pla.files.write_text` (a temporary file and a rename; a device is written in place;
    an error names the file), so an interrupted export leaves no half-written file."""
    from pla.files import claim_directory, write_text

    claim_directory(directory, MARKER, force=force)
    sources = {name: library_source(name) for name in LIBRARY_FILES}
    sources.update(extra or {})
    files = dict(sources)
    files["Makefile"] = _makefile(sources)
    files["_CoqProject"] = f"-R . {LOGICAL_ROOT}\n" + "".join(f"{n}\n" for n in sources)
    for name, text in files.items():
        write_text(os.path.join(directory, name), text)
    return list(files)


def check_command(directory: str, file: str) -> str:
    """The command that checks a certificate file against the compiled library.

    >>> check_command("build/coq", "cert.v")
    'coqc -R build/coq PLA cert.v'
    """
    return f"coqc -R {directory} {LOGICAL_ROOT} {file}"


def coqc_path() -> str | None:
    """The ``coqc`` executable, or None."""
    return shutil.which("coqc")
