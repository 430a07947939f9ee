"""Every docstring example in the packages (and in the mutation tool, tests/mutation_testing.py,
whose module doc shows its mutator) runs and gives the output it shows."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import pla
import verify


def _modules() -> list[str]:
    names = []
    for package in (pla, verify):
        names.append(package.__name__)
        for info in pkgutil.walk_packages(package.__path__, prefix=package.__name__ + "."):
            names.append(info.name)
    return sorted(names) + ["tests.mutation_testing"]


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"
