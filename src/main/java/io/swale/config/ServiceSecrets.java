package io.swale.config;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;

/**
 * The secret values of the service's own configuration, which no task may see in its environment whatever the
 * variable that holds them is called: each {@code swale.*} or {@code spring.*} property (or its environment
 * variable) whose name says password, secret, credential, token or key (not a {@code token-uri} or a
 * {@code key-store-type}); and a JAAS configuration or a URL that holds a password, both that password and the
 * whole value ({@code redis://:pw@host}).
 */
final class ServiceSecrets {
    private static final Logger log = LoggerFactory.getLogger(ServiceSecrets.class);
    private static final List<String> SECRET_WORDS = List.of("password", "passwd", "passphrase", "pwd", "secret", "credential",
            "token");
    // the end of a name that only describes a secret (where it is, what kind) or is no secret at all
    private static final List<String> DESCRIBING_ENDS = List.of("uri", "url", "location", "path", "file", "type", "id",
            "name", "enabled", "required", "alias", "algorithm", "format", "size", "length", "ttl", "timeout", "prefix",
            "serializer", "deserializer", "live", "validity", "expiry", "expiration", "duration", "period", "header");
    private static final Pattern JAAS_PASSWORD = Pattern.compile("password\\s*=\\s*\"([^\"]*)\"");
    private static final Pattern URL_PASSWORD = Pattern.compile("://[^:/@\\s]*:([^@/\\s]+)@");

    private ServiceSecrets() {}

    static Set<String> of(ConfigurableEnvironment environment) {
        Set<String> secrets = new TreeSet<>();
        for (PropertySource<?> source : environment.getPropertySources()) {
            if (!(source instanceof EnumerablePropertySource<?> names)) {
                continue;
            }
            String[] all;
            try {
                all = names.getPropertyNames();
            } catch (RuntimeException e) {
                // a composite over a source it cannot list: the other sources still count
                log.warn("property source not read for the service's secrets source={} error={}", source.getName(),
                        e.toString());
                continue;
            }
            for (String name : all) {
                String relaxed = name.toLowerCase(Locale.ROOT).replace('_', '.');
                if (relaxed.startsWith("swale.") || relaxed.startsWith("spring.")) {
                    try {
                        Object value = names.getProperty(name);
                        if (value != null) {
                            collect(relaxed, environment.resolvePlaceholders(value.toString()), secrets);
                        }
                    } catch (RuntimeException e) {
                        // a circular placeholder: this property only, never the ones after it
                        log.warn("property not read for the service's secrets name={} error={}", name, e.toString());
                    }
                }
            }
        }
        secrets.removeIf(s -> s.isBlank() || s.equals("true") || s.equals("false"));
        return Set.copyOf(secrets);
    }

    /**
     * Whether the last part of a property's name says it holds a secret, in any of Spring's spellings of it
     * ({@code key-store-password}, {@code keyStorePassword}, {@code KEYSTOREPASSWORD}): a secret word in it, or a
     * key at its end ({@code key-store-key}, {@code api-key}), unless it ends with a word that only describes one.
     */
    static boolean isSecretName(String relaxed) {
        String last = relaxed.substring(relaxed.lastIndexOf('.') + 1).replace("-", "");
        return (SECRET_WORDS.stream().anyMatch(last::contains) || last.endsWith("key"))
                && DESCRIBING_ENDS.stream().noneMatch(last::endsWith);
    }

    private static void collect(String name, String value, Set<String> secrets) {
        if (isSecretName(name)) {
            secrets.add(value);
        }
        Matcher jaas = JAAS_PASSWORD.matcher(value);
        boolean holds = false;
        while (name.contains("jaas") && jaas.find()) {
            secrets.add(jaas.group(1));
            holds = true;
        }
        Matcher url = URL_PASSWORD.matcher(value);
        while (url.find()) {
            secrets.add(url.group(1));
            holds = true;
        }
        if (holds) {
            // a short password matches only a whole value: the value it sits in is what a variable may copy
            secrets.add(value);
        }
    }
}
