-- KEYS: watermarks; ARGV: schedule, fire ms. A watermark only moves forward. One that is not a number counts as
-- absent, as the pump reads it, so the firing replaces it instead of failing on it at every tick.
local current = tonumber(redis.call('HGET', KEYS[1], ARGV[1]))
if current and current >= tonumber(ARGV[2]) then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
