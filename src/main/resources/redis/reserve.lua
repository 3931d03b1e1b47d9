-- KEYS: the id's reservation; ARGV: request json, time to live ms (0 = none)
-- Holds a request id for one request before any of its effects or records, in the id's own shard: a rerun's
-- record lives in its run's shard and other records in the id's, so only this key makes one id serve one
-- request. Returns 1 when the id is now (or already) held for this request, 0 when another request holds it.
if set_once(KEYS[1], ARGV[1], tonumber(ARGV[2] or '0')) then return 1 end
if redis.call('GET', KEYS[1]) == ARGV[1] then return 1 end
return 0
