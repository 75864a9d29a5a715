"""What each example server is asked (`plans`, `TOOL_COUNTS`) and how one call's outcome is
judged against what the plan expects (`judge`, `leftovers`), whichever client made the call.

A call names a tool (`name`), or is an item step: a `method` of prompts, resources or
completion, with its `name` and `arguments` (a prompt), `uri` (a resource) or `ref` and
`argument` (a completion). An item step's result must hold `expect["result"]` (see `holds`),
and the JSON text of its first content must hold `expect["json"]`, when there is one."""

import json
import os
import time
from pathlib import Path

from common import ROOT, SCRATCH


# A 1x1 PNG, for the file server to read.
PIXEL = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                      "1f15c4890000000d49444154789c63f8cfc0f01f0005000201e5a7e6b10000000049454e44ae426082")


# The 1x1 PNG the conformance example shows as an image and serves as test://static-binary.
CONFORMANCE_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="


def plans(tag: str) -> dict[str, list[dict]]:
    """The calls made of each example. `tag` keeps one run's files apart from another's."""
    export, cancelled = str(SCRATCH / f"{tag}-notes.md"), str(SCRATCH / f"{tag}-cancelled.md")
    picture = SCRATCH / "pixel.png"
    if not picture.exists():
        picture.write_bytes(PIXEL)
    return {
        "quickstart": [
            {"name": "add", "arguments": {"a": 2, "b": 40}, "expect": {"text": "42", "structured": True}},
            {"name": "text_stats", "arguments": {"text": "one two\nthree"}, "expect": {"structured": True}},
            {"name": "convert_length", "arguments": {"value": 5, "from": "km", "to": "mi"}, "expect": {"structured": True}},
            {"name": "convert_length", "arguments": {"value": 5, "from": "km", "to": "league"}, "expect": {"isError": True}},
            {"name": "head", "arguments": {"path": str(ROOT / "Cargo.toml"), "lines": 1}, "expect": {"text": "[workspace]"}},
        ],
        "notes": [
            {"name": "add_note", "arguments": {"text": "milk", "tags": ["shop"]}, "expect": {"structured": True}},
            {"name": "list_notes", "arguments": {"tag": "shop"}, "expect": {"structured": True}},
            {"name": "export_notes", "arguments": {"path": export}, "progress": True, "expect": {"structured": True, "progress": True}},
            # Cancelled mid-export: the server removes the partial file when it honours the
            # cancellation, and the next call shows it is still healthy.
            {"name": "export_notes", "arguments": {"path": cancelled, "pause_ms": 10000}, "cancelAfterMs": 400,
             "expect": {"cancelled": True, "removed": cancelled}},
            {"name": "delete_note", "arguments": {"id": 1}, "expect": {"text": "deleted note 1"}},
            # The user declines, then confirms: only then are the notes gone.
            {"name": "add_note", "arguments": {"text": "old", "tags": ["old"]}, "expect": {"structured": True}},
            {"name": "delete_tagged", "arguments": {"tag": "old"}, "answers": {"elicitation": {"action": "decline"}},
             "expect": {"text": "kept the notes tagged old", "asked": ["elicitation/create"]}},
            {"name": "delete_tagged", "arguments": {"tag": "old"},
             "answers": {"elicitation": {"action": "accept", "content": {"confirm": True}}},
             "expect": {"text": "deleted 1 notes tagged old", "asked": ["elicitation/create"]}},
            {"name": "delete_tagged", "arguments": {"tag": "old"}, "answers": {},
             "expect": {"text": "no note is tagged old", "asked": []}},
            # The tool list changes: a client with a list-changed handler hears it and re-lists.
            {"name": "lock_notes", "arguments": {"locked": True},
             "expect": {"text": "the notes are locked", "relisted": ["export_notes", "list_notes", "lock_notes"]}},
            {"name": "lock_notes", "arguments": {"locked": False},
             "expect": {"text": "the notes are unlocked", "relisted": [
                 "add_note", "delete_note", "delete_tagged", "export_notes", "list_notes", "lock_notes"]}},
        ],
        # Two libraries mounted under namespaces beside the program's own tools.
        "composed": [
            {"name": "memory_create_entities",
             "arguments": {"entities": [{"name": "Ada", "entityType": "person", "observations": []}]},
             "expect": {"structured": True}},
            {"name": "weather_forecast", "arguments": {"city": "Oslo"}, "expect": {"text": "21 °C in Oslo"}},
            {"name": "weather_search", "expect": {"text": "the weather library's search"}},
            {"method": "resources/templates/list",
             "expect": {"result": {"resourceTemplates": [{"uriTemplate": "memory://memory/entities/{name}"},
                                                         {"uriTemplate": "forecast://weather/{city}"}]}}},
            # The Inspector runs each item step in a server of its own: a read that needs no
            # call before it.
            {"method": "resources/read", "uri": "forecast://weather/Oslo",
             "expect": {"result": {"contents": [{"uri": "forecast://weather/Oslo", "text": "21 °C in Oslo"}]}}},
            {"method": "completion/complete", "ref": {"type": "ref/resource", "uri": "memory://memory/entities/{name}"},
             "argument": {"name": "name", "value": "A"}, "expect": {"result": {"completion": {"values": ["Ada"]}}}},
            {"method": "prompts/get", "name": "weather_packing", "arguments": {"city": "Oslo", "season": "winter"},
             "expect": {"result": {"messages": [{"content": {
                 "text": "List what to pack for Oslo in Winter, given its weather then."}}]}}},
            {"method": "completion/complete", "ref": {"type": "ref/prompt", "name": "weather_packing"},
             "argument": {"name": "season", "value": "s"},
             "expect": {"result": {"completion": {"values": ["spring", "summer"]}}}},
            # The graph's own update, heard by the URI it has through the mount.
            {"method": "resources/subscribe", "uri": "memory://memory/entities/Ada",
             "then": {"name": "memory_add_observations", "arguments": {"name": "Ada", "observations": ["counted"]}},
             "expect": {"result": {"updated": ["memory://memory/entities/Ada"]}}},
        ],
        # Started with the repository and the scratch folder as its directories.
        "files": [
            {"name": "list_allowed_directories", "expect": {"text": f"{ROOT}\n{SCRATCH.resolve()}"}},
            {"name": "list_directory", "arguments": {"path": str(ROOT), "sort_by": "name"}, "expect": {"structured": True}},
            {"name": "read_text_file", "arguments": {"path": str(ROOT / "Cargo.toml"), "head": 1}, "expect": {"text": "[workspace]"}},
            # A key the schema does not list: this server ignores it.
            {"name": "read_text_file", "arguments": {"path": str(ROOT / "Cargo.toml"), "head": 1, "encoding": "utf-8"},
             "expect": {"text": "[workspace]"}},
            {"name": "read_text_file", "arguments": {"path": "/etc/hostname"}, "expect": {"isError": True}},
            {"name": "read_media_file", "arguments": {"path": str(picture)}, "expect": {"types": ["image"], "structured": True}},
            {"name": "get_file_info", "arguments": {"path": str(ROOT / "Cargo.toml")}, "expect": {"structured": True}},
        ],
        "conformance": [
            {"name": "test_simple_text", "expect": {"text": "This is a simple text response for testing."}},
            {"name": "test_image_content", "expect": {"types": ["image"]}},
            {"name": "test_audio_content", "expect": {"types": ["audio"]}},
            {"name": "test_embedded_resource", "expect": {"types": ["resource"]}},
            {"name": "test_multiple_content_types", "expect": {"types": ["text", "image", "resource"]}},
            {"name": "test_error_handling", "expect": {"isError": True}},
            {"name": "test_tool_with_progress", "progress": True, "expect": {"progress": True}},
            {"name": "test_tool_with_logging", "expect": {"logs": 3}},
            {"name": "test_logging_tool", "expect": {"text": "logged"}},
            {"name": "json_schema_2020_12_tool", "arguments": {"email": "a@example.com"}, "expect": {}},
            # Over 2026-07-28 HTTP the client must also send the region as `Mcp-Param-Region`.
            {"name": "execute_sql", "arguments": {"region": "eu-west-1", "query": "select 1"},
             "expect": {"text": "ran `select 1` in eu-west-1"}},
            # Over HTTP in a 2025-11-25 session the server drops the stream mid-call and the
            # client resumes it (GET with Last-Event-ID) to get the result.
            {"name": "test_reconnection", "expect": {"text": "Reconnection test completed"}},
            {"name": "test_streaming_elicitation", "progress": True, "expect": {"text": "Streaming completed", "progress": True}},
            {"name": "test_sampling", "arguments": {"prompt": "Capital of France?"},
             "answers": {"sampling": {"role": "assistant", "content": {"type": "text", "text": "Paris"},
                                      "model": "interop", "stopReason": "endTurn"}},
             "expect": {"text": "LLM response: Paris", "asked": ["sampling/createMessage"]}},
            {"method": "prompts/list", "expect": {"result": {"prompts": [
                {"name": "test_prompt_with_arguments",
                 "arguments": [{"name": "arg1", "required": True}, {"name": "arg2", "required": True}]}]}}},
            {"method": "prompts/get", "name": "test_prompt_with_arguments", "arguments": {"arg1": "a", "arg2": "b"},
             "expect": {"result": {"messages": [
                 {"role": "user", "content": {"type": "text", "text": "Prompt with arguments: arg1='a', arg2='b'"}}]}}},
            {"method": "prompts/get", "name": "test_prompt_with_image",
             "expect": {"result": {"messages": [{"content": {"type": "image", "data": CONFORMANCE_PNG, "mimeType": "image/png"}}]}}},
            {"method": "resources/list", "expect": {"result": {"resources": [{"uri": "test://static-text"}]}}},
            {"method": "resources/templates/list",
             "expect": {"result": {"resourceTemplates": [{"uriTemplate": "test://template/{id}/data"}]}}},
            {"method": "resources/read", "uri": "test://template/42/data",
             "expect": {"result": {"contents": [{"uri": "test://template/42/data", "mimeType": "application/json"}]},
                        "json": {"id": "42"}}},
            {"method": "resources/read", "uri": "test://static-binary",
             "expect": {"result": {"contents": [{"uri": "test://static-binary", "blob": CONFORMANCE_PNG}]}}},
            {"method": "completion/complete", "ref": {"type": "ref/prompt", "name": "test_prompt_with_arguments"},
             "argument": {"name": "arg1", "value": ""}, "expect": {"result": {"completion": {"values": []}}}},
        ],
    }


