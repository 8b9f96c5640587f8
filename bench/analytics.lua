-- wrk script for bench:analytics: one GET with the bearer token, path from the environment.
local token = os.getenv("TOKEN")
local path = os.getenv("REQ_PATH")
local headers = { ["Authorization"] = "Bearer " .. token }
request = function()
  return wrk.format("GET", path, headers)
end
