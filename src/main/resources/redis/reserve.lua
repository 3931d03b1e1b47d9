-- KEYS: the id's reservation[, the id's handling]; ARGV: request json, time to live ms (0 = none)[, handler token,
-- handling ms]
-- Holds a request id for one request before any of its effects or records, in the id's own shard: a rerun's
-- record lives in its run's shard and other records in the id's, so only this key makes one id serve one
-- request. Held again for the same request (a retry, or its record being written), it lives its time again: a
-- record written later than the first try must not outlive the reservation it is found through.
-- With the handling key, it also makes this call the one handler of the id (until it deletes the key, or for
-- handling ms at most): an equal request racing it must not be applied a second time.
-- Returns 1 when the id is now (or already) held for this request (and, with the handling key, this call handles
-- it), 2 when an equal request is being handled by another call, 0 when another request holds the id.
local ttl = tonumber(ARGV[2] or '0')
if not set_once(KEYS[1], ARGV[1], ttl) then
  if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
  if ttl > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
end
-- the same token again is this call's own hold, sent twice (a client resends a command whose reply was lost)
if KEYS[2] and not set_once(KEYS[2], ARGV[3], tonumber(ARGV[4])) and redis.call('GET', KEYS[2]) ~= ARGV[3] then
  return 2
end
return 1
