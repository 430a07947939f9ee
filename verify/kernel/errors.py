"""The kernel's root exception (trusted base; imports nothing).

>>> issubclass(KernelError, Exception)
True
"""

from __future__ import annotations

__all__ = ["KernelError"]


class KernelError(Exception):
    """Base class of everything the kernel rejects."""
