-- KEYS: request record, expiry; ARGV: record json, handled at ms, expiry member, time to live ms (0 = none)
-- A request record and its expiry entry, written together and only once per request id. The record also
-- expires by itself after twice the retention window, should no retention pass get to it.
if set_once(KEYS[1], ARGV[1], tonumber(ARGV[4] or '0')) then
  redis.call('ZADD', KEYS[2], tonumber(ARGV[2]), ARGV[3])
  return 1
end
return 0
