package io.swale.local;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.MapPropertySource;

/** Local mode in a jar built with -Pslim, which has neither the embedded broker nor redis-server. */
class LocalModeInitializerTest {

    /** Hides the embedded broker's and redis-server's classes, as the slim jar does. */
    private static final class SlimClassLoader extends ClassLoader {
        SlimClassLoader(ClassLoader parent) {
            super(parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith("org.springframework.kafka.test.") || name.startsWith("redis.embedded.")) {
                throw new ClassNotFoundException(name);
            }
            return super.loadClass(name, resolve);
        }
    }

    @Test
    void localModeWithoutTheEmbeddedClassesStopsTheStartWithAMessage() {
        try (GenericApplicationContext context = new GenericApplicationContext()) {
            context.setClassLoader(new SlimClassLoader(getClass().getClassLoader()));
            context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test", Map.of("swale.embedded", "true")));

            assertThatThrownBy(() -> new LocalModeInitializer().initialize(context))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("-Pslim")
                    .hasMessageContaining("spring.kafka.bootstrap-servers")
                    .hasMessageContaining("org.springframework.kafka.test.EmbeddedKafkaKraftBroker");
        }
    }

    @Test
    void theDefaultBuildHasThem() {
        assertThatCode(() -> LocalModeInitializer.requireEmbeddedClasses(getClass().getClassLoader()))
                .doesNotThrowAnyException();
    }
}
