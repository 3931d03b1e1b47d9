// Publishes trigger messages for an hourly graph at a steady rate: each message starts `per` partitions.
// usage: java -cp kafka-clients.jar:... Triggers.java BOOTSTRAP TOPIC GRAPH RUNS_PER_S SECONDS PER_MESSAGE
import java.time.*;
import java.time.format.DateTimeFormatter;
import java.util.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.serialization.*;

public class Triggers {
    public static void main(String[] a) throws Exception {
        String bootstrap = a[0], topic = a[1], graph = a[2];
        int runsPerS = Integer.parseInt(a[3]), seconds = Integer.parseInt(a[4]), per = Integer.parseInt(a[5]);
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("acks", "all");
        p.put("linger.ms", "5");
        try (var producer = new KafkaProducer<String, String>(p, new StringSerializer(), new StringSerializer())) {
            DateTimeFormatter f = DateTimeFormatter.ofPattern("yyyyMMdd'T'HH");
            LocalDateTime hour = LocalDateTime.of(1990, 1, 1, 0, 0);
            long start = System.nanoTime();
            long sent = 0;
            long total = (long) runsPerS * seconds;
            while (sent < total) {
                long due = start + sent * 1_000_000_000L / runsPerS;
                long wait = due - System.nanoTime();
                if (wait > 0) Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                StringBuilder b = new StringBuilder("{\"graph\":\"" + graph + "\",\"partitions\":[");
                for (int i = 0; i < per; i++) {
                    if (i > 0) b.append(',');
                    b.append('"').append(f.format(hour)).append('"');
                    hour = hour.plusHours(1);
                }
                b.append("]}");
                producer.send(new ProducerRecord<>(topic, graph, b.toString()));
                sent += per;
            }
            producer.flush();
            System.out.println("sent " + sent + " runs, last partition " + f.format(hour.minusHours(1)));
        }
    }
}
