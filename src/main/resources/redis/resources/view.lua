-- a consistent snapshot of every resource, for the API, the run view and the gauges
return {redis.call('HGETALL', CAP), redis.call('HGETALL', COUNT), redis.call('HGETALL', GRANT),
  redis.call('ZRANGE', DEADLINE, 0, -1, 'WITHSCORES'), redis.call('HGETALL', WAITER), redis.call('TIME')}
