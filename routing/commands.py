"""Registry of command-line commands that live beside their subsystem.

Each registrar takes argparse's subparsers and adds its commands with `set_defaults(func=...)`.
"""
from __future__ import annotations

REGISTRARS: list = []

from . import importer_cli  # noqa: E402  import-csv (issue 6)

REGISTRARS.append(importer_cli.register)

from . import lexicon_cli  # noqa: E402  lexicon add-synonym / remove-synonym (issue 5)

REGISTRARS.append(lexicon_cli.register)
