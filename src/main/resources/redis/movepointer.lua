-- KEYS: current pointers; ARGV: graph, hash, then the pointers as read (graph, hash, ...).
-- A publish checked its assets against the pointers it read: it moves its own only while none has moved since, so
-- two publishes at once are checked one after the other (spec §1.9, §14 #1).
local now = redis.call('HGETALL', KEYS[1])
if #now ~= #ARGV - 2 then return 'stale' end
local read = {}
for i = 3, #ARGV, 2 do read[ARGV[i]] = ARGV[i + 1] end
for i = 1, #now, 2 do
  if read[now[i]] ~= now[i + 1] then return 'stale' end
end
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then return 'unchanged' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 'moved'
