-- KEYS: instances, node records; ARGV: run id, token, record field, record json, status, rerun
local s = load_instance(KEYS[1], ARGV[1])
if not s then return 'unknown' end
if tostring(s.token) ~= ARGV[2] or (s.state ~= 'running' and s.state ~= 'cancelling') then return 'lost' end
if s.state == 'cancelling' and ARGV[5] ~= 'cancelled' then return 'cancelling' end
write_record(KEYS[2], ARGV[3], ARGV[4], tonumber(ARGV[6]))
s.state = ARGV[5]
s.lease = nil
s.ended, s.ended_us = clock()
save_instance(KEYS[1], ARGV[1], s)
return 'ok'
