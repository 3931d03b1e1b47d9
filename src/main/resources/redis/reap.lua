-- KEYS: instances, attempt history, leases; ARGV: run id, lease member. An expired lease: dispatch again while
-- attempts remain. A cancelled or exhausted one keeps its lease entry until its caller's finish commits.
-- The caller ends a cancelled or exhausted instance with a token of its own: of two reapers that both found the
-- lease over (the lease reaper and a reconciler pass), only the later one's finish commits, so one record, event
-- and dead letter follow, where a shared token let both finishes count as committed.
local function own_token(s)
  s.token = s.token + 1
  save_instance(KEYS[1], ARGV[1], s)
  return tostring(s.token)
end
local s = load_instance(KEYS[1], ARGV[1])
if not s or (s.state ~= 'running' and s.state ~= 'cancelling') then return { 'none' } end
local now = now_ms()
if s.lease and s.lease > now then return { 'none' } end
if s.state == 'cancelling' then return { 'cancel', own_token(s) } end
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
return { 'exhausted', own_token(s) }
