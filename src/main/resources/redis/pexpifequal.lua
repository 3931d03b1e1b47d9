-- KEYS: a key; ARGV: expected text, time to live ms. Gives the key that time to live again only while it still
-- holds that text (a holder keeping its own hold, never one taken over since).
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])
