-- wrk script: POST valid lift rides with random skier, lift, time and wait time.
--   java -jar servlet/target/liftride-server.jar --port 8080 --host 127.0.0.1 &
--   wrk -t2 -c64 -d10s -s servlet/bench/post.lua http://127.0.0.1:8080/liftride
-- The URL's path is the context path; the script appends /skiers/... itself.
-- The container's floor, same script: start the bench module's bare server
--   java -cp bench/target/test-classes:$(cat bench/target/classpath.txt) io.upic.liftride.bench.BareServer --port 8080 --host 127.0.0.1
-- and target .../liftride/bench/bare (a servlet answering 201 without reading the request; never in the WAR).
-- Env overrides: RESORT (default 1), SEASON (2022), DAY (1), SKIERS (20000), LIFTS (40);
-- KEYS=1 sends a unique Idempotency-Key with every ride, as the load client does.
-- Every request expects 201; wrk reports anything else as "Non-2xx or 3xx responses".

local resort = os.getenv("RESORT") or "1"
local season = os.getenv("SEASON") or "2022"
local day = os.getenv("DAY") or "1"
local skiers = tonumber(os.getenv("SKIERS") or "20000")
local lifts = tonumber(os.getenv("LIFTS") or "40")
local headers = { ["Content-Type"] = "application/json" }
local keys = os.getenv("KEYS") == "1"
local run = tostring(os.time())
local sent = 0
local base

local thread_id = 0
function setup(thread)
  thread:set("id", thread_id)
  thread_id = thread_id + 1
end

function init(args)
  base = wrk.path
  if base == "/" then base = "" end
  math.randomseed(os.time() + (id or 0) * 7919)
end

function request()
  local path = string.format("%s/skiers/%s/seasons/%s/days/%s/skiers/%d",
    base, resort, season, day, math.random(1, skiers))
  local body = string.format('{"liftID":%d,"time":%d,"waitTime":%d}',
    math.random(1, lifts), math.random(1, 420), math.random(0, 10))
  if keys then
    sent = sent + 1
    headers["Idempotency-Key"] = run .. "-" .. (id or 0) .. "-" .. sent
  end
  return wrk.format("POST", path, headers, body)
end
