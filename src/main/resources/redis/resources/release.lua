-- ARGV: runId, grantId ('' frees nothing), wakeMs, leave ('1': also leave every queue)
-- -> {'released' | 'stale', dispatch to wake...}
local now = now_ms()
local run, gid, wake_ms = ARGV[1], ARGV[2], tonumber(ARGV[3])
local status = 'stale'
local freed = {}
local g = redis.call('HGET', GRANT, run)
-- fenced: an old holder's release never frees a newer holder's grant
if g and gid ~= '' and split(g)[1] == gid then
  freed = free_grant(run)
  status = 'released'
end
-- a waiter that leaves its lines may have held back the next waiters of each: they are looked at too
if ARGV[4] == '1' then
  for _, name in ipairs(leave(run)) do freed[#freed + 1] = name end
end
local out = {status}
for _, p in ipairs(wake(now, wake_ms, freed)) do out[#out + 1] = p end
return out
