"""`fake-llm`: the local stand-in model (routing.paths.fake_model), for demos and tests without a key."""
from __future__ import annotations

from routing.cli.common import UsageError


def cmd_fake_llm(args) -> int:
    from routing.paths.fake_model import run

    if not 0 < args.port < 65536:
        raise UsageError(f"--port must be 1-65535, not {args.port}")
    return run(args)


def register(sub) -> None:
    from routing.paths.fake_model import add_arguments

    s = sub.add_parser("fake-llm", help="a local stand-in for an OpenAI-compatible model (offline, deterministic; not a language model)")
    add_arguments(s)
    s.set_defaults(func=cmd_fake_llm)
