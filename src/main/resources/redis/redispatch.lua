-- KEYS: instances; ARGV: run id, stale ms, longest interval ms[, '1' after a fault]. A pending instance whose
-- dispatch may be lost is dispatched again, each time after twice the wait of the last (stale, 2×stale,
-- 4×stale … up to the longest): a backlog that only waits for a slot does not get a dispatch on every pass.
-- After a fault the wait is the stale time alone and is not counted: a fault, not a slow backlog, is the reason.
local s = load_instance(KEYS[1], ARGV[1])
if not s or s.state ~= 'pending' then return 0 end
local now = now_ms()
local n = tonumber(s.redispatches) or 0
local after_fault = ARGV[4] == '1'
local interval = after_fault and tonumber(ARGV[2]) or math.min(tonumber(ARGV[2]) * 2 ^ n, tonumber(ARGV[3]))
if s.dispatched > now - interval then return 0 end
s.dispatched = now
if not after_fault then s.redispatches = n + 1 end
save_instance(KEYS[1], ARGV[1], s)
return 1
