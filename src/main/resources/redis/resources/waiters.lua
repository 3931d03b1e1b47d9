-- ARGV: limit, after -> {runId, seenMs, dispatch, ..., lastName} of the waiters the stale-waiter check looks up:
-- the oldest, then the first in line on each of up to limit resources, then the last resource whose line it read.
-- A stale waiter far down the oldest-first order may still head the line of a resource nobody holds, where it
-- blocks every newcomer; the scan of the heads goes on from the resource after `after` (the last one the
-- caller's previous check read) and wraps around, so that over the passes it reaches every line in turn.
local limit, after = tonumber(ARGV[1]), ARGV[2]
local out, listed = {}, {}
local function add(run)
  if listed[run] then return end
  listed[run] = true
  out[#out + 1] = run
  out[#out + 1] = redis.call('HGET', SEEN, run) or '0'
  out[#out + 1] = redis.call('HGET', PAYLOAD, run) or ''
end
local function name_of(m)
  return string.sub(m, 1, string.find(m, '\0', 1, true) - 1)
end
for _, run in ipairs(redis.call('ZRANGE', QUEUE, 0, limit - 1)) do add(run) end
local from, wrapped, last = '-', false, after
if after ~= '' then from = '(' .. after .. '\1' end
for _ = 1, limit do
  local m = redis.call('ZRANGEBYLEX', WAIT, from, '+', 'LIMIT', 0, 1)[1]
  if not m then
    if wrapped or after == '' then break end
    wrapped = true
    m = redis.call('ZRANGEBYLEX', WAIT, '-', '+', 'LIMIT', 0, 1)[1]
    if not m then break end
  end
  local name = name_of(m)
  -- come round to where this check began
  if wrapped and name > after then break end
  add(string.sub(m, string.len(name) + 18))
  last = name
  from = '(' .. name .. '\1'
end
out[#out + 1] = last
return out
