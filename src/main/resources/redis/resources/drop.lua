-- ARGV: wakeMs, then runId, seenMs pairs -> {dropped count, dispatch to wake...}: each waiter whose instance
-- was found no longer pending leaves every queue, unless a dispatch of it asked again since (seenMs changed)
local now = now_ms()
local wake_ms = tonumber(ARGV[1])
local dropped = 0
local names = {}
for i = 2, #ARGV, 2 do
  local run, seen = ARGV[i], ARGV[i + 1]
  local w = redis.call('HGET', WAITER, run)
  if w and (redis.call('HGET', SEEN, run) or '0') == seen then
    for _, name in ipairs(leave(run)) do names[#names + 1] = name end
    dropped = dropped + 1
  end
end
local out = {tostring(dropped)}
for _, p in ipairs(wake(now, wake_ms, names)) do out[#out + 1] = p end
return out
