-- KEYS: run record, active runs index, node records, instances, inputs, attempt history, declared growths;
-- ARGV: expected run text, the run's member in the active index.
-- Retention: deletes a run's keys only if its record is unchanged byte for byte. Its active-index entry goes in
-- the same step: removed later, it could be the entry of a run of the same partition started in between, which
-- the reconciler would then never find.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7])
redis.call('ZREM', KEYS[2], ARGV[2])
return 1
