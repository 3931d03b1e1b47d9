-- KEYS: run record, instances, expiry, active-runs index[, request record]; ARGV: expected run text, settled run
-- text, settled at ms ('' for none), expiry member, index member, then with a request record: its json, handled at
-- ms, expiry member, time to live ms ('' four times without), then the run ids that must not exist.
-- Settles the run only if its record is unchanged and none of those instances exists: they had none when the
-- caller read the run, so one there now was submitted since (a rerun of a failed node, which leaves the run
-- record as it is), and whether it is still active or has already ended, the read is stale and the run stays
-- active (the two are atomic). A run settled with no active instance at all leaves the active-runs index in
-- the same step, as dropactive would.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
for i = 10, #ARGV do
  if redis.call('HEXISTS', KEYS[2], ARGV[i]) == 1 then return 0 end
end
redis.call('SET', KEYS[1], ARGV[2])
if ARGV[3] ~= '' then redis.call('ZADD', KEYS[3], tonumber(ARGV[3]), ARGV[4]) end
if all_idle(KEYS[2], true) then redis.call('ZREM', KEYS[4], ARGV[5]) end
-- a cancel: its request record commits with the settle it asked for (spec §10)
if KEYS[5] and set_once(KEYS[5], ARGV[6], tonumber(ARGV[9])) then
  redis.call('ZADD', KEYS[3], tonumber(ARGV[7]), ARGV[8])
end
return 1
