"""Drives an MCP server with the official Python SDK client (`mcp`) and prints what happened
as one JSON document.

usage: python py_client.py PLAN_JSON -- SERVER_CMD [ARGS...]   (stdio: spawns the server)
       python py_client.py PLAN_JSON -- URL                    (Streamable HTTP, http://...)
       (PLAN_JSON may be @FILE: the plan in a file, as the runner hands it)
PLAN: {"mode": "legacy" | "auto" | "2026-07-28", "logLevel": null | "info",
       "calls": [{"name", "arguments", "progress": bool, "cancelAfterMs": number | null,
                  "answers": {"elicitation": ElicitResult, "sampling": CreateMessageResult}}
                 | {"method": "prompts/list" | "prompts/get" | "resources/list" |
                    "resources/templates/list" | "resources/read" | "completion/complete" |
                    "resources/subscribe",
                    "name", "arguments", "uri", "ref", "argument", "then"}]}
A call with a `method` is an item step, made through the SDK's own method for it (a list walks
every page), so the SDK validates its result; the others call a tool. A `resources/subscribe`
step subscribes to `uri` (`resources/subscribe` in a session, a `subscriptions/listen` stream on
2026-07-28), calls the tool `then` names, and is `{"updated": [...]}`, the URIs of the updates
heard within 5 s.
The client declares elicitation and sampling and answers the server's asks during a call with
that call's `answers` (a decline when it has none), recording each ask's method: as requests in
a session, or through the SDK's multi-round-trip driver on 2026-07-28.
The SDK validates every structuredContent against the tool's outputSchema; a violation makes
the call fail. A call with `cancelAfterMs` is abandoned that long after it was sent (an anyio
cancel scope): the SDK then posts `notifications/cancelled` (stdio, or an HTTP session), or
closes the request's response stream (2026-07-28 over HTTP).
"""

import json
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import mcp_types as types
from mcp import Client
from mcp.client.stdio import StdioServerParameters


def dump(model: Any) -> Any:
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


async def every_page(list_page: Callable[..., Awaitable[Any]], field: str) -> list:
    """The items of a list (`field`) on every page `list_page` returns, as JSON."""
    items: list[Any] = []
    cursor = None
    while True:
        page = await list_page(cursor=cursor)
        items.extend(dump(item) for item in getattr(page, field))
        cursor = page.next_cursor
        if not cursor:
            return items


async def subscribed(client: Client, step: dict, updated: list[str]) -> dict:
    """A `resources/subscribe` step: the URIs of the updates heard after the step's call."""
    then = step["then"]
    before = len(updated)

    async def heard() -> dict:
        await client.call_tool(then["name"], then.get("arguments", {}))
        with anyio.move_on_after(5):
            while step["uri"] not in updated[before:]:
                await anyio.sleep(0.05)
        return {"updated": updated[before:]}

    if client.protocol_version != "2026-07-28":
        await client.subscribe_resource(step["uri"])
        return await heard()
    async with client.listen(resource_subscriptions=[step["uri"]]) as subscription:
        async def collect() -> None:
            async for event in subscription:
                uri = getattr(event, "uri", None)
                if uri is not None:
                    updated.append(str(uri))
        async with anyio.create_task_group() as group:
            group.start_soon(collect)
            result = await heard()
            group.cancel_scope.cancel()
        return result


async def item_step(client: Client, step: dict) -> Any:
    """An item step through the SDK's own method for it: its result as JSON."""
    method = step["method"]
    if method == "prompts/list":
        return {"prompts": await every_page(client.list_prompts, "prompts")}
    if method == "prompts/get":
        return dump(await client.get_prompt(step["name"], step.get("arguments")))
    if method == "resources/list":
        return {"resources": await every_page(client.list_resources, "resources")}
    if method == "resources/templates/list":
        return {"resourceTemplates": await every_page(client.list_resource_templates, "resource_templates")}
    if method == "resources/read":
        return dump(await client.read_resource(step["uri"]))
    if method == "completion/complete":
        ref = types.PromptReference if step["ref"]["type"] == "ref/prompt" else types.ResourceTemplateReference
        return dump(await client.complete(ref.model_validate(step["ref"]), step["argument"]))
    raise ValueError(f"no item step {method!r}")


