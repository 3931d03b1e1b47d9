-- ARGV: name, capacity, wakeMs -> the dispatches a raised capacity lets in
redis.call('HSET', CAP, ARGV[1], ARGV[2])
return wake(now_ms(), tonumber(ARGV[3]), {ARGV[1]})
