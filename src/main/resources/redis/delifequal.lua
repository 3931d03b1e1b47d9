-- KEYS: a key; ARGV: expected text. Deletes the key only if it still holds that text.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('DEL', KEYS[1])
