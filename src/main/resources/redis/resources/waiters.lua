-- ARGV: limit -> {runId, seenMs, dispatch, ...} of the waiters the stale-waiter check looks up: the oldest, then
-- the first in line on each of up to limit resources. A stale waiter far down the oldest-first order may still
-- head the line of a resource nobody holds, where it blocks every newcomer; the scan of the heads starts at a
-- resource picked by the clock, so over the passes it reaches every line.
local limit = tonumber(ARGV[1])
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
local total = redis.call('ZCARD', WAIT)
if total == 0 then return out end
local pick = tonumber(redis.call('TIME')[2]) % total
local first_name = name_of(redis.call('ZRANGE', WAIT, pick, pick)[1])
local from, wrapped = '[' .. first_name .. '\0', false
for _ = 1, limit do
  local m = redis.call('ZRANGEBYLEX', WAIT, from, '+', 'LIMIT', 0, 1)[1]
  if not m then
    if wrapped then break end
    wrapped = true
    m = redis.call('ZRANGEBYLEX', WAIT, '-', '+', 'LIMIT', 0, 1)[1]
  end
  local name = name_of(m)
  if wrapped and name >= first_name then break end
  add(string.sub(m, string.len(name) + 18))
  from = '(' .. name .. '\1'
end
return out
