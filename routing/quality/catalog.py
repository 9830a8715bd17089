"""Tool catalogs as agents describe them -> the tools of a domain.

One reader per format, each returning the same `CatalogTool`s:

- an OpenAI `tools` list: `[{"type": "function", "function": {"name", "description", "parameters"}}]`
  (also the bare function objects, or `{"tools": [...]}` / `{"functions": [...]}` around them);
- an MCP `tools/list` result: `{"tools": [{"name", "description", "inputSchema"}]}` (also the
  whole JSON-RPC reply, `{"result": {"tools": [...]}}`);
- an OpenAPI 3 document (JSON or YAML): one tool per operation, named by its operationId (or
  method and path), described by its summary and description, its parameters and JSON request
  body properties as the tool's parameters.

A tool may carry optional example questions (`examples` or `x-examples`: a list of strings).
Bad input raises CatalogProblem naming the file and the position (line:column for text that does
not parse, the JSON path for a part that has the wrong shape).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from routing.core.enrich import name_words  # noqa: F401  (re-exported: the reader's names are split there)

HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
MAX_TEXT = 2000  # a description longer than this is cut: the router reads words, not essays


class CatalogProblem(ValueError):
    """The catalog cannot be read; the message names the file and where."""


@dataclass(frozen=True)
class CatalogParam:
    name: str
    type: str = "string"  # a PARAM_TYPES name (routing.core.model)
    description: str = ""
    required: bool = False
    values: tuple[str, ...] = ()


@dataclass(frozen=True)
class CatalogTool:
    name: str
    description: str
    params: tuple[CatalogParam, ...] = ()
    examples: tuple[str, ...] = ()
    where: str = ""  # the JSON path it was read from, for messages
    extra: dict = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class Catalog:
    format: str  # openai / mcp / openapi
    tools: tuple[CatalogTool, ...]
    title: str = ""


def _problem(label: str, where: str, message: str) -> CatalogProblem:
    return CatalogProblem(f"{label}: {where}: {message}" if where else f"{label}: {message}")


def parse_text(text: str, label: str) -> Any:
    """JSON, or YAML when it is not JSON; a parse error names line and column."""
    stripped = text.lstrip("\ufeff")
    if not stripped.strip():
        raise _problem(label, "", "the file is empty")
    if stripped.lstrip()[:1] in "[{":
        try:
            return json.loads(stripped)
        except json.JSONDecodeError as exc:
            if not label.casefold().endswith((".yaml", ".yml")):
                raise _problem(label, f"line {exc.lineno}, column {exc.colno}", f"not valid JSON: {exc.msg}") from None
    try:
        return yaml.safe_load(stripped)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        raise _problem(label, where, f"not valid JSON or YAML: {getattr(exc, 'problem', None) or exc}") from None


def detect_format(data: Any) -> str:
    if isinstance(data, dict):
        if "openapi" in data or "paths" in data:
            return "openapi"
        if "swagger" in data:
            return "swagger"
        if isinstance(data.get("result"), dict) and "tools" in data["result"]:
            return "mcp"
        items = data.get("tools", data.get("functions"))
        if isinstance(items, list):
            return "openai" if any(isinstance(t, dict) and ("function" in t or "parameters" in t) for t in items) else "mcp"
        if "function" in data or ("name" in data and "parameters" in data):
            return "openai"
    if isinstance(data, list):
        if any(isinstance(t, dict) and "inputSchema" in t for t in data):
            return "mcp"
        return "openai"
    return "unknown"


def _text(value: Any, label: str, where: str, what: str, *, required: bool = False) -> str:
    if value is None:
        if required:
            raise _problem(label, where, f"{what} is missing")
        return ""
    if not isinstance(value, str):
        raise _problem(label, where, f"{what} must be text, not {type(value).__name__}")
    return " ".join(value.split())[:MAX_TEXT]


def _examples(obj: dict, label: str, where: str) -> tuple[str, ...]:
    raw = obj.get("examples", obj.get("x-examples"))
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(e, str) for e in raw):
        raise _problem(label, f"{where}.examples", "examples must be a list of questions (text)")
    return tuple(" ".join(e.split()) for e in raw if e.strip())


def _param_type(schema: dict) -> tuple[str, tuple[str, ...]]:
    enum = schema.get("enum")
    if isinstance(enum, list) and enum and all(isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in enum):
        return "enum", tuple(str(v) for v in enum)
    t = schema.get("type")
    if isinstance(t, list):
        t = next((x for x in t if x != "null"), "string")
    if t in ("integer", "number", "int", "float"):
        return "number", ()
    if t in ("boolean", "bool"):
        return "boolean", ()
    if t == "string" and schema.get("format") in ("date", "date-time"):
        return "date", ()
    return "string", ()


def params_from_schema(schema: Any, label: str, where: str) -> tuple[CatalogParam, ...]:
    """A JSON schema object's properties as parameters (nested objects are not flattened)."""
    if schema is None:
        return ()
    if not isinstance(schema, dict):
        raise _problem(label, where, "the parameter schema must be an object")
    props = schema.get("properties")
    props = {} if props is None else props
    if not isinstance(props, dict):
        raise _problem(label, f"{where}.properties", "properties must map each parameter name to its schema")
    required = schema.get("required")
    required = [] if required is None else required
    if not isinstance(required, list):
        raise _problem(label, f"{where}.required", "required must be a list of parameter names")
    out = []
    for pname, ps in props.items():
        ps = ps if isinstance(ps, dict) else {}
        ptype, values = _param_type(ps)
        out.append(CatalogParam(str(pname), ptype, _text(ps.get("description"), label, f"{where}.properties.{pname}", "description"),
                                pname in required, values))
    return tuple(out)