def answerable(calls: list[dict], client: str) -> list[dict]:
    """The calls `client` can make: those that need the client to answer an ask (`answers`) or
    to hear a resource's updates (`resources/subscribe`) only for the clients that do (the
    TypeScript and Python SDK clients), and a completion not for the Inspector, whose CLI has no
    flag for it."""
    if client in ("ts-sdk-1", "ts-sdk-2", "python-sdk"):
        return calls
    if client == "inspector":
        calls = [c for c in calls if c.get("method") != "completion/complete"]
    # A subscription needs a client that stays connected and hears notifications.
    calls = [c for c in calls if c.get("method") != "resources/subscribe"]
    return [c for c in calls if "answers" not in c]


def named(call: dict) -> str:
    """A call as a problem names it: its tool, or its method and what it asks for."""
    return " ".join(call[key] for key in ("method", "name", "uri") if key in call)


def counted(calls: list[dict]) -> str:
    """How many tool calls and item steps there are, for a check's line."""
    steps = sum("method" in c for c in calls)
    if not steps:
        return f"{len(calls)} calls"
    if steps == len(calls):
        return f"{steps} item steps"
    return f"{len(calls) - steps} calls, {steps} item steps"


TOOL_COUNTS = {"quickstart": 4, "notes": 6, "composed": 6, "files": 5, "conformance": 34}


