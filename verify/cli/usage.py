"""The error every subcommand raises for a command line that cannot be carried out.

>>> str(UsageError("--runs must be at least 1"))
'--runs must be at least 1'
"""

from __future__ import annotations

__all__ = ["UsageError"]


class UsageError(Exception):
    """A command line that cannot be carried out; printed as one line, exit code 2."""
