#!lua name=liftride
--[[
LiftRide's rides in Redis: one function applies a batch of rides of ONE resort and season
atomically. Loaded with FUNCTION LOAD (functions, unlike EVALSHA scripts, are kept in the AOF and
survive a restart). Every key carries the hash tag {lr:RESORT:SEASON}, so a batch touches one
Redis Cluster slot:
  {lr:R:S}:rides      string  rides stored for the resort and season (ridesStored sums these)
  {lr:R:S}:tot        hash    skierID -> vertical over the season
  {lr:R:S}:d:DAY      hash    skierID -> vertical that day; HLEN = unique skiers that day (exact)
  {lr:R:S}:k:N        hash    Idempotency-Key -> fingerprint of the ride it applied, for the keys
                              first seen in period N (N = Redis time / key TTL); a key is looked up
                              in periods N and N-1, and a period's hash expires 2 TTLs after it
                              began, so a key is remembered at least one TTL and at most two. One
                              hash per period instead of a key per key: a field costs far less
                              memory than a key with its own expiry.

KEYS[1] = {lr:R:S}:rides, KEYS[2] = {lr:R:S}:tot
KEYS[3..5], on one Redis server only (on a cluster they would be in other slots): lr:resorts,
          lr:seasons:R and lr:ridesStored. The batch then registers its resort (HSETNX with ARGV[3])
          and season and adds its stored rides to the running total, in the same atomic step, so
          the registry and the total are right even after Redis lost its data under a running server.
ARGV[1] = deadline in the Redis server's clock, microseconds since the epoch (0: none). A batch
          that arrives later than this (its sender already answered 503) is refused whole: a
          command that timed out is never applied behind the client's back.
ARGV[2] = seconds an idempotency key is kept at least (the period)
ARGV[3] = the resort's name, should KEYS[3] not have it yet (ignored without KEYS[3])
then 5 arguments per ride: day, skierID, vertical, idempotency key ('' = none), fingerprint
Returns one integer per ride: 1 stored, 0 replayed (the key was applied with this very ride),
-1 the key was applied with another ride (nothing stored).
Nothing is written before the deadline check, and nothing after it can fail on keys of ours, so a
batch is applied whole or not at all.
]]
local function apply_rides(keys, args)
  local t = redis.call('TIME')
  local deadline = tonumber(args[1])
  if deadline > 0 and tonumber(t[1]) * 1000000 + tonumber(t[2]) > deadline then
    return redis.error_reply('DEADLINE the batch reached Redis after its deadline; nothing was applied')
  end
  local tag = string.sub(keys[1], 1, -7) -- keys[1] without ':rides'
  local ttl = tonumber(args[2])
  local period = math.floor(tonumber(t[1]) / ttl)
  local current = tag .. ':k:' .. period
  local previous = tag .. ':k:' .. (period - 1)
  local checkPrevious = nil
  local keysAdded = false
  local dayKey, dayName = nil, nil
  local out = {}
  local stored = 0
  for i = 4, #args, 5 do
    local result = 1
    local key = args[i + 3]
    if key ~= '' then
      if checkPrevious == nil then
        checkPrevious = redis.call('EXISTS', previous) == 1
      end
      local seen = checkPrevious and redis.call('HGET', previous, key) or false
      if not seen then
        if redis.call('HSETNX', current, key, args[i + 4]) == 1 then
          keysAdded = true
        else
          seen = redis.call('HGET', current, key)
        end
      end
      if seen then
        if seen == args[i + 4] then result = 0 else result = -1 end
      end
    end
    if result == 1 then
      if args[i] ~= dayName then
        dayName = args[i]
        dayKey = tag .. ':d:' .. dayName
      end
      redis.call('HINCRBY', dayKey, args[i + 1], args[i + 2])
      redis.call('HINCRBY', keys[2], args[i + 1], args[i + 2])
      stored = stored + 1
    end
    out[#out + 1] = result
  end
  if keysAdded then
    redis.call('EXPIRE', current, 2 * ttl, 'NX') -- once, when the period's hash is new
  end
  if stored > 0 then
    redis.call('INCRBY', keys[1], stored)
    if #keys >= 5 then
      local resort, season = string.match(tag, '^{lr:(%d+):(%d+)}$')
      redis.call('HSETNX', keys[3], resort, args[3])
      redis.call('SADD', keys[4], season)
      redis.call('INCRBY', keys[5], stored)
    end
  end
  return out
end

--[[
On one Redis server, fills lr:ridesStored where a Redis written before that counter existed lacks it:
the sum of every registered resort and season's {lr:R:S}:rides, in one atomic call, so no batch runs
between the sum and the write. KEYS[1] = lr:ridesStored, KEYS[2] = lr:resorts, ARGV[1] = 'lr:seasons:'.
It reads keys it cannot declare (the registry names them), so it is for one server only, never a
cluster (which keeps no running total). Returns -1 if the counter exists, else the total it set.
]]
local function backfill_rides_stored(keys, args)
  if redis.call('EXISTS', keys[1]) == 1 then
    return -1
  end
  local total = 0
  for _, resort in ipairs(redis.call('HKEYS', keys[2])) do
    for _, season in ipairs(redis.call('SMEMBERS', args[1] .. resort)) do
      total = total + tonumber(redis.call('GET', '{lr:' .. resort .. ':' .. season .. '}:rides') or '0')
    end
  end
  if total > 0 then
    redis.call('INCRBY', keys[1], total)
  end
  return total
end

redis.register_function('liftride_apply_rides', apply_rides)
redis.register_function('liftride_backfill_rides_stored', backfill_rides_stored)