async def main() -> None:
    sep = sys.argv.index("--")
    plan = json.loads(open(sys.argv[1][1:]).read() if sys.argv[1].startswith("@") else sys.argv[1])
    command, *args = sys.argv[sep + 1 :]
    out: dict[str, Any] = {"ok": True, "logs": [], "calls": []}

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        out["logs"].append(dump(params))

    # The URIs of the `notifications/resources/updated` heard in a session, oldest first.
    updated: list[str] = []

    async def on_message(message: Any) -> None:
        root = getattr(message, "root", message)
        if getattr(root, "method", None) == "notifications/resources/updated":
            updated.append(str(root.params.uri))

    # The call in progress: its plan entry and its record.
    current: dict[str, Any] = {}

    def given(kind: str, method: str) -> dict | None:
        current["record"]["asked"].append(method)
        return current["call"].get("answers", {}).get(kind)

    async def on_elicitation(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        return types.ElicitResult.model_validate(given("elicitation", "elicitation/create") or {"action": "decline"})

    async def on_sampling(context: Any, params: types.CreateMessageRequestParams) -> Any:
        answer = given("sampling", "sampling/createMessage")
        if answer is None:
            return types.ErrorData(code=-32603, message="no sampling answer in the plan")
        return types.CreateMessageResult.model_validate(answer)

    options: dict[str, Any] = dict(
        mode=plan.get("mode", "auto"),
        read_timeout_seconds=15,
        logging_callback=on_log,
        elicitation_callback=on_elicitation,
        sampling_callback=on_sampling,
        message_handler=on_message,
        client_info=types.Implementation(name="toolwright-interop", version="1.0.0"),
    )
    if plan.get("logLevel") and options["mode"] != "legacy":
        options["log_level"] = plan["logLevel"]
    try:
        target = command if command.startswith(("http://", "https://")) else StdioServerParameters(command=command, args=args)
        async with Client(target, **options) as client:
            out["protocolVersion"] = client.protocol_version
            if plan.get("logLevel") and client.protocol_version != "2026-07-28":
                await client.set_logging_level(plan["logLevel"])
            out["tools"] = await every_page(client.list_tools, "tools")
            for call in plan["calls"]:
                record: dict[str, Any] = {"name": call.get("name"), "progress": [], "asked": []}
                current.update(call=call, record=record)

                async def on_progress(progress: float, total: float | None, message: str | None, record=record) -> None:
                    record["progress"].append({"progress": progress, "total": total})

                cancel_after = call.get("cancelAfterMs")
                try:
                    if call.get("method") == "resources/subscribe":
                        record["result"] = await subscribed(client, call, updated)
                    elif "method" in call:
                        record["result"] = await item_step(client, call)
                    else:
                        with anyio.move_on_after(cancel_after / 1000 if cancel_after is not None else None) as scope:
                            result = await client.call_tool(
                                call["name"],
                                call.get("arguments", {}),
                                progress_callback=on_progress if call.get("progress") else None,
                            )
                        if scope.cancelled_caught:
                            record["error"] = {"name": "Cancelled", "message": f"abandoned after {cancel_after} ms"}
                        else:
                            record["result"] = dump(result)
                except Exception as e:  # noqa: BLE001 - reported to the runner
                    record["error"] = {"name": type(e).__name__, "message": str(e)}
                out["calls"].append(record)
    except BaseException as e:  # noqa: BLE001 - reported to the runner
        if isinstance(e, KeyboardInterrupt):
            raise
        out["ok"] = False
        out["error"] = {"name": type(e).__name__, "message": str(e)}
    print(json.dumps(out, default=str))


if __name__ == "__main__":
    anyio.run(main)
