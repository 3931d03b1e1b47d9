-- KEYS: active-runs index, run record, instances; ARGV: index member.
-- Leaves the index only a run that is still idle now: gone, or settled with no active instance. A caller's
-- view may be stale (a rerun reactivated the run since), so the check is made here, atomically.
local state = run_state(KEYS[2])
if state == 'active' or state == 'unreadable' then return 0 end
if not all_idle(KEYS[3], true) then return 0 end
return redis.call('ZREM', KEYS[1], ARGV[1])