def _items(data: Any, label: str) -> tuple[list, str]:
    if isinstance(data, list):
        return data, ""
    for key in ("tools", "functions"):
        if isinstance(data, dict) and key in data:
            if not isinstance(data[key], list):
                raise _problem(label, key, "must be a list of tools")
            return data[key], key
    if isinstance(data, dict) and isinstance(data.get("result"), dict):
        items, path = _items(data["result"], label)
        return items, f"result.{path}"
    if isinstance(data, dict):
        return [data], ""
    raise _problem(label, "", "expected a list of tools")


def read_openai(data: Any, label: str) -> Catalog:
    items, base = _items(data, label)
    tools = []
    for i, item in enumerate(items):
        where = f"{base}[{i}]" if base else f"[{i}]"
        if not isinstance(item, dict):
            raise _problem(label, where, "each tool must be an object")
        fn = item.get("function", item)
        fwhere = f"{where}.function" if "function" in item else where
        if not isinstance(fn, dict):
            raise _problem(label, fwhere, "function must be an object with name, description, parameters")
        name = _text(fn.get("name"), label, fwhere, "name", required=True)
        tools.append(CatalogTool(name, _text(fn.get("description"), label, fwhere, "description"),
                                 params_from_schema(fn.get("parameters"), label, f"{fwhere}.parameters"),
                                 _examples(fn, label, fwhere) or _examples(item, label, where), fwhere))
    return Catalog("openai", tuple(tools))


def read_mcp(data: Any, label: str) -> Catalog:
    items, base = _items(data, label)
    tools = []
    for i, item in enumerate(items):
        where = f"{base}[{i}]" if base else f"[{i}]"
        if not isinstance(item, dict):
            raise _problem(label, where, "each tool must be an object with name, description, inputSchema")
        name = _text(item.get("name"), label, where, "name", required=True)
        description = _text(item.get("description"), label, where, "description")
        title = _text(item.get("title") or (item.get("annotations") or {}).get("title"), label, where, "title")
        if title and title.casefold() not in description.casefold():
            description = f"{title}. {description}" if description else title
        tools.append(CatalogTool(name, description, params_from_schema(item.get("inputSchema"), label, f"{where}.inputSchema"),
                                 _examples(item, label, where), where))
    return Catalog("mcp", tuple(tools))


def _resolve(node: Any, doc: dict, depth: int = 0) -> Any:
    """A local `$ref` ('#/components/...') replaced by what it points to (others left as they are)."""
    if isinstance(node, dict) and isinstance(node.get("$ref"), str) and node["$ref"].startswith("#/") and depth < 8:
        target: Any = doc
        for part in node["$ref"][2:].split("/"):
            target = target.get(part.replace("~1", "/").replace("~0", "~")) if isinstance(target, dict) else None
        return _resolve(target, doc, depth + 1) if isinstance(target, dict) else {}
    return node


def operation_name(method: str, path: str) -> str:
    """'get', '/pets/{petId}' -> 'get_pets_petId': a name when an operation has no operationId."""
    parts = [p.strip("{}") for p in path.split("/") if p]
    return "_".join([method.lower(), *parts]) or method.lower()


