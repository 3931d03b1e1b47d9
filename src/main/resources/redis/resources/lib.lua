-- Leases on named resources (docs/resources.md). Every key carries the one hash tag {<prefix>:res}, so a
-- grant of several resources is one script on one slot. Keys, in this order, in every script:
local CAP, COUNT, GRANT, DEADLINE, WAIT, WAITER, PAYLOAD, WOKEN, QUEUE, SEEN =
    KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10]
-- CAP hash name -> declared capacity; COUNT hash name -> leases held; GRANT hash runId -> "grantId\nname..."
-- DEADLINE zset runId -> deadline ms; WAITER hash runId -> "firstWaitMs\nname..."; PAYLOAD hash runId ->
-- the dispatch to send when woken; WOKEN hash runId -> when last woken; QUEUE zset runId -> firstWaitMs;
-- WAIT zset (all scores 0) of "name\0<firstWaitMs, 15 digits>\0runId": one FIFO per name, by lex range.
-- SEEN hash runId -> when a dispatch of the waiter last asked (ms): the fence of a stale waiter's removal.

local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

local function split(s)
  local out = {}
  for part in string.gmatch(s, '[^\n]+') do out[#out + 1] = part end
  return out
end

local function capacity(name)
  local c = redis.call('HGET', CAP, name)
  if c then return tonumber(c) end
  return 1
end

local function held(name)
  return tonumber(redis.call('HGET', COUNT, name) or '0')
end

local function member(name, first, run)
  return name .. '\0' .. string.format('%015d', first) .. '\0' .. run
end

-- how many wait ahead of this waiter on name; a newcomer (first == nil) counts the whole queue
local function ahead(name, first, run)
  if first == nil then
    return redis.call('ZLEXCOUNT', WAIT, '(' .. name .. '\0', '(' .. name .. '\1')
  end
  return redis.call('ZLEXCOUNT', WAIT, '(' .. name .. '\0', '(' .. member(name, first, run))
end

-- the first name on which this instance may not be granted now, or nil when it may be on all
local function blocked(names, first, run)
  for _, name in ipairs(names) do
    if ahead(name, first, run) >= capacity(name) - held(name) then return name end
  end
  return nil
end

-- frees the grant of run, whatever its grant id; answers the names it held
local function free_grant(run)
  local g = redis.call('HGET', GRANT, run)
  if not g then return {} end
  local parts = split(g)
  for i = 2, #parts do
    local left = redis.call('HINCRBY', COUNT, parts[i], -1)
    if left <= 0 then redis.call('HDEL', COUNT, parts[i]) end
  end
  redis.call('HDEL', GRANT, run)
  redis.call('ZREM', DEADLINE, run)
  local names = {}
  for i = 2, #parts do names[#names + 1] = parts[i] end
  return names
end

-- the waiter of run leaves every line it waits in; -> the names of those lines, whose next waiters it may
-- have held back (empty when it waited in none)
local function leave(run)
  local w = redis.call('HGET', WAITER, run)
  if not w then return {} end
  local parts = split(w)
  local first = tonumber(parts[1])
  local names = {}
  for i = 2, #parts do
    redis.call('ZREM', WAIT, member(parts[i], first, run))
    names[#names + 1] = parts[i]
  end
  redis.call('HDEL', WAITER, run)
  redis.call('HDEL', PAYLOAD, run)
  redis.call('HDEL', WOKEN, run)
  redis.call('HDEL', SEEN, run)
  redis.call('ZREM', QUEUE, run)
  return names
end

-- the dispatches of the oldest waiters (at most 256 looked at) that may be granted now and were not woken
-- within wake_ms; each is marked woken now
-- seen: the waiters this pass looked at already, so that none is woken twice in one pass
local function wake_one(now, wake_ms, run, out, seen)
    if seen[run] then return end
    seen[run] = true
    local w = redis.call('HGET', WAITER, run)
    if w then
      local parts = split(w)
      local first = tonumber(parts[1])
      local names = {}
      for i = 2, #parts do names[#names + 1] = parts[i] end
      local woken = tonumber(redis.call('HGET', WOKEN, run) or '-1')
      if (woken < 0 or now - woken >= wake_ms) and blocked(names, first, run) == nil then
        redis.call('HSET', WOKEN, run, now)
        out[#out + 1] = redis.call('HGET', PAYLOAD, run) or ''
      end
    end
end

-- the waiters that may be granted now: the first few of each name in names (a release's or reap's), then
-- the oldest 256 of all
local function wake(now, wake_ms, names, seen)
  local out = {}
  seen = seen or {}
  local looked = {}
  for _, name in ipairs(names or {}) do
    -- a reap of many grants of one resource names it once per grant: its line is read once
    local free = 0
    if not looked[name] then
      looked[name] = true
      free = capacity(name) - held(name)
    end
    if free > 0 then
      -- as many heads as leases came free (a raised capacity, a worker's grants expired together), bounded so
      -- that one script stays short: a cap of 64 left the rest of a line idle beside free leases
      local heads = redis.call('ZRANGEBYLEX', WAIT, '(' .. name .. '\0', '(' .. name .. '\1', 'LIMIT', 0, math.min(free, 1024))
      for _, m in ipairs(heads) do
        local run = string.sub(m, string.len(name) + 18)
        wake_one(now, wake_ms, run, out, seen)
      end
    end
  end
  for _, run in ipairs(redis.call('ZRANGE', QUEUE, 0, 255)) do wake_one(now, wake_ms, run, out, seen) end
  return out
end
