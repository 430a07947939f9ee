"""One module per ``pla`` subcommand, each with ``register(subparsers)``."""
