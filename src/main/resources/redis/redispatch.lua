-- KEYS: instances; ARGV: run id, stale ms. A pending instance whose dispatch may be lost is dispatched again.
local s = load_instance(KEYS[1], ARGV[1])
if not s or s.state ~= 'pending' then return 0 end
local now = now_ms()
if s.dispatched > now - tonumber(ARGV[2]) then return 0 end
s.dispatched = now
save_instance(KEYS[1], ARGV[1], s)
return 1
