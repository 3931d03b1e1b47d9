package io.swale.store.redis;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/** The test class runs on a real 3-primary Redis Cluster of its own, even when a parent is {@link WithTestRedis}. */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@ExtendWith(TestRedisExtension.class)
@interface WithTestRedisCluster {}
