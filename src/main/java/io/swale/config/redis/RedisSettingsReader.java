package io.swale.config.redis;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.core.env.Environment;

/**
 * Reads {@code spring.data.redis.*} from the environment the way Boot binds it (relaxed names, environment
 * variables such as {@code SPRING_DATA_REDIS_SENTINEL_MASTER}), and checks it.
 */
public final class RedisSettingsReader {

    private RedisSettingsReader() {
    }

    /** The names of every Redis property given, in Boot's canonical form (old {@code spring.redis.*} too). */
    public static Set<String> givenNames(Environment env) {
        Set<String> names = new TreeSet<>();
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(env)) {
            if (source instanceof IterableConfigurationPropertySource iterable) {
                iterable.stream().map(Object::toString).filter(RedisPropertyRules::isRedisProperty)
                        .forEach(names::add);
            }
        }
        return names;
    }

    /** The checked settings, or an {@link InvalidRedisSettingsException} naming each refused property. */
    public static RedisConnectionSettings read(Environment env) {
        Set<String> names = givenNames(env);
        // refused names first: a Lettuce or misspelt name may not even bind
        List<String> refused = RedisPropertyRules.refusals(names);
        if (!refused.isEmpty()) {
            throw new InvalidRedisSettingsException(refused);
        }
        DataRedisProperties props = Binder.get(env).bind("spring.data.redis", DataRedisProperties.class)
                .orElseGet(DataRedisProperties::new);
        return RedisTopologyParser.parse(props, names);
    }
}
