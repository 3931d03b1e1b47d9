-- KEYS: instances; ARGV: run id, wait ms, limit ms.
-- Whether the reconciler sends again the dead-letter copy the instance owes: 'send' once it has been owed for
-- `wait` ms since its end and since the last resend taken (taken now, so that two passes at once send one copy),
-- 'wait' before that, 'expired' once it has been owed for `limit` ms since its end (the caller gives it up),
-- 'none' when nothing is owed.
local s = load_instance(KEYS[1], ARGV[1])
if not s or s.dead_letter == nil then return 'none' end
local now = now_ms()
local ended = tonumber(s.ended) or 0
if now - ended >= tonumber(ARGV[3]) then return 'expired' end
local last = math.max(ended, tonumber(s.dead_letter_taken) or 0)
if now - last < tonumber(ARGV[2]) then return 'wait' end
s.dead_letter_taken = now
save_instance(KEYS[1], ARGV[1], s)
return 'send'
