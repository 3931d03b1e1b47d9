package io.swale.local;

import java.io.IOException;
import java.lang.reflect.Field;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.common.utils.Exit;

/**
 * A one-node KRaft broker (combined broker and controller) whose every listener is on 127.0.0.1.
 *
 * <p>Spring's {@code EmbeddedKafkaKraftBroker} cannot do this: its test kit pre-binds each controller's
 * port on the wildcard address (to write {@code controller.quorum.voters} before the node starts), and a
 * {@code listeners} property does not change a socket that is already bound. So this class builds the test
 * kit itself and hands it, before it binds anything, broker and controller sockets already bound to
 * loopback.
 *
 * <p>Because those sockets are bound before the node starts, the broker's address is known at once: local mode
 * hands it to the clients and builds the Spring context while the node starts on a thread of its own. A client
 * that connects meanwhile waits in the listen backlog until the node serves it.
 */
final class LoopbackKraftBroker implements AutoCloseable {
    static final String LOOPBACK = "127.0.0.1";
    /** How long close waits for a start still under way before it closes the node anyway. */
    private static final long CLOSE_AWAITS_START_SECONDS = 60;
    /** How long, at JVM exit, deleting the log directories waits for a node still open. */
    private static final long EXIT_AWAITS_CLOSE_SECONDS = 20;

    /** Nodes of this JVM not closed yet: the test kit's own shutdown hooks wait for them (see below). */
    private static final Set<LoopbackKraftBroker> OPEN = ConcurrentHashMap.newKeySet();

    private final KafkaClusterTestKit cluster;
    private final int brokerPort;
    private final CompletableFuture<Void> started = new CompletableFuture<>();
    private final CompletableFuture<Void> closed = new CompletableFuture<>();

    private LoopbackKraftBroker(KafkaClusterTestKit cluster, int brokerPort) {
        this.cluster = cluster;
        this.brokerPort = brokerPort;
    }

    /** Starts the node with {@code brokerProperties} over the defaults of a one-node cluster, and waits for it. */
    static LoopbackKraftBroker start(int partitions, Map<String, String> brokerProperties) {
        LoopbackKraftBroker broker = starting(partitions, brokerProperties);
        broker.awaitStarted();
        return broker;
    }

