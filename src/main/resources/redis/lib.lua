-- shared helpers: each script is prefixed with the definitions here that it uses (LuaPrelude)
-- Redis time in ms, and the same instant in µs as a decimal string (cjson would round a 16-digit number)
local function clock()
  local t = redis.call('TIME')
  local s, us = t[1], t[2]
  return s * 1000 + math.floor(us / 1000), s .. string.sub('00000' .. us, -6)
end
local function now_ms()
  return (clock())
end
local ACTIVE = { pending = true, running = true, waiting = true, cancelling = true }
local function load_instance(key, run_id)
  local raw = redis.call('HGET', key, run_id)
  if not raw then return nil end
  return cjson.decode(raw)
end
local function save_instance(key, run_id, s)
  redis.call('HSET', key, run_id, cjson.encode(s))
end
-- the lease index of a shard: <run>|<run id> -> lease end, so the reaper reads only what may have expired. A lease
-- not in it (claimed by a version before the index) is reaped by the reconciler's full pass.
local function index_lease(leases_key, member, lease)
  redis.call('ZADD', leases_key, lease, member)
end
local function unindex_lease(leases_key, member)
  redis.call('ZREM', leases_key, member)
end
-- a node record is written once per (node, rerun) and never regressed
local function write_record(nodes_key, field, record, rerun)
  local existing = redis.call('HGET', nodes_key, field)
  if existing then
    local old = tonumber(string.match(existing, '"rerun":(%d+)'))
    if old and old >= rerun then return false end
  end
  redis.call('HSET', nodes_key, field, record)
  return true
end
-- the attempt history of one instance: a JSON array per run id, capped to its last HISTORY_CAP entries
local HISTORY_CAP = 50
local function append_history(key, run_id, s, ended, outcome, err)
  if not key or not s.started then return end
  local raw = redis.call('HGET', key, run_id)
  local list = raw and cjson.decode(raw) or {}
  local entry = { attempt = s.attempt, step = s.step, started_ms = s.started, ended_ms = ended, outcome = outcome }
  if s.worker and s.worker ~= '' then entry.worker = s.worker end
  if err and err ~= '' then entry.error = err end
  list[#list + 1] = entry
  while #list > HISTORY_CAP do table.remove(list, 1) end
  redis.call('HSET', key, run_id, cjson.encode(list))
end
-- true when no task instance in the hash is active; one whose state cannot be read counts as active. The state is
-- matched, not decoded (a run's every instance, on each settle): an instance is one flat object whose strings escape
-- their quotes, so `"state":"` can only be its key. With `owing`, an instance that still owes its dead-letter copy
-- counts as active too: the run stays in the active-runs index, where the reconciler finds it to send the copy.
local function all_idle(instances_key, owing)
  for _, raw in ipairs(redis.call('HVALS', instances_key)) do
    local state = string.match(raw, '"state":"(%a+)"')
    if not state or ACTIVE[state] then return false end
    if owing and string.find(raw, '"dead_letter":', 1, true) then return false end
  end
  return true
end
-- the state of a run record: nil when there is none, 'unreadable' when it does not parse
local function run_state(run_key)
  local raw = redis.call('GET', run_key)
  if not raw then return nil end
  local ok, r = pcall(cjson.decode, raw)
  if not ok or type(r) ~= 'table' or type(r.state) ~= 'string' then return 'unreadable' end
  return r.state
end
-- a run that is gone or settled, with no instance active or owing its dead-letter copy, leaves the active-runs index;
-- 1 when it left it now. A caller's view may be stale (a rerun reactivated the run since), so it is checked here.
local function leave_index_if_idle(index_key, run_key, instances_key, member)
  local state = run_state(run_key)
  if state == 'active' or state == 'unreadable' or not all_idle(instances_key, true) then return 0 end
  return redis.call('ZREM', index_key, member)
end
-- true when the run record is cancelled. Its text is searched, not decoded: a quote inside a JSON string is
-- escaped, so `"state":"` is a key of the record, and the record has no other string-valued key of that name.
local function run_cancelled(run_key)
  local raw = redis.call('GET', run_key)
  return raw and string.find(raw, '"state":"cancelled"', 1, true) ~= nil
end
-- a new instance's text with its submission stamps: the service's codec writes a pending instance as one flat
-- object, so they are appended before its closing brace, as cjson would write them, without decoding it
local function stamped(json)
  local ms, us = clock()
  if string.find(json, '^{".*}$') then
    return string.sub(json, 1, -2) .. ',"dispatched":' .. ms .. ',"submitted_us":"' .. us .. '"}'
  end
  local s = cjson.decode(json)
  s.dispatched, s.submitted_us = ms, us
  return cjson.encode(s)
end

-- SET NX, expiring after ttl ms when ttl > 0: true when this call wrote the key (a nil reply is false in Lua)
local function set_once(key, value, ttl)
  if ttl > 0 then
    return redis.call('SET', key, value, 'NX', 'PX', ttl) ~= false
  end
  return redis.call('SET', key, value, 'NX') ~= false
end
