"""System prompts per tier (built per request) and the LLM request of the tier's agent."""
from __future__ import annotations

from routing.core.model import Domain
from routing.paths.llm import ChatRequest

from .config import Tier

DEFAULT_MODEL = "gpt-4o-mini"
LAST_N = 5


class _Blank(dict):
    def __missing__(self, key: str) -> str:  # an unknown {placeholder} in a hand-edited prompt stays as written
        return "{" + key + "}"


def system_prompt(tier: Tier, *, players: list[str], tools: list[str], depth: str, pronoun_of: str | None = None) -> str:
    names = " and ".join(players) if players else "the player"
    text = tier.prompt.strip().format_map(_Blank(players=names, last_n=LAST_N, tools=", ".join(tools), depth=depth))
    if pronoun_of:
        text += f"\n(The user wrote a pronoun; it refers to {pronoun_of}, named earlier in the conversation.)"
    return text


def tool_schema(domain: Domain, name: str) -> dict:
    tool = domain.tool(name)
    props, required = {}, []
    for p in tool.params:
        props[p.name] = {"type": {"number": "number", "boolean": "boolean"}.get(p.type, "string"), "description": p.description or p.name}
        if p.required:
            required.append(p.name)
    return {"type": "function", "function": {"name": name, "description": tool.description, "parameters": {"type": "object", "properties": props, "required": required}}}


def build_request(domain: Domain, *, model: str, prompt: str, query: str, tools: list[str]) -> ChatRequest:
    return ChatRequest(
        model=model,
        messages=({"role": "system", "content": prompt}, {"role": "user", "content": query}),
        tools=tuple(tool_schema(domain, t) for t in tools),
    )
