package io.swale.local;

import java.io.IOException;
import java.lang.reflect.Field;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.util.HashMap;
import java.util.Map;
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
 */
final class LoopbackKraftBroker implements AutoCloseable {
    static final String LOOPBACK = "127.0.0.1";

    private final KafkaClusterTestKit cluster;

    private LoopbackKraftBroker(KafkaClusterTestKit cluster) {
        this.cluster = cluster;
    }

    /** Starts the node with {@code brokerProperties} over the defaults of a one-node cluster. */
    static LoopbackKraftBroker start(int partitions, Map<String, String> brokerProperties) {
        // an embedded broker must never end the JVM it runs in
        Exit.setExitProcedure((status, message) -> {
            throw new IllegalStateException("embedded Kafka called Exit.exit(" + status + ", " + message + ")");
        });
        Exit.setHaltProcedure((status, message) -> {
            throw new IllegalStateException("embedded Kafka called Exit.halt(" + status + ", " + message + ")");
        });
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
        try {
            preboundOnLoopback(builder, nodes, broker, controller);
            cluster = builder.build();
        } catch (Exception e) {
            throw new IllegalStateException("cannot create the embedded Kafka node", e);
        }
        try {
            cluster.format();
            cluster.startup();
            cluster.waitForReadyBrokers();
        } catch (Exception e) {
            closeQuietly(cluster);
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("cannot start the embedded Kafka node", e);
        }
        return new LoopbackKraftBroker(cluster);
    }

    String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    @Override
    public void close() {
        try {
            cluster.close();
        } catch (Exception e) {
            throw new IllegalStateException("the embedded Kafka node did not shut down cleanly", e);
        }
    }

    /**
     * Puts a loopback-bound socket for each controller and broker listener into the test kit's socket manager,
     * which then uses it instead of binding one on the wildcard address. Reflection, because the kit has no option for it.
     */
    @SuppressWarnings("unchecked")
    private static void preboundOnLoopback(KafkaClusterTestKit.Builder builder, TestKitNodes nodes, String broker,
            String controller) throws ReflectiveOperationException, IOException {
        Object manager = field(builder.getClass(), "socketFactoryManager").get(builder);
        var sockets = (Map<Integer, Map<String, ServerSocketChannel>>) field(manager.getClass(), "sockets").get(manager);
        for (int id : nodes.controllerNodes().keySet()) {
            sockets.computeIfAbsent(id, k -> new HashMap<>()).put(controller, loopbackSocket());
        }
        for (int id : nodes.brokerNodes().keySet()) {
            sockets.computeIfAbsent(id, k -> new HashMap<>()).put(broker, loopbackSocket());
        }
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
