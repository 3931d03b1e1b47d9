-- KEYS: instances; ARGV: run id. A waiting instance whose delay is over becomes pending again.
local s = load_instance(KEYS[1], ARGV[1])
if not s then return { 'unknown' } end
if s.state ~= 'waiting' then return { s.state } end
local now = now_ms()
if s.due > now then return { 'early' } end
s.state = 'pending'
s.due = nil
s.dispatched = now
save_instance(KEYS[1], ARGV[1], s)
return { 'released', cjson.encode(s) }
