-- KEYS: instances, inputs[, request record, expiry]
-- ARGV: run id, instance json, input json[, request record json, handled at ms, expiry member, time to live ms]
-- The optional request record (a Submitted rerun, spec §10) commits only when the submission is new.
local existing = load_instance(KEYS[1], ARGV[1])
if existing then
  if ACTIVE[existing.state] and redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[3] then
    return 'mismatch'
  end
  return 'exists'
end
local s = cjson.decode(ARGV[2])
s.dispatched, s.submitted_us = clock()
save_instance(KEYS[1], ARGV[1], s)
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
if KEYS[3] then
  local ttl = tonumber(ARGV[7] or '0')
  if (ttl > 0 and redis.call('SET', KEYS[3], ARGV[4], 'NX', 'PX', ttl)) or (ttl <= 0 and redis.call('SET', KEYS[3], ARGV[4], 'NX')) then
    redis.call('ZADD', KEYS[4], tonumber(ARGV[5]), ARGV[6])
  end
end
return 'new'
