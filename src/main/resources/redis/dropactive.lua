-- KEYS: active-runs index, run record, instances; ARGV: index member.
-- Leaves the index only a run that is still idle now: gone, or settled with no active instance.
return leave_index_if_idle(KEYS[1], KEYS[2], KEYS[3], ARGV[1])
