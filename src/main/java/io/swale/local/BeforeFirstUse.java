package io.swale.local;

import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Runs {@code await} before a bean of {@code type} is initialised, and so before any other bean can be handed
 * it: how local mode holds back the first use of a server that is still starting on a thread of its own.
 */
final class BeforeFirstUse implements BeanPostProcessor {
    private final Class<?> type;
    private final Runnable await;

    BeforeFirstUse(Class<?> type, Runnable await) {
        this.type = type;
        this.await = await;
    }

    @Override
    public Object postProcessBeforeInitialization(Object bean, String beanName) {
        if (type.isInstance(bean)) {
            await.run();
        }
        return bean;
    }
}
