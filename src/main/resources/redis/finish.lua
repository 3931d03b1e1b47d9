-- KEYS: instances, node records, attempt history, run record, declared growths, leases; ARGV: run id, token,
-- record field, record json, status, rerun, error, growth field, growth text ('' for none), lease member, '1' when
-- the instance ends dead-lettered (it then owes its dead-letter copy until deadlettered.lua clears the debt)
local s = load_instance(KEYS[1], ARGV[1])
if not s then return 'unknown' end
-- a retried settle whose first try committed (its reply was lost): recognisable, applied once
if tostring(s.token) == ARGV[2] and s.state == ARGV[5] then return 'settled' end
if tostring(s.token) ~= ARGV[2] or (s.state ~= 'running' and s.state ~= 'cancelling') then return 'lost' end
if s.state == 'cancelling' and ARGV[5] ~= 'cancelled' then return 'cancelling' end
-- a cancel is committed on the run record before its instances are flagged: an attempt ending in between
-- ends cancelled as if it had been flagged, so a cancelled run never gets a new succeeded or failed record
if ARGV[5] ~= 'cancelled' and KEYS[4] and run_cancelled(KEYS[4]) then
  s.state = 'cancelling'
  save_instance(KEYS[1], ARGV[1], s)
  return 'cancelling'
end
local record, err = ARGV[4], ARGV[7]
-- asked to stop by a cancel that gave a reason (cancel.lua kept it): the record says why, not the holder's generic text
if ARGV[5] == 'cancelled' and s.cancel_reason then
  local r = cjson.decode(record)
  r.error = s.cancel_reason
  record, err = cjson.encode(r), s.cancel_reason
  s.cancel_reason = nil
end
local written = write_record(KEYS[2], ARGV[3], record, tonumber(ARGV[6]))
-- the node's declared growth is replaced with its record (docs/dynamic-graphs.md §8.3): both or neither
if written and KEYS[5] then
  if ARGV[9] ~= '' then redis.call('HSET', KEYS[5], ARGV[8], ARGV[9]) else redis.call('HDEL', KEYS[5], ARGV[8]) end
end
local now, now_us = clock()
append_history(KEYS[3], ARGV[1], s, now, ARGV[5], err)
s.state = ARGV[5]
s.lease = nil
s.ended = now
s.ended_us = now_us
if ARGV[11] == '1' then s.dead_letter = err end
save_instance(KEYS[1], ARGV[1], s)
unindex_lease(KEYS[6], ARGV[10])
return 'ok'