def judge(call: dict, record: dict, logs: list | None) -> str | None:
    """What is wrong with one call's record, or None."""
    expect = call["expect"]
    if expect.get("cancelled"):
        if "error" not in record:
            return f"expected the call to be cancelled, got {json.dumps(record)[:300]}"
        said = json.dumps(record["error"]).lower()
        return None if "cancel" in said or "abort" in said else f"failed, but not as cancelled: {said[:300]}"
    if "error" in expect:
        said = json.dumps(record.get("error"))
        return None if expect["error"] in said else f"expected an error saying {expect['error']!r}, got {json.dumps(record)[:300]}"
    if "error" in record:
        return f"{record['error'].get('name')}: {record['error'].get('message')}"[:300]
    result = record["result"]
    if "method" in call:
        return judge_item(expect, result)
    if bool(result.get("isError")) != bool(expect.get("isError")):
        return f"isError is {result.get('isError')}: {json.dumps(result)[:300]}"
    content = result.get("content", [])
    if "text" in expect and not any(b.get("text") == expect["text"] for b in content):
        return f"no text block {expect['text']!r}: {json.dumps(content)[:300]}"
    if "types" in expect and [b.get("type") for b in content] != expect["types"]:
        return f"content types {[b.get('type') for b in content]}, expected {expect['types']}"
    if expect.get("structured") and result.get("structuredContent") is None:
        return "no structuredContent"
    if expect.get("progress") and "progress" in record:
        values = [p["progress"] for p in record.get("progress", [])]
        if not values or values != sorted(set(values)):
            return f"progress {values}: expected a strictly increasing series"
    if "relisted" in expect and "relisted" in record and record["relisted"] != expect["relisted"]:
        return f"the list the client re-fetched is {record['relisted']}, expected {expect['relisted']}"
    if "asked" in expect and "asked" in record and record["asked"] != expect["asked"]:
        return f"the client was asked {record['asked']}, expected {expect['asked']}"
    if "logs" in expect and logs is not None and len([l for l in logs if l.get("logger") == call["name"]]) < expect["logs"]:
        return f"expected {expect['logs']} log messages, got {logs}"
    return None


