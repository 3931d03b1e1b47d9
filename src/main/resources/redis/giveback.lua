-- KEYS: instances, attempt history, leases; ARGV: run id, token, reason, lease member.
-- A worker shutting down gives its lease back: running -> pending with the token bumped (the old holder can
-- settle nothing), and the attempt is not counted.
local s = load_instance(KEYS[1], ARGV[1])
if not s then return { 'unknown' } end
if tostring(s.token) ~= ARGV[2] then return { 'lost' } end
if s.state == 'cancelling' then return { 'cancelling' } end
if s.state ~= 'running' then return { 'lost' } end
local now = now_ms()
append_history(KEYS[2], ARGV[1], s, now, 'released', ARGV[3])
s.state = 'pending'
s.attempt = s.attempt - 1
s.token = s.token + 1
s.lease = nil
s.dispatched = now
save_instance(KEYS[1], ARGV[1], s)
unindex_lease(KEYS[3], ARGV[4])
return { 'released' }
