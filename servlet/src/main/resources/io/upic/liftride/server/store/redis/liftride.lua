#!lua name=liftride
--[[
LiftRide's rides in Redis: one function applies a batch of rides of ONE resort and season
atomically. Loaded with FUNCTION LOAD (functions, unlike EVALSHA scripts, are kept in the AOF and
survive a restart). Every key carries the hash tag {lr:RESORT:SEASON}, so a batch touches one
Redis Cluster slot:
  {lr:R:S}:rides      string  rides stored for the resort and season (ridesStored sums these)
  {lr:R:S}:tot        hash    skierID -> vertical over the season
  {lr:R:S}:d:DAY      hash    skierID -> vertical that day; HLEN = unique skiers that day (exact)
  {lr:R:S}:k:N        hash    DAY:SKIER:Idempotency-Key -> fingerprint of the ride it applied, for the keys
                              first seen in period N (N = Redis time / key TTL); a key is looked up
                              in periods N and N-1, and a period's hash expires 2 TTLs after it
                              began, so a key is remembered at least one TTL and at most two. One
                              hash per period instead of a key per key: a field costs far less
                              memory than a key with its own expiry.

KEYS[1] = {lr:R:S}:rides, KEYS[2] = {lr:R:S}:tot
KEYS[3..7], on one Redis server only (on a cluster they would be in other slots): lr:resorts,
          lr:seasons:R, lr:ridesStored, lr:days (resort days created) and lr:skierDays (skier days
          created). The batch then registers its resort (HSETNX with ARGV[3]) and season, adds its
          stored rides to the running total and enforces the limits ARGV[4..7], in the same atomic
          step, so the registry and the total are right even after Redis lost its data under a
          running server, and two servers never take the store past a limit.
ARGV[1] = deadline in the Redis server's clock, microseconds since the epoch (0: none). A batch
          that arrives later than this (its sender already answered 503) is refused whole: a
          command that timed out is never applied behind the client's back.
ARGV[2] = seconds an idempotency key is kept at least (the period)
ARGV[3] = the resort's name, should KEYS[3] not have it yet (ignored without KEYS[3])
ARGV[4..7] = the most resorts, seasons per resort, resort days and skier days (ignored without KEYS[3])
KEYS[8..11], with KEYS[3..7]: lr:clients:resorts, lr:clients:seasons:R, lr:clients:days and
          lr:clients:skierDays, hashes client -> entries of that kind the client created.
ARGV[8..11] = how many of each of those one client may create (ignored without KEYS[8])
ARGV[12] = clients counted one by one at most; past it, new clients share the field '(other clients)'
then 6 arguments per ride: day, skierID, vertical, idempotency key ('' = none), fingerprint, client
('' = none: counted against the limits only). A key
is remembered as DAY:SKIER:KEY, scoped to its ride's skier day like the in-memory store's: no other
skier's rides can touch it, and nothing but its period's expiry forgets it.
Returns one integer per ride: 1 stored, 0 replayed (the key was applied with this very ride),
-1 the key was applied with another ride, -2 .. -5 a new resort, season, day or skier day past its
limit (ARGV[4..7]), -6 .. -9 past its client's budget (ARGV[8..11]); nothing is stored and no key remembered for a ride that is not 1.
Nothing is written before the deadline check, and nothing after it can fail on keys of ours, so a
batch is applied whole or not at all.
]]
local RIDES = 13
local OTHERS = '(other clients)'

-- The field that counts client's entries in hash: its own, or the shared one once most are counted.
local function client_field(hash, client, most)
  if redis.call('HEXISTS', hash, client) == 1 or redis.call('HLEN', hash) < tonumber(most) then
    return client
  end
  return OTHERS
end

-- Whether the client has created its budget of the hash's entries.
local function over_budget(hash, client, budget, most)
  return tonumber(redis.call('HGET', hash, client_field(hash, client, most)) or '0') >= tonumber(budget)
end

local function count_entry(hash, client, most)
  redis.call('HINCRBY', hash, client_field(hash, client, most), 1)
end

-- The key's fingerprint in the current or previous period's hash, or false.
local function seen_key(previous, checkPrevious, current, field)
  local seen = checkPrevious and redis.call('HGET', previous, field) or false
  return seen or redis.call('HGET', current, field)
