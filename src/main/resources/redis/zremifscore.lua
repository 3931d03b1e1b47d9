-- KEYS: a sorted set (delayed or leases); ARGV: member, score as read. Removes the entry only if it still has the
-- score read: a re-park or a new claim since (a new due time or lease end for the same member) keeps its entry.
local due = redis.call('ZSCORE', KEYS[1], ARGV[1])
if due and tonumber(due) == tonumber(ARGV[2]) then
  return redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0
