-- KEYS: request record, expiry; ARGV: record json, handled at ms, expiry member
-- A request record and its expiry entry, written together and only once per request id.
if redis.call('SET', KEYS[1], ARGV[1], 'NX') then
  redis.call('ZADD', KEYS[2], tonumber(ARGV[2]), ARGV[3])
  return 1
end
return 0
