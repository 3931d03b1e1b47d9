-- KEYS: instances, inputs, attempt history, leases, delayed; ARGV: run id, token, delay ms, error, next step (0/1),
-- step state json, member (<run>|<run id>, of the lease and delayed sets)
local s = load_instance(KEYS[1], ARGV[1])
if not s then return { 'unknown' } end
-- a retried park whose first try committed (its reply was lost): the same answer, applied once
if tostring(s.token) == ARGV[2] and s.state == 'waiting' then return { 'waiting', tostring(s.due) } end
if tostring(s.token) ~= ARGV[2] or (s.state ~= 'running' and s.state ~= 'cancelling') then return { 'lost' } end
if s.state == 'cancelling' then return { 'cancelling' } end
local now = now_ms()
append_history(KEYS[3], ARGV[1], s, now, ARGV[5] == '1' and 'continue' or 'retry', ARGV[4])
s.state = 'waiting'
s.due = now + tonumber(ARGV[3])
s.err = ARGV[4]
s.lease = nil
if ARGV[5] == '1' then
  s.step = s.step + 1
  s.attempt = 0
  s.step_started = nil
  redis.call('HSET', KEYS[2], 'st:' .. ARGV[1], ARGV[6])
end
save_instance(KEYS[1], ARGV[1], s)
unindex_lease(KEYS[4], ARGV[7])
-- entered for the delayed mover with the park itself: a worker that dies right after leaves nothing to the
-- reconciler's slower pass
redis.call('ZADD', KEYS[5], s.due, ARGV[7])
return { 'waiting', tostring(s.due) }