end

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
  local limited = #keys >= 7
  local resort, season = string.match(tag, '^{lr:(%d+):(%d+)}$')
  local newResort, newSeason = nil, nil
  local days = limited and tonumber(redis.call('GET', keys[6]) or '0')
  local skierDays = limited and tonumber(redis.call('GET', keys[7]) or '0')
  local daysAdded, skierDaysAdded = 0, 0
  local dayKey, dayName, dayNew = nil, nil, false
  local out = {}
  local stored = 0
  for i = RIDES, #args, 6 do
    local result = 1
    local key = args[i + 3]
    local client = args[i + 5]
    local budgeted = client ~= '' and #keys >= 11
    local field = args[i] .. ':' .. args[i + 1] .. ':' .. key
    if key ~= '' then
      if checkPrevious == nil then
        checkPrevious = redis.call('EXISTS', previous) == 1
      end
      local seen = seen_key(previous, checkPrevious, current, field)
      if seen then
        if seen == args[i + 4] then result = 0 else result = -1 end
      end
    end
    if args[i] ~= dayName then
      dayName = args[i]
      dayKey = tag .. ':d:' .. dayName
      dayNew = limited and redis.call('EXISTS', dayKey) == 0
    end
    if result == 1 and limited then
      if newResort == nil then
        newResort = redis.call('HEXISTS', keys[3], resort) == 0
        newSeason = redis.call('SISMEMBER', keys[4], season) == 0
      end
      local newSkierDay = dayNew or ((budgeted or skierDays >= tonumber(args[7]))
        and redis.call('HEXISTS', dayKey, args[i + 1]) == 0)
      if newResort and redis.call('HLEN', keys[3]) >= tonumber(args[4]) then result = -2
      elseif newSeason and redis.call('SCARD', keys[4]) >= tonumber(args[5]) then result = -3
      elseif dayNew and days >= tonumber(args[6]) then result = -4
      elseif newSkierDay and skierDays >= tonumber(args[7]) then result = -5
      elseif budgeted and newResort and over_budget(keys[8], client, args[8], args[12]) then result = -6
      elseif budgeted and newSeason and over_budget(keys[9], client, args[9], args[12]) then result = -7
      elseif budgeted and dayNew and over_budget(keys[10], client, args[10], args[12]) then result = -8
      elseif budgeted and newSkierDay and over_budget(keys[11], client, args[11], args[12]) then result = -9
      end
    end
    if result == 1 then
      if newResort then
        redis.call('HSETNX', keys[3], resort, args[3])
        if budgeted then count_entry(keys[8], client, args[12]) end
        newResort = false
      end
      if newSeason then
        redis.call('SADD', keys[4], season)
        if budgeted then count_entry(keys[9], client, args[12]) end
        newSeason = false
      end
      if key ~= '' then
        redis.call('HSET', current, field, args[i + 4])
        keysAdded = true
      end
      -- a skier's first ride of the day makes the field equal to its vertical (every vertical is > 0)
      if redis.call('HINCRBY', dayKey, args[i + 1], args[i + 2]) == tonumber(args[i + 2]) and limited then
        skierDays = skierDays + 1
        skierDaysAdded = skierDaysAdded + 1
        if budgeted then count_entry(keys[11], client, args[12]) end
      end
      if dayNew then
        days = days + 1
        daysAdded = daysAdded + 1
        if budgeted then count_entry(keys[10], client, args[12]) end
        dayNew = false
      end
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
    if limited then
      redis.call('INCRBY', keys[5], stored)
      if daysAdded > 0 then redis.call('INCRBY', keys[6], daysAdded) end
      if skierDaysAdded > 0 then redis.call('INCRBY', keys[7], skierDaysAdded) end
    end
  end
  return out
end

--[[
Registers what a ride or POST /resorts/{id}/seasons adds outside a batch, each on its one key, so
also on a cluster. add_resort: KEYS[1] = lr:resorts, ARGV = id, name, most resorts. add_season:
KEYS[1] = lr:seasons:R, ARGV = season, most seasons per resort; on one server also KEYS[2] =
lr:clients:seasons:R and ARGV[3..5] = client, its budget, clients counted at most. Each returns 1
when the entry is there now (added or already), or -2 (add_resort), -3 or -7 (add_season) when it
would be one past its limit or its client's budget, the codes apply_rides uses.
]]
local function add_resort(keys, args)
  if redis.call('HEXISTS', keys[1], args[1]) == 0 then
    if redis.call('HLEN', keys[1]) >= tonumber(args[3]) then
      return -2
    end
    redis.call('HSET', keys[1], args[1], args[2])
  end
  return 1
end

local function add_season(keys, args)
  if redis.call('SISMEMBER', keys[1], args[1]) == 0 then
    if redis.call('SCARD', keys[1]) >= tonumber(args[2]) then
      return -3
    end
    if keys[2] and over_budget(keys[2], args[3], args[4], args[5]) then
      return -7
    end
    redis.call('SADD', keys[1], args[1])
    if keys[2] then count_entry(keys[2], args[3], args[5]) end
  end
  return 1
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
redis.register_function('liftride_add_resort', add_resort)
redis.register_function('liftride_add_season', add_season)
