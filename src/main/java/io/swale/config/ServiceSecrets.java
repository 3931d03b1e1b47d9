package io.swale.config;

import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;

/**
 * The secret values of the service's own configuration, which no task may see in its environment whatever the
 * variable that holds them is called: each {@code swale.*} or {@code spring.*} property (or its environment
 * variable) whose name says password, token, secret or credential; the password of a JAAS configuration; and the
 * password in the user info of a URL-valued property ({@code redis://:pw@host}).
 */
final class ServiceSecrets {
    private static final Pattern SECRET_NAME = Pattern.compile(".*(password|passwd|token|secret|credential).*");
    private static final Pattern JAAS_PASSWORD = Pattern.compile("password\\s*=\\s*\"([^\"]*)\"");
    private static final Pattern URL_PASSWORD = Pattern.compile("://[^:/@\\s]*:([^@/\\s]+)@");

    private ServiceSecrets() {}

    static Set<String> of(ConfigurableEnvironment environment) {
        Set<String> secrets = new TreeSet<>();
        for (PropertySource<?> source : environment.getPropertySources()) {
            if (source instanceof EnumerablePropertySource<?> names) {
                for (String name : names.getPropertyNames()) {
                    String relaxed = name.toLowerCase(Locale.ROOT).replace('_', '.');
                    Object value = names.getProperty(name);
                    if (value != null && (relaxed.startsWith("swale.") || relaxed.startsWith("spring."))) {
                        collect(relaxed, environment.resolvePlaceholders(value.toString()), secrets);
                    }
                }
            }
        }
        return Set.copyOf(secrets);
    }

    private static void collect(String name, String value, Set<String> secrets) {
        if (name.contains("jaas")) {
            Matcher m = JAAS_PASSWORD.matcher(value);
            while (m.find()) {
                secrets.add(m.group(1));
            }
        } else if (SECRET_NAME.matcher(name).matches()) {
            secrets.add(value);
        }
        Matcher url = URL_PASSWORD.matcher(value);
        while (url.find()) {
            secrets.add(url.group(1));
        }
        secrets.removeIf(String::isBlank);
    }
}
