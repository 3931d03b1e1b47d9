-- KEYS: the id's reservation; ARGV: request json, time to live ms (0 = none)
-- Holds a request id for one request before any of its effects or records, in the id's own shard: a rerun's
-- record lives in its run's shard and other records in the id's, so only this key makes one id serve one
-- request. Returns 1 when the id is now (or already) held for this request, 0 when another request holds it.
-- Held again for the same request (a retry, or its record being written), it lives its time again: a record
-- written later than the first try must not outlive the reservation it is found through.
local ttl = tonumber(ARGV[2] or '0')
if set_once(KEYS[1], ARGV[1], ttl) then return 1 end
if redis.call('GET', KEYS[1]) == ARGV[1] then
  if ttl > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
  return 1
end
return 0