def read_openapi(data: Any, label: str) -> Catalog:
    if not isinstance(data, dict):
        raise _problem(label, "", "an OpenAPI document must be an object")
    if "swagger" in data:
        raise _problem(label, "swagger", "Swagger 2 is not read; convert it to OpenAPI 3 first")
    version = str(data.get("openapi", ""))
    if not version.startswith("3"):
        raise _problem(label, "openapi", f"expected an OpenAPI 3 document (openapi: 3.x), found {version or 'no version'}")
    paths = data.get("paths")
    if not isinstance(paths, dict):
        raise _problem(label, "paths", "must map each path to its operations")
    tools = []
    for path, item in paths.items():
        pwhere = f"paths.{path}"
        if not isinstance(item, dict):
            raise _problem(label, pwhere, "a path item must be an object of operations")
        shared = item.get("parameters") or []
        for method in HTTP_METHODS:
            op = item.get(method)
            if op is None:
                continue
            where = f"{pwhere}.{method}"
            if not isinstance(op, dict):
                raise _problem(label, where, "an operation must be an object")
            name = _text(op.get("operationId"), label, where, "operationId") or operation_name(method, str(path))
            summary = _text(op.get("summary"), label, where, "summary")
            description = _text(op.get("description"), label, where, "description")
            if summary and description and not description.casefold().startswith(summary.casefold()):
                text = f"{summary.rstrip('.')}. {description}"
            else:
                text = description or summary
            params: list[CatalogParam] = []
            raw_params = [*shared, *(op.get("parameters") or [])]
            if not isinstance(raw_params, list):
                raise _problem(label, f"{where}.parameters", "parameters must be a list")
            seen: set[str] = set()
            for j, p in enumerate(raw_params):
                p = _resolve(p, data)
                if not isinstance(p, dict) or not isinstance(p.get("name"), str):
                    raise _problem(label, f"{where}.parameters[{j}]", "a parameter needs a name")
                if p["name"] in seen:
                    continue
                seen.add(p["name"])
                ptype, values = _param_type(_resolve(p.get("schema") or {}, data))
                params.append(CatalogParam(p["name"], ptype, _text(p.get("description"), label, f"{where}.parameters[{j}]", "description"),
                                           bool(p.get("required")), values))
            body = _resolve(op.get("requestBody") or {}, data)
            content = body.get("content") if isinstance(body, dict) else None
            if isinstance(content, dict):
                media = content.get("application/json") or next(iter(content.values()), None)
                schema = _resolve((media or {}).get("schema") or {}, data) if isinstance(media, dict) else {}
                if isinstance(schema, dict) and isinstance(schema.get("properties"), dict):
                    schema = {**schema, "properties": {k: _resolve(v, data) for k, v in schema["properties"].items()}}
                    params += [p for p in params_from_schema(schema, label, f"{where}.requestBody") if p.name not in seen]
            tools.append(CatalogTool(name, text, tuple(params), _examples(op, label, where), where,
                                     {"method": method.upper(), "path": str(path)}))
    if not tools:
        raise _problem(label, "paths", "no operations found")
    info = data.get("info") if isinstance(data.get("info"), dict) else {}
    return Catalog("openapi", tuple(tools), str(info.get("title") or ""))


READERS = {"openai": read_openai, "mcp": read_mcp, "openapi": read_openapi}


def read_catalog(source: str | bytes | Path, *, label: str = "", fmt: str | None = None) -> Catalog:
    """Read a catalog file (or its text); `fmt` forces a format, else it is recognised."""
    if isinstance(source, Path):
        label = label or str(source)
        try:
            source = source.read_bytes()
        except OSError as exc:
            raise _problem(label, "", f"cannot be read: {exc.strerror}") from None
    label = label or "catalog"
    if isinstance(source, bytes):
        try:
            source = source.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise _problem(label, f"byte {exc.start}", "the file is not UTF-8 text") from None
    data = parse_text(source, label)
    fmt = fmt or detect_format(data)
    if fmt == "swagger":
        return read_openapi(data, label)  # says what to do
    if fmt not in READERS:
        raise _problem(label, "", "not a tool catalog: expected an OpenAI tools list, an MCP tools/list result or an OpenAPI 3 document")
    catalog = READERS[fmt](data, label)
    if not catalog.tools:
        raise _problem(label, "", "the catalog has no tools")
    return catalog
