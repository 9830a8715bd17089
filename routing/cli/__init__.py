"""The command line: `python -m routing` (routing.cli.main gathers the commands)."""
from routing.cli.main import build_parser, main

__all__ = ["build_parser", "main"]
