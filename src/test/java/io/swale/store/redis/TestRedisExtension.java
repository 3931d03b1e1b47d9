package io.swale.store.redis;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;
import redis.clients.jedis.UnifiedJedis;

/**
 * Starts a real Redis before a test class's first {@code @BeforeAll} and stops it after its last {@code @AfterAll}:
 * one redis-server for {@link WithTestRedis}, a 3-primary cluster for {@link WithTestRedisCluster}. A subclass marked
 * for the cluster runs its parent's scenarios there, and no standalone server is started for it. Lifecycle methods
 * and tests take it as a parameter: {@link UnifiedJedis} (either kind), {@link TestRedis} or {@link TestRedisCluster}.
 */
final class TestRedisExtension implements BeforeAllCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(TestRedisExtension.class);
    private static final String KEY = "redis";

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        boolean cluster = AnnotationSupport.isAnnotated(context.getRequiredTestClass(), WithTestRedisCluster.class);
        // the class's store closes its AutoCloseable values after the class's @AfterAll methods
        context.getStore(NAMESPACE).put(KEY, cluster ? TestRedisCluster.start() : TestRedis.start());
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == UnifiedJedis.class || type == TestRedis.class || type == TestRedisCluster.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        Object redis = context.getStore(NAMESPACE).get(KEY);
        return switch (redis) {
            case TestRedis server when type == UnifiedJedis.class -> server.pool;
            case TestRedisCluster cluster when type == UnifiedJedis.class -> cluster.redis;
            case Object started when type.isInstance(started) -> started;
            case null -> throw new ParameterResolutionException("no Redis was started for "
                    + context.getRequiredTestClass().getName() + ": is it marked @WithTestRedis?");
            default -> throw new ParameterResolutionException(context.getRequiredTestClass().getSimpleName() + " runs on "
                    + redis.getClass().getSimpleName() + ", so it cannot take a " + type.getSimpleName());
        };
    }
}