    /**
     * Binds the node's sockets and starts it on a daemon thread; {@link #bootstrapServers()} is usable at once,
     * {@link #awaitStarted()} waits for the node to serve.
     */
    static LoopbackKraftBroker starting(int partitions, Map<String, String> brokerProperties) {
        // an embedded broker must never end the JVM it runs in
        Exit.setExitProcedure((status, message) -> {
            throw new IllegalStateException("embedded Kafka called Exit.exit(" + status + ", " + message + ")");
        });
        Exit.setHaltProcedure((status, message) -> {
            throw new IllegalStateException("embedded Kafka called Exit.halt(" + status + ", " + message + ")");
        });
        // The test kit deletes its log directories in a JVM shutdown hook, which runs alongside Spring's: on
        // SIGTERM it would delete them under the running node, which then fails its log directory and logs
        // errors. Such hooks first wait for every node of this JVM to close.
        Exit.setShutdownHookAdder((name, hook) -> Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            awaitAllClosed();
            hook.run();
        }, name)));
        TestKitNodes nodes = new TestKitNodes.Builder().setCombined(true).setNumBrokerNodes(1)
                .setNumControllerNodes(1).build();
        String broker = nodes.brokerListenerName().value();
        String controller = nodes.controllerListenerName().value();
        Map<String, String> props = new HashMap<>();
        props.put("delete.topic.enable", "true");
        props.put("offsets.topic.replication.factor", "1");
        props.put("num.partitions", Integer.toString(partitions));
        props.putAll(brokerProperties);
        props.put("listeners", broker + "://" + LOOPBACK + ":0," + controller + "://" + LOOPBACK + ":0");
        KafkaClusterTestKit.Builder builder = new KafkaClusterTestKit.Builder(nodes);
        props.forEach(builder::setConfigProp);
        KafkaClusterTestKit cluster;
        int brokerPort;
        try {
            brokerPort = preboundOnLoopback(builder, nodes, broker, controller);
            cluster = builder.build();
        } catch (Exception e) {
            throw new IllegalStateException("cannot create the embedded Kafka node", e);
        }
        LoopbackKraftBroker node = new LoopbackKraftBroker(cluster, brokerPort);
        OPEN.add(node);
        Thread starter = new Thread(node::startNode, "swale-embedded-kafka-start");
        starter.setDaemon(true);
        starter.start();
        return node;
    }

    private void startNode() {
        try {
            cluster.format();
            cluster.startup();
            cluster.waitForReadyBrokers();
            started.complete(null);
        } catch (Throwable e) {
            closeQuietly(cluster);
            markClosed();
            started.completeExceptionally(e);
        }
    }

    private void markClosed() {
        OPEN.remove(this);
        closed.complete(null);
    }

    private static void awaitAllClosed() {
        for (LoopbackKraftBroker node : OPEN) {
            try {
                node.closed.get(EXIT_AWAITS_CLOSE_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException | TimeoutException e) {
                // exiting regardless: delete what the node left
            }
        }
    }

    /** Blocks until the node serves; throws if it could not start. */
    void awaitStarted() {
        try {
            started.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the embedded Kafka node was starting", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot start the embedded Kafka node", e.getCause());
        }
    }

    /** Runs {@code action} once the node serves (on the starting thread, or at once if it already does). */
    void whenStarted(Runnable action) {
        started.thenRun(action);
    }

    String bootstrapServers() {
        return LOOPBACK + ":" + brokerPort;
    }

    @Override
    public void close() {
        try {
            // closing a node half-way through its start races its own threads: let the start end first
            started.get(CLOSE_AWAITS_START_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            return; // the failed start closed the node already
        } catch (TimeoutException e) {
            // close below stops what did start
        }
        try {
            cluster.close();
        } catch (Exception e) {
            throw new IllegalStateException("the embedded Kafka node did not shut down cleanly", e);
        } finally {
            markClosed();
        }
    }

    /**
     * Puts a loopback-bound socket for each controller and broker listener into the test kit's socket manager,
     * which then uses it instead of binding one on the wildcard address. Reflection, because the kit has no option for it.
     * Returns the port of the (one) broker listener.
     */
    @SuppressWarnings("unchecked")
    private static int preboundOnLoopback(KafkaClusterTestKit.Builder builder, TestKitNodes nodes, String broker,
            String controller) throws ReflectiveOperationException, IOException {
        Object manager = field(builder.getClass(), "socketFactoryManager").get(builder);
        var sockets = (Map<Integer, Map<String, ServerSocketChannel>>) field(manager.getClass(), "sockets").get(manager);
        for (int id : nodes.controllerNodes().keySet()) {
            sockets.computeIfAbsent(id, k -> new HashMap<>()).put(controller, loopbackSocket());
        }
        int brokerPort = -1;
        for (int id : nodes.brokerNodes().keySet()) {
            ServerSocketChannel socket = loopbackSocket();
            brokerPort = socket.socket().getLocalPort();
            sockets.computeIfAbsent(id, k -> new HashMap<>()).put(broker, socket);
        }
        return brokerPort;
    }

    private static ServerSocketChannel loopbackSocket() throws IOException {
        // as Kafka's own ServerSocketFactory opens them: non-blocking, for its acceptor's selector
        ServerSocketChannel socket = ServerSocketChannel.open();
        socket.configureBlocking(false);
        socket.socket().setReuseAddress(true);
        socket.bind(new InetSocketAddress(InetAddress.getByName(LOOPBACK), 0));
        return socket;
    }

    private static Field field(Class<?> type, String name) throws NoSuchFieldException {
        Field f = type.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }

    private static void closeQuietly(KafkaClusterTestKit cluster) {
        try {
            cluster.close();
        } catch (Exception ignored) {
            // already failing to start; the start error is the one to report
        }
    }
}
