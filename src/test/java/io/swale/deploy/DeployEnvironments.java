package io.swale.deploy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The environment a container of Swale would get, read from the deploy files themselves: the image's
 * {@code ENV} (Dockerfile), then a Kubernetes Deployment rendered by Helm (envFrom, env, secretKeyRef,
 * configMapKeyRef, fieldRef, {@code $(VAR)} expansion, as the kubelet resolves them) or a
 * docker-compose service ({@code environment} with {@code ${VAR:-default}} interpolation).
 */
final class DeployEnvironments {
    private DeployEnvironments() {}

    static final Path ROOT = Path.of("").toAbsolutePath();

    // ---- helm --------------------------------------------------------------------------------------

    /** The helm that scripts/check-deploy.sh installs, or empty when it is not there. */
    static Optional<Path> helm() {
        String explicit = firstNonBlank(System.getProperty("swale.helm"), System.getenv("SWALE_HELM"));
        if (explicit != null) {
            return Optional.of(Path.of(explicit)).filter(Files::isExecutable);
        }
        String cache = System.getenv("SWALE_CI_CACHE");
        if (cache == null) {
            String xdg = System.getenv("XDG_CACHE_HOME");
            String base = xdg != null && !xdg.isBlank() ? xdg : System.getProperty("user.home") + "/.cache";
            cache = base + "/swale-ci";
        }
        return Optional.of(Path.of(cache, "bin", "helm")).filter(Files::isExecutable);
    }

