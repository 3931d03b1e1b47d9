-- KEYS: active-runs index, run record, instances; ARGV: index member.
-- Leaves the index only a run that is still idle now: gone, or settled with no active instance. A caller's
-- view may be stale (a rerun reactivated the run since), so the check is made here, atomically.
local state = run_state(KEYS[2])
if state == 'active' or state == 'unreadable' then return 0 end
for _, raw in ipairs(redis.call('HVALS', KEYS[3])) do
  local ok, s = pcall(cjson.decode, raw)
  if not ok or type(s) ~= 'table' or ACTIVE[s.state] then return 0 end
end
return redis.call('ZREM', KEYS[1], ARGV[1])
