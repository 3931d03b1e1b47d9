-- KEYS: run record, node records; ARGV: run record text as read, record field, record json, rerun.
-- Writes a mapped node's record, derived from its items, only if the run record is the one the caller read (a
-- rerun committed since then wins, and the record is derived again) and the run is still active. Never
-- regresses a record: two replicas deriving the same record write it once.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 'changed' end
if run_state(KEYS[1]) ~= 'active' then return 'inactive' end
if write_record(KEYS[2], ARGV[2], ARGV[3], tonumber(ARGV[4])) then return 'written' end
return 'kept'
