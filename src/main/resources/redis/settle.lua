-- KEYS: run record, instances, expiry, active-runs index; ARGV: expected run text, settled run text, settled at
-- ms ('' for none), expiry member, index member, then the run ids that must not be active.
-- Settles the run only if its record is unchanged and none of those instances is active: a rerun that
-- submitted one of them after the caller read the run keeps the run active (the two are atomic). A run
-- settled with no active instance at all leaves the active-runs index in the same step, as dropactive would.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
for i = 6, #ARGV do
  local s = load_instance(KEYS[2], ARGV[i])
  if s and ACTIVE[s.state] then return 0 end
end
redis.call('SET', KEYS[1], ARGV[2])
if ARGV[3] ~= '' then redis.call('ZADD', KEYS[3], tonumber(ARGV[3]), ARGV[4]) end
if all_idle(KEYS[2]) then redis.call('ZREM', KEYS[4], ARGV[5]) end
return 1
