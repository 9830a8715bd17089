"""Registry of command-line commands that live beside their subsystem.

Each registrar takes argparse's subparsers and adds its commands with `set_defaults(func=...)`.
"""
from __future__ import annotations

REGISTRARS: list = []
