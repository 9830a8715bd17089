"""import-tools: an OpenAI tools list, an MCP tools/list result and an OpenAPI 3 document each become
a domain (YAML on disk) that routes questions worded nothing like its descriptions' first words."""
from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
import yaml

from routing import Router, Status
from routing.cli.main import main
from routing.core.lexicon import load_domain
from routing.quality.catalog import CatalogProblem, read_catalog
from routing.quality.importer import ImportProblem
from routing.quality.tool_import import import_tool_catalog

CATALOGS = Path(__file__).resolve().parent / "catalogs"
TODAY = "2026-01-22"


def run_cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def tools_yaml(root: Path, name: str) -> list[dict]:
    return yaml.safe_load((root / name / "tools.yaml").read_text(encoding="utf-8"))["tools"]


def top(router: Router, query: str) -> str:
    return router.route(query, today=TODAY).candidates[0]["name"]


def test_openai_tools_list_becomes_a_domain_on_disk(lexicon_root):
    code, out, _ = run_cli("--lexicons", str(lexicon_root), "import-tools", str(CATALOGS / "openai_tools.json"), "--domain", "agent")
    assert code == 0
    assert json.loads(out)["format"] == "openai" and json.loads(out)["tools"] == 3
    tools = {t["name"]: t for t in tools_yaml(lexicon_root, "agent")}
    assert list(tools) == ["getWeatherForecast", "send_email", "convertCurrency"]
    weather = tools["getWeatherForecast"]
    assert weather["description"] == "Get the weather forecast for a city for the next days"
    assert weather["params"] == [{"name": "city", "type": "string", "required": True, "description": "The city name"},
                                 {"name": "days", "type": "number", "description": "How many days ahead"}]
    assert tools["send_email"]["params"][2] == {"name": "priority", "type": "enum", "values": ["low", "high"]}
    assert tools["convertCurrency"]["examples"] == ["how many euros is 100 dollars"]
    settings = yaml.safe_load((lexicon_root / "agent" / "settings.yaml").read_text(encoding="utf-8"))
    assert settings["enrich"] is True
    router = Router.load("agent", lexicon_root)
    # Words only a parameter description or the split name carries ("recipient", "forecast").
    assert top(router, "mail the recipient a short note") == "send_email"
    assert top(router, "forecast for Paris") == "getWeatherForecast"
    assert top(router, "change 50 dollars into another currency") == "convertCurrency"


def test_mcp_tools_list_result(lexicon_root):
    result = import_tool_catalog(CATALOGS / "mcp_tools_list.json", "gh", root=lexicon_root)
    assert (result.format, result.tools, result.params) == ("mcp", 3, 5)
    tools = {t["name"]: t for t in tools_yaml(lexicon_root, "gh")}
    assert tools["create_pull_request"]["description"] == "Open a pull request. Create a new pull request from a branch"
    assert tools["list_issues"]["params"][0] == {"name": "repo", "type": "string", "required": True, "description": "owner/name of the repository"}
    router = Router.load("gh", lexicon_root)
    assert top(router, "open a pull request to merge my branch") == "create_pull_request"
    assert top(router, "which issues are still open in the repository") == "list_issues"


def test_openapi_yaml_one_tool_per_operation(lexicon_root):
    result = import_tool_catalog(CATALOGS / "openapi_petstore.yaml", "pets", root=lexicon_root)
    assert (result.format, result.tools) == ("openapi", 4)
    tools = {t["name"]: t for t in tools_yaml(lexicon_root, "pets")}
    assert list(tools) == ["listPets", "createPet", "get_pets_petId", "deletePet"]
    # $ref'd parameters and request bodies are read; summary and description both kept.
    assert tools["get_pets_petId"]["params"] == [{"name": "petId", "type": "string", "required": True, "description": "The id of the pet"}]
    assert tools["get_pets_petId"]["description"] == "Info for a specific pet. Returns the pet's name, species and age"
    assert tools["createPet"]["params"][1] == {"name": "species", "type": "enum", "values": ["dog", "cat", "bird"]}
    router = Router.load("pets", lexicon_root)
    assert top(router, "remove a pet from the store") == "deletePet"
    assert top(router, "list the pets, twenty at one time") == "listPets"
    # The domain round-trips through the loader the editor uses.
    assert load_domain("pets", lexicon_root).tool("listPets").params[0].description == "How many pets to return at one time"


def test_openapi_json_too(lexicon_root, tmp_path):
    doc = yaml.safe_load((CATALOGS / "openapi_petstore.yaml").read_text(encoding="utf-8"))
    path = tmp_path / "petstore.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert read_catalog(path).format == "openapi"
    assert [t.name for t in read_catalog(path).tools] == ["listPets", "createPet", "get_pets_petId", "deletePet"]


def test_bad_json_names_file_line_and_column(lexicon_root):
    code, _, err = run_cli("--lexicons", str(lexicon_root), "import-tools", str(CATALOGS / "broken.json"), "--domain", "x")
    assert code == 2
    message = json.loads(err)["error"]["message"]
    assert "broken.json" in message and "line 3, column" in message
    assert not (lexicon_root / "x").exists()


@pytest.mark.parametrize("text, where", [
    ('[{"type": "function", "function": {"description": "no name"}}]', "[0].function: name is missing"),
    ('{"tools": [{"name": "a", "inputSchema": {"properties": []}}]}', "tools[0].inputSchema.properties"),
    ('openapi: 3.0.0\npaths:\n  /a:\n    get:\n      parameters:\n        - in: query\n', "paths./a.get.parameters[0]"),
    ('openapi: 2.0\npaths: {}\n', "openapi"),
    ("tools: [a, b\n", "line 2, column 1"),
])
def test_a_wrong_shape_names_its_position(text, where):
    with pytest.raises(CatalogProblem) as exc:
        read_catalog(text, label="cat.yaml")
    assert str(exc.value).startswith("cat.yaml: ") and where in str(exc.value)


def test_existing_domain_is_not_replaced_without_force(lexicon_root):
    import_tool_catalog(CATALOGS / "mcp_tools_list.json", "gh", root=lexicon_root)
    with pytest.raises(ImportProblem, match="already exists"):
        import_tool_catalog(CATALOGS / "openai_tools.json", "gh", root=lexicon_root)
    import_tool_catalog(CATALOGS / "openai_tools.json", "gh", root=lexicon_root, force=True)
    assert [t["name"] for t in tools_yaml(lexicon_root, "gh")][0] == "getWeatherForecast"


def test_descriptions_only_domain_says_how_confidence_is_made(lexicon_root):
    import_tool_catalog(CATALOGS / "mcp_tools_list.json", "gh", root=lexicon_root)
    router = Router.load("gh", lexicon_root)
    said = router.describe()["confidence"]
    assert "descriptions" in said["source"]
    r = router.route("search the source code for a function name", today=TODAY)
    assert r.status is not Status.NOT_FOUND and r.matches[0].name == "search_code"
