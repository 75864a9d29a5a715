// Drives an MCP server with the official TypeScript SDK client, 1.x
// (`@modelcontextprotocol/sdk`) or 2.x (`@modelcontextprotocol/client`), and prints what
// happened as one JSON document.
//
// usage: node ts_client.mjs PLAN_JSON -- SERVER_CMD [ARGS...]   (stdio: spawns the server)
//        node ts_client.mjs PLAN_JSON -- URL                    (Streamable HTTP, http://...)
//        (PLAN_JSON may be @FILE: the plan in a file, as the runner hands it)
// PLAN: {"sdk": "v1" | "v2", "mode": "legacy" | "auto" | "2026-07-28", "logLevel": null | "info",
//        "calls": [{"name", "arguments", "progress": bool, "cancelAfterMs": number | null,
//                   "answers": {"elicitation": ElicitResult, "sampling": CreateMessageResult}}
//                  | {"method": "prompts/list" | "prompts/get" | "resources/list" |
//                     "resources/templates/list" | "resources/read" | "completion/complete" |
//                     "resources/subscribe",
//                     "name", "arguments", "uri", "ref", "argument", "then"}]}
// A call with a `method` is an item step, made through the SDK's own method for it (a list
// walks every page), so the SDK validates its result; the others call a tool. A
// `resources/subscribe` step subscribes to `uri` (`resources/subscribe` in a session, a
// `subscriptions/listen` stream on 2026-07-28), calls the tool `then` names, and resolves to
// `{"updated": [...]}`, the URIs of the updates heard within 5 s. A call with
// `"task": true` (SDK 1.x, 2025-11-25) calls it as a task through the SDK's experimental tasks
// client (`callToolStream`), recording the task's statuses; with `"cancel": true` it cancels the
// task once it has reported a status message.
// The client declares elicitation and sampling and answers the server's asks during a call with
// that call's `answers` (a decline when it has none), recording each ask's method: as requests
// in a session, or through the SDK's multi-round-trip driver on 2026-07-28. It also has a
// tools list-changed handler: after a call whose plan expects `relisted`, it waits for the
// SDK to re-fetch the list on the server's notification and records the names it got.
// The client lists the tools first, so the SDK validates each structuredContent against the
// tool's outputSchema; a violation makes the call fail. A call with `cancelAfterMs` is aborted
// that long after it was sent: the SDK posts `notifications/cancelled` (stdio, or an HTTP
// session), or closes the request's response stream (2026-07-28 over HTTP, SDK 2.x).
const argv = process.argv.slice(2);
const sep = argv.indexOf('--');
const { readFileSync } = await import('node:fs');
const plan = JSON.parse(argv[0].startsWith('@') ? readFileSync(argv[0].slice(1), 'utf8') : argv[0]);
const [command, ...args] = argv.slice(sep + 1);
const v2 = plan.sdk === 'v2';
const { Client } = await import(v2 ? '@modelcontextprotocol/client' : '@modelcontextprotocol/sdk/client/index.js');
const http = /^https?:\/\//.test(command);

