-- KEYS: a graph's run index, the set of graphs with runs (one slot); ARGV: graph. Forgets a graph with no run left.
if redis.call('ZCARD', KEYS[1]) == 0 then
  return redis.call('SREM', KEYS[2], ARGV[1])
end
return 0
