-- KEYS: instances, node records; ARGV: run id, record field, cancelled record json, rerun, reason (its error)
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
