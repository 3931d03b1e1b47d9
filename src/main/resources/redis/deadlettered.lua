-- KEYS: instances, run record, active-runs index; ARGV: run id, index member.
-- The instance's dead-letter copy was sent: its debt is cleared, and a settled run with nothing else active or owed
-- leaves the active-runs index, as dropactive would (its settle kept it there while the copy was owed).
local s = load_instance(KEYS[1], ARGV[1])
if not s or s.dead_letter == nil then return 0 end
s.dead_letter = nil
s.dead_letter_taken = nil
save_instance(KEYS[1], ARGV[1], s)
leave_index_if_idle(KEYS[3], KEYS[2], KEYS[1], ARGV[2])
return 1
