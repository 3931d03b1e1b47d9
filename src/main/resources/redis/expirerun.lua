-- KEYS: run record, node records, instances, inputs, attempt history[, declared growths]; ARGV: expected run text.
-- Retention: deletes a run's keys only if its record is unchanged byte for byte.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5])
if KEYS[6] then redis.call('DEL', KEYS[6]) end
return 1