    /** {@code helm template <release> helm/swale <args>}, parsed into objects. */
    static List<Map<String, Object>> helmTemplate(Path helm, String release, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(helm.toString(), "template", release, ROOT.resolve("helm/swale").toString()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile("swale-helm", ".yaml");
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("helm template did not finish in 120 s");
            }
            String text = Files.readString(out);
            if (p.exitValue() != 0) {
                throw new IllegalStateException("helm template failed: " + text);
            }
            List<Map<String, Object>> docs = new ArrayList<>();
            for (Object doc : yaml().loadAll(text)) {
                if (doc instanceof Map<?, ?> m) {
                    docs.add(cast(m));
                }
            }
            return docs;
        } finally {
            Files.deleteIfExists(out);
        }
    }

    static Map<String, Object> object(List<Map<String, Object>> docs, String kind, String name) {
        return docs.stream()
                .filter(d -> kind.equals(d.get("kind")) && name.equals(map(d, "metadata").get("name")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("the chart renders no " + kind + " " + name));
    }

    static Map<String, Object> container(Map<String, Object> deployment) {
        Map<String, Object> pod = map(map(map(deployment, "spec"), "template"), "spec");
        return list(pod, "containers").getFirst();
    }

    /** The variables the kubelet would give the Deployment's first container, over the image's ENV. */
    static Map<String, String> podEnvironment(List<Map<String, Object>> docs, Map<String, Object> deployment, Map<String, String> imageEnv) {
        Map<String, Object> c = container(deployment);
        Map<String, String> env = new LinkedHashMap<>(imageEnv);
        for (Map<String, Object> from : list(c, "envFrom")) {
            String prefix = String.valueOf(from.getOrDefault("prefix", ""));
            Map<String, Object> ref = from.containsKey("configMapRef") ? map(from, "configMapRef") : map(from, "secretRef");
            String kind = from.containsKey("configMapRef") ? "ConfigMap" : "Secret";
            Optional<Map<String, String>> data = data(docs, kind, (String) ref.get("name"));
            if (data.isEmpty() && !Boolean.TRUE.equals(ref.get("optional"))) {
                throw new AssertionError("envFrom names " + kind + " " + ref.get("name") + ", which the chart does not render");
            }
            data.ifPresent(d -> d.forEach((k, v) -> env.put(prefix + k, v)));
        }
        for (Map<String, Object> var : list(c, "env")) {
            String name = (String) var.get("name");
            if (var.containsKey("valueFrom")) {
                resolve(docs, deployment, map(var, "valueFrom"), name).ifPresent(v -> env.put(name, v));
            } else {
                env.put(name, expand(String.valueOf(var.getOrDefault("value", "")), env));
            }
        }
        return env;
    }

    private static Optional<String> resolve(List<Map<String, Object>> docs, Map<String, Object> deployment, Map<String, Object> from,
            String name) {
        for (String kind : List.of("secretKeyRef", "configMapKeyRef")) {
            if (from.containsKey(kind)) {
                Map<String, Object> ref = map(from, kind);
                Optional<String> value = data(docs, kind.startsWith("secret") ? "Secret" : "ConfigMap", (String) ref.get("name"))
                        .map(d -> d.get((String) ref.get("key")));
                if (value.isEmpty() && !Boolean.TRUE.equals(ref.get("optional"))) {
                    throw new AssertionError("env " + name + " needs key " + ref.get("key") + " of " + ref.get("name")
                            + ", which the chart does not render: the pod would not start");
                }
                return value;
            }
        }
        if (from.containsKey("fieldRef")) {
            String path = (String) map(from, "fieldRef").get("fieldPath");
            String podName = map(deployment, "metadata").get("name") + "-0";
            return Optional.of(switch (path) {
                case "metadata.name" -> podName;
                case "metadata.namespace" -> "swale";
                case "status.podIP", "status.hostIP" -> "127.0.0.1";
                case "spec.nodeName" -> "node-0";
                default -> throw new AssertionError("fieldRef " + path + " is not emulated by this test");
            });
        }
        throw new AssertionError("env " + name + ": valueFrom " + from.keySet() + " is not emulated by this test");
    }

    private static Optional<Map<String, String>> data(List<Map<String, Object>> docs, String kind, String name) {
        return docs.stream()
                .filter(d -> kind.equals(d.get("kind")) && name.equals(map(d, "metadata").get("name")))
                .findFirst()
                .map(d -> {
                    Map<String, String> out = new LinkedHashMap<>();
                    map(d, "data").forEach((k, v) -> out.put(k, "Secret".equals(kind)
                            ? new String(Base64.getDecoder().decode(String.valueOf(v)), StandardCharsets.UTF_8)
                            : String.valueOf(v)));
                    map(d, "stringData").forEach((k, v) -> out.put(k, String.valueOf(v)));
                    return out;
                });
    }

    private static final Pattern KUBE_REF = Pattern.compile("\\$\\$|\\$\\(([-._a-zA-Z][-._a-zA-Z0-9]*)\\)");

    /** Kubernetes' $(VAR) expansion: defined variables are replaced, others stay, $$ is a $. */
    static String expand(String value, Map<String, String> defined) {
        Matcher m = KUBE_REF.matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String replacement = m.group(1) == null ? "$" : defined.getOrDefault(m.group(1), m.group());
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        return m.appendTail(out).toString();
    }

    // ---- docker ------------------------------------------------------------------------------------

    /** The ENV of the Dockerfile's last stage. */
    static Map<String, String> imageEnvironment() throws IOException {
        List<String> lines = Files.readAllLines(ROOT.resolve("Dockerfile"));
        List<String> instructions = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : lines) {
            if (current.isEmpty() && (line.isBlank() || line.stripLeading().startsWith("#"))) {
                continue;
            }
            if (line.endsWith("\\")) {
                current.append(line, 0, line.length() - 1).append(' ');
            } else {
                instructions.add(current.append(line).toString().strip());
                current.setLength(0);
            }
        }
        Map<String, String> env = new LinkedHashMap<>();
        for (String instruction : instructions) {
            if (instruction.regionMatches(true, 0, "FROM ", 0, 5)) {
                env.clear();
            } else if (instruction.regionMatches(true, 0, "ENV ", 0, 4)) {
                Matcher m = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)=(\"((?:[^\"\\\\]|\\\\.)*)\"|\\S*)").matcher(instruction.substring(4));
                while (m.find()) {
                    env.put(m.group(1), m.group(3) != null ? m.group(3).replaceAll("\\\\(.)", "$1") : m.group(2));
                }
            }
        }
        return env;
    }

    /** A docker-compose service's variables over the image's ENV, interpolated with their defaults. */
    static Map<String, String> composeEnvironment(String service, Map<String, String> imageEnv) throws IOException {
        Map<String, Object> compose = cast((Map<?, ?>) yaml().load(Files.readString(ROOT.resolve("docker-compose.yml"))));
        Map<String, Object> svc = map(map(compose, "services"), service);
        if (svc.isEmpty()) {
            throw new AssertionError("docker-compose.yml has no service " + service);
        }
        Map<String, String> env = new LinkedHashMap<>(imageEnv);
        Object environment = svc.get("environment");
        if (environment instanceof Map<?, ?> m) {
            m.forEach((k, v) -> env.put(String.valueOf(k), interpolate(v == null ? "" : String.valueOf(v))));
        } else if (environment instanceof List<?> l) {
            for (Object item : l) {
                String[] kv = String.valueOf(item).split("=", 2);
                env.put(kv[0], interpolate(kv.length > 1 ? kv[1] : ""));
            }
        }
        return env;
    }

    /** The compose service's health check, as one string. */
    static String composeHealthcheck(String service) throws IOException {
        Map<String, Object> compose = cast((Map<?, ?>) yaml().load(Files.readString(ROOT.resolve("docker-compose.yml"))));
        Object test = map(map(map(compose, "services"), service), "healthcheck").get("test");
        return test instanceof List<?> l ? String.join(" ", l.stream().map(String::valueOf).toList()) : String.valueOf(test);
    }

    private static final Pattern COMPOSE_REF = Pattern.compile("\\$\\$|\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?-)([^}]*))?}|\\$([A-Za-z_][A-Za-z0-9_]*)");

    /** Compose interpolation of an unset variable: its default, or empty. */
    static String interpolate(String value) {
        Matcher m = COMPOSE_REF.matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String replacement = m.group().equals("$$") ? "$" : m.group(3) != null ? m.group(3) : "";
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        return m.appendTail(out).toString();
    }

    // ---- yaml helpers ------------------------------------------------------------------------------

    private static Yaml yaml() {
        return new Yaml(new SafeConstructor(new LoaderOptions()));
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> cast(Map<?, ?> m) {
        return (Map<String, Object>) m;
    }

    static Map<String, Object> map(Map<String, Object> m, String key) {
        return m.get(key) instanceof Map<?, ?> child ? cast(child) : Map.of();
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> list(Map<String, Object> m, String key) {
        return m.get(key) instanceof List<?> l ? (List<Map<String, Object>>) l : List.of();
    }

    private static String firstNonBlank(String... values) {
        for (String v : values) {
            if (v != null && !v.isBlank()) {
                return v;
            }
        }
        return null;
    }
}
