package io.swale.config;

import java.util.Arrays;
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
    private static final Set<String> SECRET_WORDS = Set.of("password", "passwd", "secret", "credential", "credentials",
            "token", "key");
    // the last word of a name that only describes a secret (where it is, what kind) and holds none
    private static final Set<String> DESCRIBING_WORDS = Set.of("uri", "url", "location", "path", "file", "type", "id",
            "name", "enabled", "required", "alias", "algorithm", "format", "size", "length", "ttl", "timeout");
    private static final Pattern JAAS_PASSWORD = Pattern.compile("password\\s*=\\s*\"([^\"]*)\"");
    private static final Pattern URL_PASSWORD = Pattern.compile("://[^:/@\\s]*:([^@/\\s]+)@");

    private ServiceSecrets() {}

    static Set<String> of(ConfigurableEnvironment environment) {
        Set<String> secrets = new TreeSet<>();
        for (PropertySource<?> source : environment.getPropertySources()) {
            if (!(source instanceof EnumerablePropertySource<?> names)) {
                continue;
            }
            try {
                for (String name : names.getPropertyNames()) {
                    String relaxed = name.toLowerCase(Locale.ROOT).replace('_', '.');
                    Object value = names.getProperty(name);
                    if (value != null && (relaxed.startsWith("swale.") || relaxed.startsWith("spring."))) {
                        collect(relaxed, environment.resolvePlaceholders(value.toString()), secrets);
                    }
                }
            } catch (RuntimeException e) {
                // a composite over a source it cannot list, a circular placeholder: the other sources still count
                log.warn("property source not read for the service's secrets source={} error={}", source.getName(),
                        e.toString());
            }
        }
        secrets.removeIf(s -> s.isBlank() || s.equals("true") || s.equals("false"));
        return Set.copyOf(secrets);
    }

    static boolean isSecretName(String relaxed) {
        List<String> words = Arrays.asList(relaxed.substring(relaxed.lastIndexOf('.') + 1).split("-"));
        return words.stream().anyMatch(SECRET_WORDS::contains) && !DESCRIBING_WORDS.contains(words.getLast());
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
