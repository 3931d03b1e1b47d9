-- KEYS: instances, attempt history, leases; ARGV: run id, lease member. An expired lease: dispatch again while
-- attempts remain. A cancelled or exhausted one keeps its lease entry until its caller's finish commits.
local s = load_instance(KEYS[1], ARGV[1])
if not s or (s.state ~= 'running' and s.state ~= 'cancelling') then return { 'none' } end
local now = now_ms()
if s.lease and s.lease > now then return { 'none' } end
if s.state == 'cancelling' then return { 'cancel', tostring(s.token) } end
if s.attempt < s.max then
  local err = 'the lease of attempt ' .. s.attempt .. ' expired'
  append_history(KEYS[2], ARGV[1], s, now, 'lease_expired', err)
  s.state = 'pending'
  s.lease = nil
  s.dispatched = now
  s.redispatches = nil
  s.token = s.token + 1
  s.err = err
  save_instance(KEYS[1], ARGV[1], s)
  unindex_lease(KEYS[3], ARGV[2])
  return { 'redispatch' }
end
return { 'exhausted', tostring(s.token) }
