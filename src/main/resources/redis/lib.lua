-- shared prelude (prepended to every script)
-- Redis time in ms, and the same instant in µs as a decimal string (cjson would round a 16-digit number)
local function clock()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000), t[1] .. string.format('%06d', tonumber(t[2]))
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
