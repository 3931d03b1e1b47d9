-- ARGV: limit -> {runId, seenMs, dispatch, ...} of the oldest waiters: what the stale-waiter check looks up
local out = {}
for _, run in ipairs(redis.call('ZRANGE', QUEUE, 0, tonumber(ARGV[1]) - 1)) do
  out[#out + 1] = run
  out[#out + 1] = redis.call('HGET', SEEN, run) or '0'
  out[#out + 1] = redis.call('HGET', PAYLOAD, run) or ''
end
return out
