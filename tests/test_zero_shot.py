"""`bench --zero-shot` on a small catalog in Seal-Tools' shape, and the learned model's limit: a catalog of
one-example tools is routed without training a model (the 4,076-tool import once took 19 minutes)."""
from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path

import yaml

from routing.cli.main import main
from routing.quality.importer import import_labelled_csv
from routing.quality.zero_shot import TfIdfBaseline, run_zero_shot, seal_tools_as_openai

TOOLS = [
    ("getWeatherForecast", "Get the weather forecast for a location", {"location": "The city or region"}),
    ("bookFlight", "Book a flight ticket between two airports", {"origin": "Departure airport", "destination": "Arrival airport"}),
    ("translateText", "Translate a text into another language", {"target_language": "The language to translate into"}),
    ("getStockPrice", "Retrieve the current price of a stock", {"ticker": "Stock ticker symbol"}),
]
QUESTIONS = [
    ("Will it rain in Oslo tomorrow? I need the forecast.", "getWeatherForecast"),
    ("Reserve a flight from JFK to the arrival airport LHR.", "bookFlight"),
    ("Please translate 'good morning' into Japanese.", "translateText"),
    ("What is the current price of the AAPL stock ticker?", "getStockPrice"),
]


def seal_folder(tmp_path: Path) -> Path:
    data = tmp_path / "seal"
    data.mkdir()
    lines = [json.dumps({"api_name": n, "api_description": d, "parameters": {k: {"type": "str", "description": v} for k, v in p.items()},
                         "required": list(p)}) for n, d, p in TOOLS]
    (data / "tool.jsonl").write_text("\n".join(lines), encoding="utf-8")
    rows = [{"question": q, "positive_ctxs": [{"title": t, "text": ""}]} for q, t in QUESTIONS]
    (data / "dev_split.json").write_text("\ufeff" + json.dumps(rows), encoding="utf-8")
    return data


def test_seal_tools_become_an_openai_tools_list(tmp_path):
    tools = seal_tools_as_openai(seal_folder(tmp_path) / "tool.jsonl")
    assert tools[1]["function"]["name"] == "bookFlight"
    assert tools[1]["function"]["parameters"]["properties"]["origin"] == {"type": "string", "description": "Departure airport"}
    assert tools[1]["function"]["parameters"]["required"] == ["origin", "destination"]


def test_zero_shot_report_routes_every_question_beside_tfidf(tmp_path):
    report = run_zero_shot(Path(__file__).resolve().parent.parent / "lexicons", seal_folder(tmp_path))
    assert report["tools"] == 4 and report["questions"] == 4
    assert report["timed_routes"] == 4  # four different questions: every route timed
    assert report["router"]["top1"] == 1.0 and report["router"]["top5"] == 1.0
    assert report["router"]["tiers"].get("not_found", 0) == 0
    assert report["router"]["confidence_made_by"]["source"].startswith("descriptions only")
    assert report["tfidf_name_description_params"]["top5"] == 1.0
    for key in ("import_s", "build_s", "import_build_s", "peak_rss_mb"):
        assert report[key] >= 0
    assert report["router"]["cpu_p50_ms"] > 0 and report["router"]["cpu_p99_ms"] >= report["router"]["cpu_p50_ms"]


def test_bench_zero_shot_command_prints_json(tmp_path):
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(["bench", "--zero-shot", "--data", str(seal_folder(tmp_path)), "--limit", "2"])
    assert code == 0
    report = json.loads(out.getvalue())
    assert report["questions"] == 2 and set(report["router"]) >= {"top1", "top5", "p50_ms", "p99_ms", "tiers"}


def test_bench_zero_shot_without_data_is_a_clear_error(tmp_path, capsys):
    assert main(["bench", "--zero-shot", "--data", str(tmp_path / "nowhere")]) == 2
    assert "no Seal-Tools data" in json.loads(capsys.readouterr().err)["error"]["message"]


def test_tfidf_baseline_ranks_by_cosine():
    base = TfIdfBaseline(["weather forecast rain", "flight ticket airport", "stock price ticker"])
    assert base.rank("is rain in the forecast", k=1) == [0]
    assert base.rank("nothing shared", k=3) == []


def test_one_example_per_tool_trains_no_model(lexicon_root, tmp_path):
    """250 labels with one utterance each: enough rows for the old limit (200), too few per tool."""
    csv = tmp_path / "one_each.csv"
    csv.write_text("text,category\n" + "".join(f"question number {i} about topic {i},label_{i}\n" for i in range(250)), encoding="utf-8")
    import_labelled_csv(csv, "oneeach", root=lexicon_root, holdout=0.0)
    settings = yaml.safe_load((lexicon_root / "oneeach" / "settings.yaml").read_text(encoding="utf-8"))
    assert settings["scoring"].get("learned", 0) == 0
    from routing import Router

    router = Router.load("oneeach", lexicon_root)
    assert router.learned is None and not (lexicon_root / "oneeach" / ".learned.npz").exists()


def test_only_routes_of_a_new_question_are_timed():
    # Seal-Tools lists a question once per tool it needs: a repeat of the question just routed would
    # take the token table's last vector for free, so the timings leave it out (accuracy counts it)
    from routing.quality.zero_shot import fresh_routes

    qs = [("book a flight", "a"), ("book a flight", "b"), ("weather in Rome", "c"), ("book a flight", "a")]
    assert fresh_routes(qs) == [True, False, True, True]
    assert fresh_routes([]) == []
