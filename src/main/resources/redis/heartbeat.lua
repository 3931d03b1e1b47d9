-- KEYS: instances, leases; ARGV: run id, token, lease ms (0 = only read the cancel flag), lease member
local s = load_instance(KEYS[1], ARGV[1])
if not s or tostring(s.token) ~= ARGV[2] or (s.state ~= 'running' and s.state ~= 'cancelling') then
  return 'lost'
end
if tonumber(ARGV[3]) > 0 then
  s.lease = now_ms() + tonumber(ARGV[3])
  save_instance(KEYS[1], ARGV[1], s)
  index_lease(KEYS[2], ARGV[4], s.lease)
end
return s.state
