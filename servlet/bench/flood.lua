-- wrk script: a flood of valid lift rides, each to a (resort, season, day) never used before (issue 17).
--   wrk -t2 -c64 -d600s -s servlet/bench/flood.lua http://127.0.0.1:8080/liftride
-- Env: TOTAL (default 1000000) requests in all, split evenly over wrk's threads; each thread stops
-- once it has its answers (wrk itself sleeps out -d; bench/flood.py stops it with SIGINT).
-- Request m = n * threads + t (the n-th of thread t) goes to resort 1 + m % 2000, season
-- 1000 + (m / 2000) % 9000, day 1 + m % 366, skier 1 + m % 100000: every request a (resort, season,
-- day) never used before (for m < 18,000,000), over twice as many resorts as the default limit, so the
-- flood reaches every limit: resorts, seasons per resort, resort days, skier days. At the end it
-- prints one line per status, "status 201 123", for bench/flood.py to read.
-- SHAPE=skiers instead sends request m to a seeded resort 1 + m % 10, season 2022, skier
-- 1 + (m / 10) % 100000, day 1 + (m / 1000000) % 366: every request a new skier day (and, for the first
-- million, a new skier-season total too: the most memory a ride can take) at resorts and seasons that
-- exist, so the flood reaches the skier-day limit.

local total = tonumber(os.getenv("TOTAL") or "1000000")
local skiers_shape = os.getenv("SHAPE") == "skiers"
local headers = { ["Content-Type"] = "application/json" }
local threads = {}
local base
local quota
local n_threads
local sent = 0
local answered = 0
counts = {}

local thread_id = 0
function setup(thread)
  thread:set("id", thread_id)
  table.insert(threads, thread)
  thread_id = thread_id + 1
end

function init(args)
  base = wrk.path
  if base == "/" then base = "" end
  n_threads = tonumber(os.getenv("WRK_THREADS") or "2")
  quota = math.floor(total / n_threads)
end

function request()
  local m = sent * n_threads + id
  sent = sent + 1
  local path
  if skiers_shape then
    path = string.format("%s/skiers/%d/seasons/2022/days/%d/skiers/%d",
      base, 1 + m % 10, 1 + math.floor(m / 1000000) % 366, 1 + math.floor(m / 10) % 100000)
  else
    path = string.format("%s/skiers/%d/seasons/%d/days/%d/skiers/%d",
      base, 1 + m % 2000, 1000 + math.floor(m / 2000) % 9000, 1 + m % 366, 1 + m % 100000)
  end
  local body = string.format('{"liftID":%d,"time":%d,"waitTime":%d}', 1 + m % 60, 1 + m % 420, m % 11)
  return wrk.format("POST", path, headers, body)
end

function response(status, headers, body)
  local key = tostring(status)
  counts[key] = (counts[key] or 0) + 1
  answered = answered + 1
  if answered >= quota then
    wrk.thread:stop()
  end
end

function done(summary, latency, requests)
  local all = {}
  for _, thread in ipairs(threads) do
    local c = thread:get("counts")
    for status, n in pairs(c) do
      all[status] = (all[status] or 0) + n
    end
  end
  for status, n in pairs(all) do
    io.write(string.format("status %s %d\n", status, n))
  end
end
