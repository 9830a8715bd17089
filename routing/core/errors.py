"""Error codes of the routing contract and the exceptions that carry them."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class ErrorCode(str, Enum):
    UPSTREAM_DOWN = "UPSTREAM_DOWN"
    INSUFFICIENT_CONTEXT = "INSUFFICIENT_CONTEXT"
    PLAYER_NOT_FOUND = "PLAYER_NOT_FOUND"
    AMBIGUOUS_ENTITY = "AMBIGUOUS_ENTITY"
    INSUFFICIENT_DATA = "INSUFFICIENT_DATA"
    INSUFFICIENT_GAMES = "INSUFFICIENT_GAMES"
    INVALID_QUERY = "INVALID_QUERY"
    LEXICON_INVALID = "LEXICON_INVALID"
    CONFLICT = "CONFLICT"  # a save refused: the same entry was changed on disk since it was read


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a lexicon file, located so a person can fix it."""

    file: str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.file} line {self.line}" if self.line else self.file
        return f"{where}: {self.message}"

    def to_dict(self) -> dict:
        return {"file": self.file, "line": self.line, "message": self.message}


class LexiconError(Exception):
    """A lexicon failed to load or validate. `problems` lists every issue found."""

    code = ErrorCode.LEXICON_INVALID

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        head = "; ".join(str(p) for p in self.problems[:5])
        more = f" (+{len(self.problems) - 5} more)" if len(self.problems) > 5 else ""
        super().__init__(head + more)
