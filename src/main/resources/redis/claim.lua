-- KEYS: instances, inputs, run record, leases; ARGV: run id, lease ms, worker id, lease member (<run>|<run id>),
-- claim id (unique among the worker's claims; '' for none)
local s = load_instance(KEYS[1], ARGV[1])
if not s then return { 'unknown' } end
local function claimed(now)
  local input = redis.call('HGET', KEYS[2], ARGV[1]) or ''
  local step_state = redis.call('HGET', KEYS[2], 'st:' .. ARGV[1]) or ''
  return { 'claimed', tostring(s.token), tostring(s.attempt), tostring(s.step), input, step_state, tostring(now),
    tostring(s.max), tostring(s.submitted_us and math.floor(tonumber(s.submitted_us) / 1000) or s.dispatched or now) }
end
-- the same claim asked again (its reply was lost after it committed): the attempt it started, not a refusal that
-- would leave the attempt to burn until its lease expires. Its lease runs anew from now, as the worker counts it
-- from this call
if s.state == 'running' and ARGV[5] and ARGV[5] ~= '' and s.worker == ARGV[3] and s.claim == ARGV[5] then
  local now = clock()
  if s.lease > now then
    s.lease = now + tonumber(ARGV[2])
    save_instance(KEYS[1], ARGV[1], s)
    index_lease(KEYS[4], ARGV[4], s.lease)
    return claimed(s.step_started or s.started)
  end
end
if s.state ~= 'pending' then return { s.state } end
-- a cancel is committed on the run record first: no attempt of a cancelled run starts after it
if KEYS[3] and run_cancelled(KEYS[3]) then return { 'run_cancelled' } end
local now, now_us = clock()
s.attempt = s.attempt + 1
s.token = s.token + 1
s.state = 'running'
s.lease = now + tonumber(ARGV[2])
s.started = now
-- every attempt of a step sees the clock of the step's start (spec §8.2); retry.lua clears it for the next step
if not s.step_started then s.step_started = now end
s.worker = ARGV[3]
if ARGV[5] and ARGV[5] ~= '' then s.claim = ARGV[5] else s.claim = nil end
s.redispatches = nil
s.started_us = now_us
save_instance(KEYS[1], ARGV[1], s)
index_lease(KEYS[4], ARGV[4], s.lease)
return claimed(s.step_started)
