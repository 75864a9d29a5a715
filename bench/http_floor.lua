-- wrk's script for http_floor.py: the 2026-07-28 `tools/call` of `add` that the HTTP driver
-- sends (a request that stands alone: `_meta` naming the revision, `Mcp-Method` and `Mcp-Name`),
-- and a check of every answer: status 200 and the result document of 40 + 2. The counts come
-- out of `done` as one JSON line on stdout.

local meta = '{"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
  .. '"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"0"},'
  .. '"io.modelcontextprotocol/clientCapabilities":{}}'

wrk.method = "POST"
wrk.body = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add",'
  .. '"arguments":{"a":40,"b":2},"_meta":' .. meta .. '}}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = "2026-07-28"
wrk.headers["Mcp-Method"] = "tools/call"
wrk.headers["Mcp-Name"] = "add"

-- What every server writes first; toolwright goes on with its `_meta`, the floor ends here.
local expected = '{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"42"}],'
  .. '"structuredContent":42,"resultType":"complete"'
local length = #expected

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  checked = 0
  failed = 0
  sample = ""
end

function response(status, headers, body)
  checked = checked + 1
  if status ~= 200 or string.sub(body, 1, length) ~= expected then
    failed = failed + 1
    if sample == "" then
      sample = status .. " " .. string.sub(body, 1, 200)
    end
  end
end

function done(summary, latency, requests)
  local checked_all, failed_all, sample_all = 0, 0, ""
  for _, thread in ipairs(threads) do
    checked_all = checked_all + thread:get("checked")
    failed_all = failed_all + thread:get("failed")
    local s = thread:get("sample")
    if sample_all == "" and s ~= "" then
      sample_all = s
    end
  end
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"duration_us":%d,"checked":%d,"failed":%d,"socket_errors":%d,'
      .. '"p50_us":%d,"p99_us":%d,"max_us":%d,"sample":%q}\n',
    summary.requests, summary.duration, checked_all, failed_all,
    e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(99), latency.max, sample_all))
end