def judge_item(expect: dict, result: dict) -> str | None:
    """What is wrong with an item step's result, or None."""
    if not holds(result, expect["result"]):
        return f"expected a result holding {json.dumps(expect['result'])[:300]}, got {json.dumps(result)[:300]}"
    if "json" in expect:
        try:
            data = json.loads(result["contents"][0]["text"])
        except (json.JSONDecodeError, KeyError, IndexError, TypeError):
            return f"the first content is no JSON text: {json.dumps(result)[:300]}"
        if not holds(data, expect["json"]):
            return f"the JSON text {json.dumps(data)[:300]} does not hold {json.dumps(expect['json'])}"
    return None


def holds(actual: object, expected: object) -> bool:
    """Whether `actual` holds `expected`: a dict holds each of its keys with a value that holds
    the expected one, a list holds each expected item in one of its own, and anything else is
    equal."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and holds(actual[k], v) for k, v in expected.items())
    if isinstance(expected, list):
        return isinstance(actual, list) and all(any(holds(a, e) for a in actual) for e in expected)
    return actual == expected


def leftovers(calls: list[dict]) -> list[str]:
    """Files a cancelled call should have removed and that are still there (after a grace)."""
    paths = [c["expect"]["removed"] for c in calls if "removed" in c["expect"]]
    deadline = time.monotonic() + 2
    while any(os.path.exists(p) for p in paths) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [f"{Path(p).name} is still there: the server did not stop the cancelled export" for p in paths if os.path.exists(p)]
