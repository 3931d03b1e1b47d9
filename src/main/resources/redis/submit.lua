-- KEYS: instances, inputs, run record[, request record, expiry]
-- ARGV: run id, instance json, input json[, request record json, handled at ms, expiry member, time to live ms]
-- The optional request record (a Submitted rerun, spec §10) commits only when the submission is new.
-- A run that is no longer active (settled or cancelled since the caller read it) takes no new instance:
-- the answer 'inactive' tells a rerun to read again, and an advance after a cancel submits nothing.
local existing = load_instance(KEYS[1], ARGV[1])
if existing then
  if ACTIVE[existing.state] and redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[3] then
    return 'mismatch'
  end
  return 'exists'
end
local run = run_state(KEYS[3])
if run and run ~= 'active' then return 'inactive' end
redis.call('HSET', KEYS[1], ARGV[1], stamped(ARGV[2]))
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
if KEYS[4] then
  if set_once(KEYS[4], ARGV[4], tonumber(ARGV[7] or '0')) then
    redis.call('ZADD', KEYS[5], tonumber(ARGV[5]), ARGV[6])
  end
end
return 'new'
