-- KEYS: active-runs index, run record; ARGV: index score, index member, run text.
-- Creates the run only if it is absent, and lists it as active in the same step: a start of a run that exists
-- leaves its index entry as it was (a settled run stays out of it), and retention, which deletes a run and its
-- entry together (expirerun.lua), cannot fall between the entry and the record of a new run.
if not redis.call('SET', KEYS[2], ARGV[3], 'NX') then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
return 1
