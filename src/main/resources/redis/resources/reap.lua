-- ARGV: wakeMs, limit -> {freed count, dispatch to wake...}: frees the grants whose deadline passed
local now = now_ms()
local expired = redis.call('ZRANGEBYSCORE', DEADLINE, '-inf', now, 'LIMIT', 0, tonumber(ARGV[2]))
local freed = {}
for _, run in ipairs(expired) do
  for _, name in ipairs(free_grant(run)) do freed[#freed + 1] = name end
end
local out = {tostring(#expired)}
local wake_ms = tonumber(ARGV[1])
local seen = {}
for _, p in ipairs(wake(now, wake_ms, freed, seen)) do out[#out + 1] = p end
-- a waiter woken but not back (its dispatch lost, its worker died) is woken again after wakeMs wherever it waits:
-- the scan of the oldest waiters in wake() does not reach one behind many older ones
local woken = redis.call('HGETALL', WOKEN)
for i = 1, #woken, 2 do
  if now - tonumber(woken[i + 1]) >= wake_ms then wake_one(now, wake_ms, woken[i], out, seen) end
end
return out
