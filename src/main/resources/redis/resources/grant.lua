-- ARGV: runId, grantId, ttlMs, wakeMs, payload, name...
-- -> {'granted', waitedMs, dispatch to wake...} | {'waiting', blockingName, firstWaitMs, dispatch to wake...}
local now = now_ms()
local run, gid, ttl, wake_ms, payload = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
local names = {}
for i = 6, #ARGV do names[#names + 1] = ARGV[i] end
local g = redis.call('HGET', GRANT, run)
local holding = false
-- the names whose waiters this ask may let in: those of an expired grant of this instance that it frees before the
-- reap does, and the lines a waiter leaves when it asks for other names
local freed = {}
local again = false
if g then
  local live = tonumber(redis.call('ZSCORE', DEADLINE, run) or '0') > now
  if live and split(g)[1] == gid then
    -- the same grant asked for again (a retried call, or a dispatch whose claim's outcome was unknown): it lasts
    -- one lease from now, as a renewal would make it
    redis.call('ZADD', DEADLINE, now + ttl, run)
    again = true
  elseif live then
    holding = true -- another grant of this instance is live: wait in line until it is released or expires
  else
    freed = free_grant(run)
  end
end
-- the reply, then the waiters that the freed names let in (never this instance, which has just asked)
local function with_wakes(out)
  if #freed > 0 then
    for _, p in ipairs(wake(now, wake_ms, freed, {[run] = true})) do out[#out + 1] = p end
  end
  return out
end
-- a line left for a name not held now may have held back its next waiters
local function leave_lines(held)
  local taking = {}
  for _, name in ipairs(held) do taking[name] = true end
  for _, name in ipairs(leave(run)) do
    if not taking[name] then freed[#freed + 1] = name end
  end
end
if again then
  -- another dispatch of the instance may have queued behind this grant meanwhile: its place in line goes, and
  -- the waiters it was ahead of may be let in now (the grant takes no new lease)
  for _, name in ipairs(leave(run)) do freed[#freed + 1] = name end
  return with_wakes({'granted', '0'})
end
local w = redis.call('HGET', WAITER, run)
local first = nil
if w then first = tonumber(split(w)[1]) end
local blocking = nil
if holding then blocking = names[1] else blocking = blocked(names, first, run) end
if blocking then
  if not first then
    first = now
    redis.call('HSET', WAITER, run, first .. '\n' .. table.concat(names, '\n'))
    for _, name in ipairs(names) do redis.call('ZADD', WAIT, 0, member(name, first, run)) end
    redis.call('ZADD', QUEUE, first, run)
  else
    -- names rendered on the worker (env.NAME) may differ on the worker that asks again: the waiter moves to
    -- the lines of the names it asks for now, in the place its first wait gives it
    local stored = split(w)
    local same = #stored - 1 == #names
    for i, name in ipairs(names) do
      if same and stored[i + 1] ~= name then same = false end
    end
    if not same then
      -- the lines it leaves may have held back their next waiters: they are looked at too
      for i = 2, #stored do
        redis.call('ZREM', WAIT, member(stored[i], first, run))
        freed[#freed + 1] = stored[i]
      end
      for _, name in ipairs(names) do redis.call('ZADD', WAIT, 0, member(name, first, run)) end
      redis.call('HSET', WAITER, run, first .. '\n' .. table.concat(names, '\n'))
    end
  end
  redis.call('HSET', PAYLOAD, run, payload)
  -- a check that found the instance no longer pending before now removes nothing (stale.lua)
  redis.call('HSET', SEEN, run, now)
  -- the wake (if any) was answered: a later release may wake it again at once
  redis.call('HDEL', WOKEN, run)
  return with_wakes({'waiting', blocking, tostring(first)})
end
leave_lines(names)
for _, name in ipairs(names) do redis.call('HINCRBY', COUNT, name, 1) end
redis.call('HSET', GRANT, run, gid .. '\n' .. table.concat(names, '\n'))
redis.call('ZADD', DEADLINE, now + ttl, run)
local waited = 0
if first then waited = now - first end
return with_wakes({'granted', tostring(waited)})
