package io.swale.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.SwaleApplication;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Local mode opens no port to the network: every TCP socket that starting the service puts in LISTEN — HTTP,
 * the Kafka broker and its controller in this JVM, redis-server in a child process — is on 127.0.0.1.
 * Read from /proc: a LISTEN socket of {@code /proc/net/tcp(6)} belongs to a process when one of the
 * process's file descriptors links to {@code socket:[inode]}.
 */
class LoopbackListenersIT {
    /** Listening sockets: the local address as written in /proc/net/tcp(6) (hex, kernel byte order). */
    record Listener(String localAddress, long inode, String process) {
        boolean isLoopback() {
            String ip = localAddress.substring(0, localAddress.indexOf(':'));
            // 127.0.0.1 is 0100007F; ::1 is 00000000000000000000000001000000; ::ffff:127.0.0.1 (an IPv6
            // socket bound to 127.0.0.1, as Tomcat's) is 0000000000000000FFFF00000100007F
            return ip.equals("0100007F") || ip.equals("00000000000000000000000001000000")
                    || ip.equals("0000000000000000FFFF00000100007F");
        }

        int port() {
            return Integer.parseInt(localAddress.substring(localAddress.indexOf(':') + 1), 16);
        }
    }

    @Test
    void everyListenerOfLocalModeIsOnLoopback() throws Exception {
        Set<Listener> before = listenersOfThisProcessTree();
        try (ConfigurableApplicationContext app = SpringApplication.run(SwaleApplication.class,
                "--server.port=0", "--swale.examples=", "--spring.jmx.enabled=false")) {
            Set<Listener> opened = new HashSet<>(listenersOfThisProcessTree());
            opened.removeAll(before);
            // HTTP, the broker, the controller and redis-server at least
            assertThat(opened).hasSizeGreaterThanOrEqualTo(4);
            assertThat(opened).allSatisfy(l -> assertThat(l.isLoopback())
                    .as("port %d of %s listens on %s", l.port(), l.process(), l.localAddress()).isTrue());
            int http = Integer.parseInt(app.getEnvironment().getRequiredProperty("local.server.port"));
            assertThat(opened).extracting(Listener::port).contains(http);
            // the broker started while the beans were built; the gate that waits for it must come first
            assertThat(Stream.of(app.getBeanDefinitionNames()).filter(n -> !n.startsWith("org.springframework")))
                    .first().isEqualTo(EmbeddedKafkaGate.BEAN_NAME);
            // redis-server started alongside them too; the gate that holds back its clients must be in place
            assertThat(((org.springframework.beans.factory.support.AbstractBeanFactory) app.getBeanFactory())
                    .getBeanPostProcessors()).hasAtLeastOneElementOfType(EmbeddedRedisGate.class);
        }
    }

    private static Set<Listener> listenersOfThisProcessTree() throws IOException {
        Map<Long, String> inodes = new HashMap<>();
        List<ProcessHandle> processes = Stream.concat(Stream.of(ProcessHandle.current()),
                ProcessHandle.current().descendants()).toList();
        for (ProcessHandle p : processes) {
            String name = p.pid() + " " + p.info().command().orElse("?");
            socketInodes(p.pid()).forEach(inode -> inodes.put(inode, name));
        }
        Set<Listener> out = new HashSet<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path path = Path.of(table);
            if (!Files.exists(path)) {
                continue;
            }
            // one read: the table changes between reads while other tests open and close sockets
            List<String> lines = Files.readAllLines(path);
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.strip().split("\\s+");
                // f[1] local address, f[3] state (0A is LISTEN), f[9] inode
                long inode = Long.parseLong(f[9]);
                if (f[3].equals("0A") && inodes.containsKey(inode)) {
                    out.add(new Listener(f[1], inode, inodes.get(inode)));
                }
            }
        }
        return out;
    }

    private static Set<Long> socketInodes(long pid) {
        Set<Long> inodes = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            fds.forEach(fd -> {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(Long.parseLong(target.substring("socket:[".length(), target.length() - 1)));
                    }
                } catch (IOException gone) {
                    // closed while listing
                }
            });
        } catch (IOException gone) {
            // the process ended
        }
        return inodes;
    }
}
