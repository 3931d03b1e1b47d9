-- KEYS: instances, node records[, run]; ARGV: run id, record field, cancelled record json, rerun, reason (its error)
-- [, '1': only while the run record is cancelled]
-- A run's cancel reaches its instances after it committed; a rerun may have reactivated the run meanwhile, and the
-- instance it submitted is not the cancel's to end.
if ARGV[6] == '1' and not run_cancelled(KEYS[3]) then return 'run_not_cancelled' end
local s = load_instance(KEYS[1], ARGV[1])
if not s then return 'unknown' end
if s.state == 'pending' or s.state == 'waiting' then
  write_record(KEYS[2], ARGV[2], ARGV[3], tonumber(ARGV[4]))
  s.state = 'cancelled'
  s.due = nil
  s.ended, s.ended_us = clock()
  save_instance(KEYS[1], ARGV[1], s)
  return 'cancelled'
end
-- asked before: nothing new, so a reconciler pass that repeats the cancel does not count it again
if s.state == 'cancelling' then return 'asked' end
if s.state == 'running' then
  s.state = 'cancelling'
  -- the holder ends it with a reason of its own making: finish.lua puts this one in its place
  if ARGV[5] and ARGV[5] ~= '' then s.cancel_reason = ARGV[5] end
  save_instance(KEYS[1], ARGV[1], s)
  return 'cancelling'
end
return s.state