const error = (e) => ({ name: e?.constructor?.name, code: e?.code, message: String(e?.message ?? e) });
const out = { ok: true, logs: [], calls: [] };
// The lists the SDK re-fetched on `notifications/tools/list_changed`, newest last.
const relisted = [];
const options = {
  capabilities: { elicitation: {}, sampling: {} },
  listChanged: {
    tools: {
      onChanged: (error, tools) => {
        if (!error && tools) relisted.push(tools.map((t) => t.name).sort());
      },
    },
  },
};
if (v2) {
  const mode = plan.mode ?? 'legacy';
  options.versionNegotiation = { mode: mode === 'legacy' || mode === 'auto' ? mode : { pin: mode } };
}
const client = new Client({ name: 'toolwright-interop', version: '1.0.0' }, options);
const onLog = (n) => { out.logs.push(n.params); };
if (v2) {
  client.setNotificationHandler('notifications/message', onLog);
} else {
  const { LoggingMessageNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
  client.setNotificationHandler(LoggingMessageNotificationSchema, onLog);
}
// The URIs of the `notifications/resources/updated` heard, oldest first.
const updated = [];
const onUpdated = (n) => { updated.push(n.params.uri); };
if (v2) {
  client.setNotificationHandler('notifications/resources/updated', onUpdated);
} else {
  const { ResourceUpdatedNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, onUpdated);
}
// The call in progress: its plan entry and its record.
let current = null;
const answer = (kind, method) => {
  current?.record.asked.push(method);
  const given = current?.call.answers?.[kind];
  if (given) return given;
  if (kind === 'elicitation') return { action: 'decline' };
  throw new Error(`no ${kind} answer in the plan`);
};
if (v2) {
  client.setRequestHandler('elicitation/create', async () => answer('elicitation', 'elicitation/create'));
  client.setRequestHandler('sampling/createMessage', async () => answer('sampling', 'sampling/createMessage'));
} else {
  const { ElicitRequestSchema, CreateMessageRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
  client.setRequestHandler(ElicitRequestSchema, async () => answer('elicitation', 'elicitation/create'));
  client.setRequestHandler(CreateMessageRequestSchema, async () => answer('sampling', 'sampling/createMessage'));
}
let transport;
if (http) {
  const { StreamableHTTPClientTransport } = await import(
    v2 ? '@modelcontextprotocol/client' : '@modelcontextprotocol/sdk/client/streamableHttp.js'
  );
  transport = new StreamableHTTPClientTransport(new URL(command));
} else {
  const { StdioClientTransport } = await import(
    v2 ? '@modelcontextprotocol/client/stdio' : '@modelcontextprotocol/sdk/client/stdio.js'
  );
  transport = new StdioClientTransport({ command, args, env: { ...process.env }, stderr: 'pipe' });
}
let negotiated = null;
let handler;
Object.defineProperty(transport, 'onmessage', {
  configurable: true,
  get: () => handler,
  set(fn) {
    handler = fn && ((message, extra) => {
      if (negotiated === null && message?.result?.protocolVersion) negotiated = message.result.protocolVersion;
      return fn(message, extra);
    });
  },
});
const timeout = 15000;
// The items of a list (`key`) on every page `client[list]` returns.
const everyPage = async (list, key) => {
  const all = [];
  let cursor;
  do {
    const page = await client[list](cursor ? { cursor } : undefined, { timeout });
    all.push(...page[key]);
    cursor = page.nextCursor;
  } while (cursor);
  return all;
};
// A tool call's result; when the plan expects `relisted`, the list the SDK re-fetched after it
// goes to the record.
const callTool = async (call, record, signal) => {
  const params = { name: call.name, arguments: call.arguments ?? {} };
  const request = {
    timeout,
    signal,
    ...(call.progress ? { onprogress: (p) => record.progress.push(p) } : {}),
  };
  // 1.x takes a result schema before the options; 2.x does not.
  const result = await (v2 ? client.callTool(params, request) : client.callTool(params, undefined, request));
  if (call.expect?.relisted) {
    const before = relisted.length;
    for (let waited = 0; relisted.length === before && waited < 5000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    record.relisted = relisted.length > before ? relisted[relisted.length - 1] : null;
  }
  return result;
};
// A tool called as a task: the task's id and statuses go to the record, its result is the
// call's; the stream's error (a failed or cancelled task) is thrown.
const callTask = async (call, record) => {
  const params = { name: call.name, arguments: call.arguments ?? {} };
  const options = { timeout, ...(call.progress ? { onprogress: (p) => record.progress.push(p) } : {}) };
  record.statuses = [];
  for await (const message of client.experimental.tasks.callToolStream(params, undefined, options)) {
    if (message.type === 'taskCreated') {
      record.taskId = message.task.taskId;
    } else if (message.type === 'taskStatus') {
      const { status, statusMessage } = message.task;
      record.statuses.push({ status, statusMessage });
      if (call.cancel && statusMessage && !record.cancelled) {
        record.cancelled = await client.experimental.tasks.cancelTask(record.taskId, { timeout });
      }
    } else if (message.type === 'result') {
      return message.result;
    } else if (message.type === 'error') {
      throw message.error;
    }
  }
  throw new Error('the task stream ended without a result');
};
// Each item step's method: what it resolves to is the step's result.
const items = {
  'prompts/list': async () => ({ prompts: await everyPage('listPrompts', 'prompts') }),
  'prompts/get': (s) => client.getPrompt({ name: s.name, arguments: s.arguments ?? {} }, { timeout }),
  'resources/list': async () => ({ resources: await everyPage('listResources', 'resources') }),
  'resources/templates/list': async () => ({
    resourceTemplates: await everyPage('listResourceTemplates', 'resourceTemplates'),
  }),
  'resources/read': (s) => client.readResource({ uri: s.uri }, { timeout }),
  'completion/complete': (s) => client.complete({ ref: s.ref, argument: s.argument }, { timeout }),
  'resources/subscribe': async (s) => {
    const modern = out.protocolVersion === '2026-07-28';
    const listening = modern
      ? await client.listen({ resourceSubscriptions: [s.uri] }, { timeout })
      : await client.subscribeResource({ uri: s.uri }, { timeout });
    const before = updated.length;
    await callTool(s.then, { progress: [] });
    for (let waited = 0; !updated.slice(before).includes(s.uri) && waited < 5000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (modern) await listening.close();
    return { updated: updated.slice(before) };
  },
};
try {
  await client.connect(transport, { timeout });
  out.protocolVersion = client.getNegotiatedProtocolVersion?.() ?? negotiated;
  if (plan.logLevel && out.protocolVersion !== '2026-07-28') {
    await client.setLoggingLevel(plan.logLevel, { timeout });
  }
  out.tools = await everyPage('listTools', 'tools');
  for (const call of plan.calls) {
    const record = { name: call.name, progress: [], asked: [] };
    current = { call, record };
    const abort = new AbortController();
    const timer = call.cancelAfterMs != null ? setTimeout(() => abort.abort('cancelled'), call.cancelAfterMs) : null;
    try {
      record.result = await (call.method ? items[call.method](call)
        : call.task ? callTask(call, record) : callTool(call, record, abort.signal));
    } catch (e) {
      record.error = error(e);
    } finally {
      if (timer) clearTimeout(timer);
    }
    out.calls.push(record);
  }
} catch (e) {
  out.ok = false;
  out.error = error(e);
} finally {
  try { await client.close(); } catch {}
}
console.log(JSON.stringify(out));
