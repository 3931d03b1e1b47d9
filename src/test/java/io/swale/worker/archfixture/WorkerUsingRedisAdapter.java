package io.swale.worker.archfixture;

import io.swale.store.redis.RedisTaskStore;

/** Breaks the adapters-point-inwards rule on purpose: the worker naming a Redis adapter class. */
public final class WorkerUsingRedisAdapter {
    public static Class<?> store() {
        return RedisTaskStore.class;
    }
}
