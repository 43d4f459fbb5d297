-- wrk script for the server load test (ServerLoadIT, issue 6): post.lua's random valid rides for
-- POST_SECONDS, then GET /resorts (a 200 that stores nothing) until wrk's own -d ends. Counts every
-- response by status in each thread and prints one "LOADTEST key=value ..." line from done().
--   POST_SECONDS=60 wrk -t2 -c256 -d70s --timeout 10s -s servlet/bench/load.lua http://127.0.0.1:8080/liftride
-- (what ServerLoadIT runs, twice: mvn -B -pl servlet verify -Pload)
--
-- Why the GET tail: wrk stops at -d with up to one request in flight per connection; it never counts
-- those, yet the server may already have stored them, so "rides stored == 201s seen" would only hold
-- within +-connections. Here every connection's last POST is answered before that connection sends
-- its first GET (wrk keeps one request in flight per connection), so once -d exceeds POST_SECONDS by
-- more than the slowest response, every POST sent has been answered and only GETs are abandoned:
-- posts == created and the server's ridesStored == created, exactly. (posts counts request() calls
-- that returned a POST, except wrk's one start-up probe call, see verify_call_pending; wrk generates
-- a new request after a reconnect, so a request lost to a socket error would also show here, as
-- posts > created, and in wrk's socket error counts.)
--
-- Not for measuring throughput against post.lua: defining response() makes wrk parse headers and call
-- Lua for every response, which costs wrk CPU the plain benchmark does not spend.

local dir = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(dir .. "post.lua") -- defines setup, init and request: the same rides the benchmark posts

local post_setup, post_init, post_request = setup, init, request
local post_seconds = tonumber(os.getenv("POST_SECONDS") or "60")

local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long tv_sec; long tv_nsec; } loadtest_timespec;
  int clock_gettime(int clock_id, loadtest_timespec *tp);
]]
local timespec = ffi.new("loadtest_timespec")
local function now() -- CLOCK_MONOTONIC, seconds
  ffi.C.clock_gettime(1, timespec)
  return tonumber(timespec.tv_sec) + tonumber(timespec.tv_nsec) / 1e9
end

local threads = {}
function setup(thread)
  post_setup(thread)
  table.insert(threads, thread)
end

-- per-thread counters (globals of the thread's Lua state, read by done() through thread:get)
posts, created, gets, ok, other = 0, 0, 0, 0, 0
local deadline, get_request
-- wrk 4.x calls request() once on the first thread's Lua state before its event loop starts, only to
-- see how many requests one call returns (script_verify_request), and never sends that request.
local verify_call_pending


function init(args)
  post_init(args)
  local base = wrk.path
  if base == "/" then base = "" end
  get_request = wrk.format("GET", base .. "/resorts")
  deadline = now() + post_seconds
  verify_call_pending = (id == 0) -- id: set by post.lua's setup(), 0 for the first thread
end

function request()
  if verify_call_pending then
    verify_call_pending = false
    return post_request() -- inspected by wrk, never sent: not counted
  end
  if now() < deadline then
    posts = posts + 1
    return post_request()
  end
  gets = gets + 1
  return get_request
end

function response(status, headers, body)
  if status == 201 then
    created = created + 1
  elseif status == 200 then
    ok = ok + 1
  else
    other = other + 1
  end
end

function done(summary, latency, requests)
  local total = { posts = 0, created = 0, gets = 0, ok = 0, other = 0 }
  for _, thread in ipairs(threads) do
    for key in pairs(total) do
      total[key] = total[key] + thread:get(key)
    end
  end
  local e = summary.errors
  io.write(string.format("LOADTEST posts=%d created=%d gets=%d ok=%d other=%d requests=%d duration_us=%d"
      .. " post_seconds=%s connect=%d read=%d write=%d timeout=%d status=%d p50_us=%d p99_us=%d max_us=%d\n",
    total.posts, total.created, total.gets, total.ok, total.other, summary.requests, summary.duration,
    post_seconds, e.connect, e.read, e.write, e.timeout, e.status,
    latency:percentile(50), latency:percentile(99), latency.max))
end
