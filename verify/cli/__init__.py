"""The ``pla`` command. Role: presents; composes :mod:`pla` (algorithms) and :mod:`verify`
(checks). May import anything; decides nothing itself (verdicts come from the kernel and the
checks). One module per subcommand, each with ``register(subparsers)``.

>>> from verify.cli import COMMANDS
>>> "run" in COMMANDS
True
"""

from verify.cli.command import COMMANDS, build_parser, main, run_main
from verify.cli.usage import UsageError

__all__ = ["main", "run_main", "build_parser", "UsageError", "COMMANDS"]
