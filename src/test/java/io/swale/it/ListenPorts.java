package io.swale.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for processes that a test starts, kills and starts again on the same port. A port the kernel hands out
 * (bind to 0) lies in its ephemeral range, from which every outbound connection of every client on the host also
 * takes its local port: between the choice and a (re)start, a Kafka or Redis client may hold it, and the process
 * fails to start (seen: "Port 33013 was already in use"). These come from below that range instead.
 */
final class ListenPorts {
    private static final int LOWEST = 10_000;
    private static final Set<Integer> GIVEN = ConcurrentHashMap.newKeySet();

    private ListenPorts() {}

    /** A loopback port free now, below the ephemeral range, and not given out before by this JVM. */
    static int free() {
        int ephemeralLow = ephemeralLow();
        for (int tries = 0; tries < 500 && ephemeralLow - LOWEST > 1_000; tries++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST, ephemeralLow);
            if (!GIVEN.contains(port) && bindable(port) && GIVEN.add(port)) {
                return port;
            }
        }
        // no room below the range: the kernel's choice, with the race described above
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            GIVEN.add(s.getLocalPort());
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean bindable(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The first port of the kernel's ephemeral range (Linux), else the IANA one's. */
    private static int ephemeralLow() {
        try {
            String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim();
            return Integer.parseInt(range.split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 49_152;
        }
    }
}
