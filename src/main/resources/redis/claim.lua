-- KEYS: instances, inputs, run record, leases; ARGV: run id, lease ms, worker id, lease member (<run>|<run id>)
local s = load_instance(KEYS[1], ARGV[1])
if not s then return { 'unknown' } end
if s.state ~= 'pending' then return { s.state } end
-- a cancel is committed on the run record first: no attempt of a cancelled run starts after it
if KEYS[3] and run_state(KEYS[3]) == 'cancelled' then return { 'run_cancelled' } end
local now, now_us = clock()
s.attempt = s.attempt + 1
s.token = s.token + 1
s.state = 'running'
s.lease = now + tonumber(ARGV[2])
s.started = now
s.worker = ARGV[3]
s.redispatches = nil
s.started_us = now_us
save_instance(KEYS[1], ARGV[1], s)
index_lease(KEYS[4], ARGV[4], s.lease)
local input = redis.call('HGET', KEYS[2], ARGV[1]) or ''
local step_state = redis.call('HGET', KEYS[2], 'st:' .. ARGV[1]) or ''
return { 'claimed', tostring(s.token), tostring(s.attempt), tostring(s.step), input, step_state, tostring(now), tostring(s.max),
  tostring(s.submitted_us and math.floor(tonumber(s.submitted_us) / 1000) or s.dispatched or now) }
