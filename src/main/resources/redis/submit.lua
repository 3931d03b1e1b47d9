-- KEYS: instances, inputs; ARGV: run id, instance json, input json
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
return 'new'
