-- ARGV: runId, grantId, ttlMs, payload, name... -> {'granted', waitedMs} | {'waiting', blockingName, firstWaitMs}
local now = now_ms()
local run, gid, ttl, payload = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4]
local names = {}
for i = 5, #ARGV do names[#names + 1] = ARGV[i] end
local g = redis.call('HGET', GRANT, run)
local holding = false
if g then
  if split(g)[1] == gid then return {'granted', '0'} end
  if tonumber(redis.call('ZSCORE', DEADLINE, run) or '0') > now then
    holding = true -- another grant of this instance is live: wait in line until it is released or expires
  else
    free_grant(run)
  end
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
      for i = 2, #stored do redis.call('ZREM', WAIT, member(stored[i], first, run)) end
      for _, name in ipairs(names) do redis.call('ZADD', WAIT, 0, member(name, first, run)) end
      redis.call('HSET', WAITER, run, first .. '\n' .. table.concat(names, '\n'))
    end
  end
  redis.call('HSET', PAYLOAD, run, payload)
  -- a check that found the instance no longer pending before now removes nothing (stale.lua)
  redis.call('HSET', SEEN, run, now)
  -- the wake (if any) was answered: a later release may wake it again at once
  redis.call('HDEL', WOKEN, run)
  return {'waiting', blocking, tostring(first)}
end
leave(run)
for _, name in ipairs(names) do redis.call('HINCRBY', COUNT, name, 1) end
redis.call('HSET', GRANT, run, gid .. '\n' .. table.concat(names, '\n'))
redis.call('ZADD', DEADLINE, now + ttl, run)
local waited = 0
if first then waited = now - first end
return {'granted', tostring(waited)}
