-- wrk script for bench:ingest: round-robin over device tokens, 10 realistic buckets per upload,
-- counts that change on every request (so every upload rewrites or adds its buckets).
-- PATTERN=recent: every upload of a device carries the same 10 consecutive half-hours (today's
-- uploads). PATTERN=backfill: each upload carries 10 consecutive half-hours of one day, and
-- successive uploads go to different days across the last 310, every one of them new rows (a
-- first sync's history). PATTERN=rewrite: the same spread over 310 days, but the keys come back
-- every 6,200 uploads, so most uploads of a run replace rows stored across the year.
local tokens = {}
for line in io.lines(os.getenv("TOKENS_FILE")) do
  if #line > 0 then tokens[#tokens + 1] = line end
end
local base = tonumber(os.getenv("BASE_HOUR"))
local pattern = os.getenv("PATTERN")
local hours = {}
for k = 0, 9 do hours[k] = os.date("!%Y-%m-%dT%H:%M:%SZ", base + k * 1800) end
local models = { "gpt-5-codex", "claude-sonnet-4-5", "gpt-5", "claude-opus-4-1" }
local sources = { "codex", "claude", "codex", "claude" }
-- The measured run starts where the warm-up left off (COUNTER_START), so no upload repeats one.
local counter = tonumber(os.getenv("COUNTER_START") or "0")

-- Backfill: a device's n-th upload goes to day (7n mod 310) before the base hour and to the
-- (n div 310)-th block of ten half-hours of it, so a device uploads 1,240 distinct days and blocks
-- before any of its keys comes back. Rewrite: day and block follow the upload counter across all
-- devices, so a (device, day, block) comes back every lcm(200, 310, 4) = 6,200 uploads.
local function hourOf(k)
  if pattern == "recent" then return hours[k] end
  local n = pattern == "backfill" and math.floor(counter / #tokens) or counter
  local day = (n * 7) % 310
  local block = pattern == "backfill" and math.floor(n / 310) % 4 or counter % 4
  return os.date("!%Y-%m-%dT%H:%M:%SZ", base - day * 86400 + (block * 10 + k) * 1800)
end

request = function()
  counter = counter + 1
  local i = (counter % #tokens) + 1
  local parts = {}
  for k = 0, 9 do
    local m = (k % 4) + 1
    local input = 1000 + counter * 3 + k
    local cached = 400 + counter + k
    local output = 200 + counter * 2 + k
    local reasoning = 50 + k
    parts[#parts + 1] = string.format(
      '{"hour_start":"%s","source":"%s","model":"%s","input_tokens":%d,"cached_input_tokens":%d,"output_tokens":%d,"reasoning_output_tokens":%d,"total_tokens":%d}',
      hourOf(k), sources[m], models[m], input, cached, output, reasoning, input + output)
  end
  local body = '{"hourly":[' .. table.concat(parts, ",") .. ']}'
  return wrk.format("POST", "/functions/svc-ingest",
    { ["Authorization"] = "Bearer " .. tokens[i], ["Content-Type"] = "application/json" }, body)
end
