-- ARGV: wakeMs, limit -> {freed count, dispatch to wake...}: frees the grants whose deadline passed
local now = now_ms()
local expired = redis.call('ZRANGEBYSCORE', DEADLINE, '-inf', now, 'LIMIT', 0, tonumber(ARGV[2]))
local freed = {}
for _, run in ipairs(expired) do
  for _, name in ipairs(free_grant(run)) do freed[#freed + 1] = name end
end
local out = {tostring(#expired)}
for _, p in ipairs(wake(now, tonumber(ARGV[1]), freed)) do out[#out + 1] = p end
return out
