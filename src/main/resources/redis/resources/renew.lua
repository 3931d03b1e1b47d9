-- ARGV: ttlMs, then runId, grantId pairs -> the run ids whose grant is gone or re-issued
local now = now_ms()
local ttl = tonumber(ARGV[1])
local lost = {}
for i = 2, #ARGV, 2 do
  local run, gid = ARGV[i], ARGV[i + 1]
  local g = redis.call('HGET', GRANT, run)
  if g and split(g)[1] == gid then
    redis.call('ZADD', DEADLINE, now + ttl, run)
  else
    lost[#lost + 1] = run
  end
end
return lost
