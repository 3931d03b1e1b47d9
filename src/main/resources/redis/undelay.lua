-- KEYS: delayed set; ARGV: member, due ms as read. Removes the entry only if it still has the due time read:
-- a re-park since (a new due time for the same member) keeps its entry.
local due = redis.call('ZSCORE', KEYS[1], ARGV[1])
if due and tonumber(due) == tonumber(ARGV[2]) then
  return redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0
