-- wrk script for bench:leaderboard: signed-in page reads (so `me` is computed) over the first
-- 500 pages of the week, month and total boards and the four metrics. TOKEN empty: anonymous.
local token = os.getenv("TOKEN")
local periods = { "week", "month", "total" }
local metrics = { "all", "gpt", "claude", "other" }
local counter = 0

request = function()
  counter = counter + 1
  local period = periods[(counter % 3) + 1]
  local metric = metrics[(math.floor(counter / 3) % 4) + 1]
  local offset = (counter * 7919 % 500) * 20
  local headers = {}
  if token ~= nil and #token > 0 then headers["Authorization"] = "Bearer " .. token end
  return wrk.format("GET", string.format("/functions/svc-leaderboard?period=%s&metric=%s&limit=20&offset=%d", period, metric, offset), headers)
end
