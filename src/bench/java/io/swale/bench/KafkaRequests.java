package io.swale.bench;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Kafka requests the application sent, counted from JMX. In local mode the broker runs in this JVM and its
 * request meters ({@code kafka.network:type=RequestMetrics,name=RequestsPerSec,request=…}) count every request
 * it served; against a broker elsewhere the application's producers and consumers count their own
 * ({@code request-total}, {@code fetch-total}, {@code commit-total}, {@code record-send-total} of their
 * JmxReporter beans, which Spring Kafka's factories leave on). The bench's own admin requests (the lag
 * sampler's) are taken out.
 */
final class KafkaRequests {

    /** Where the counts come from. */
    enum Source {
        /** The in-process broker's request meters: every client's requests, the application's and the broker's own. */
        BROKER,
        /** The application's producers and consumers in this JVM: their own requests only. */
        CLIENTS;

        String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * Counts since the JVM started. {@code produce} is, from the clients, every request of the producers
     * (their few metadata requests included); {@code records} are records produced.
     */
    record Counts(long produce, long fetch, long offsetCommit, long total, long records) {
        Counts minus(Counts o) {
            return new Counts(produce - o.produce, fetch - o.fetch, offsetCommit - o.offsetCommit, total - o.total,
                    records - o.records);
        }

        long other() {
            return total - produce - fetch - offsetCommit;
        }

        /** How well the producers batched: records written per produce request. */
        double recordsPerProduce() {
            return records / (double) Math.max(1, produce);
        }

        /** The bench's own requests taken out of the others and the total. */
        Counts less(long ownRequests) {
            return new Counts(produce, fetch, offsetCommit, total - ownRequests, records);
        }
    }

    private static final String BROKER_REQUESTS = "kafka.network:type=RequestMetrics,name=RequestsPerSec,*";
    private static final String BROKER_RECORDS = "kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec";

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final Source source;
    private final LongSupplier ownRequests;

    /**
     * @param mode        auto (the broker's meters when this JVM has them, else the clients'), broker or clients
     * @param ownRequests requests the bench itself sends to the broker, counted by its own client
     */
    KafkaRequests(String mode, LongSupplier ownRequests) {
        this.ownRequests = ownRequests;
        this.source = switch (mode) {
            case "auto" -> brokerInThisJvm() ? Source.BROKER : Source.CLIENTS;
            case "broker" -> {
                if (!brokerInThisJvm()) {
                    throw new IllegalArgumentException("--kafka-requests broker: no Kafka broker request metrics in "
                            + "this JVM (the broker runs elsewhere); use auto or clients");
                }
                yield Source.BROKER;
            }
            case "clients" -> Source.CLIENTS;
            default -> throw new IllegalArgumentException("--kafka-requests `" + mode + "`: auto, broker or clients");
        };
    }

    Source source() {
        return source;
    }

    boolean brokerInThisJvm() {
        return !server.queryNames(name(BROKER_REQUESTS), null).isEmpty();
    }

    /** The counts now, less what the bench itself sent. */
    Counts snapshot() {
        long own = ownRequests.getAsLong();
        return (source == Source.BROKER ? broker() : clients()).less(source == Source.BROKER ? own : 0);
    }

    private Counts broker() {
        // one meter per request type (and, in newer brokers, per version): the Count of each, summed by type
        Map<String, Long> byType = new HashMap<>();
        for (ObjectName n : server.queryNames(name(BROKER_REQUESTS), null)) {
            byType.merge(String.valueOf(n.getKeyProperty("request")), count(n, "Count"), Long::sum);
        }
        long records = 0;
        for (ObjectName n : server.queryNames(name(BROKER_RECORDS), null)) {
            records += count(n, "Count");
        }
        return tally(byType, records);
    }

    /**
     * The broker's request counts by meter name, as counts. A fetch is metered twice, as {@code Fetch} and again as
     * {@code FetchConsumer} or {@code FetchFollower} (who sent it): only the first counts.
     */
    static Counts tally(Map<String, Long> byType, long records) {
        long produce = 0, fetch = 0, commit = 0, total = 0;
        for (Map.Entry<String, Long> e : byType.entrySet()) {
            if (e.getKey().equals("FetchConsumer") || e.getKey().equals("FetchFollower")) {
                continue;
            }
            long c = e.getValue();
            switch (e.getKey()) {
                case "Produce" -> produce += c;
                // followers' fetches would count here too; a bench broker has none
                case "Fetch" -> fetch += c;
                case "OffsetCommit" -> commit += c;
                default -> { }
            }
            total += c;
        }
        return new Counts(produce, fetch, commit, total, records);
    }

    private Counts clients() {
        long producerRequests = sum("kafka.producer:type=producer-metrics,client-id=*", "request-total");
        long records = sum("kafka.producer:type=producer-metrics,client-id=*", "record-send-total");
        long consumerRequests = sum("kafka.consumer:type=consumer-metrics,client-id=*", "request-total");
        long fetch = sum("kafka.consumer:type=consumer-fetch-manager-metrics,client-id=*", "fetch-total");
        long commit = sum("kafka.consumer:type=consumer-coordinator-metrics,client-id=*", "commit-total");
        return new Counts(producerRequests, fetch, commit, producerRequests + consumerRequests, records);
    }

    private long sum(String pattern, String attribute) {
        long sum = 0;
        for (ObjectName n : server.queryNames(name(pattern), null)) {
            sum += count(n, attribute);
        }
        return sum;
    }

    private long count(ObjectName n, String attribute) {
        try {
            return server.getAttribute(n, attribute) instanceof Number v ? Math.round(v.doubleValue()) : 0;
        } catch (javax.management.InstanceNotFoundException e) {
            return 0; // a client closed between the query and the read
        } catch (javax.management.JMException e) {
            throw new IllegalStateException("cannot read " + attribute + " of " + n, e);
        }
    }

    private static ObjectName name(String s) {
        try {
            return new ObjectName(s);
        } catch (javax.management.MalformedObjectNameException e) {
            throw new IllegalArgumentException(s, e);
        }
    }
}
