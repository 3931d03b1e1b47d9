-- KEYS: run record, active-runs index of its shard[, request record, expiry]; ARGV: expected run text, next run
-- text, active (0/1), index member, index score (the caller's clock, as every writer of the index)[, request
-- record json, handled at ms, expiry member, time to live ms].
-- Compare-and-put: writes the record only if it is unchanged byte for byte; an active run enters the index in the
-- same step, so a pass that dropped it from a stale view cannot leave it out.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
if ARGV[3] == '1' then redis.call('ZADD', KEYS[2], tonumber(ARGV[5]), ARGV[4]) end
-- a rerun: its request record commits with the expectation it answers (spec §14 #18)
if KEYS[3] and set_once(KEYS[3], ARGV[6], tonumber(ARGV[9] or '0')) then
  redis.call('ZADD', KEYS[4], tonumber(ARGV[7]), ARGV[8])
end
return 1
