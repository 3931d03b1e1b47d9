-- KEYS: instances, inputs, run record; ARGV: the run-id prefix of one mapped node's items ('{graph}-{partition}-{node}['),
-- the most of them that may be active, then (run id, instance json, input json) per item.
-- Each item is created as submit.lua creates an instance, but only while fewer than the cap of that node's items
-- are active. The count is taken here, in the same atomic step, so neither several scheduler replicas nor a
-- redelivered event can put more than max_parallel items in flight.
local prefix, cap = ARGV[1], tonumber(ARGV[2])
local run = run_state(KEYS[3])
local active = 0
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  if string.sub(all[i], 1, #prefix) == prefix then
    local state = string.match(all[i + 1], '"state":"(%a+)"')
    if state and ACTIVE[state] then active = active + 1 end
  end
end
local out = {}
for i = 3, #ARGV, 3 do
  local id, input = ARGV[i], ARGV[i + 2]
  local existing = load_instance(KEYS[1], id)
  if existing then
    if ACTIVE[existing.state] and redis.call('HGET', KEYS[2], id) ~= input then
      out[#out + 1] = 'mismatch'
    else
      out[#out + 1] = 'exists'
    end
  elseif run and run ~= 'active' then
    out[#out + 1] = 'inactive'
  elseif active >= cap then
    out[#out + 1] = 'full'
  else
    redis.call('HSET', KEYS[1], id, stamped(ARGV[i + 1]))
    redis.call('HSET', KEYS[2], id, input)
    active = active + 1
    out[#out + 1] = 'new'
  end
end
return out
