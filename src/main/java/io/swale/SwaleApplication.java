package io.swale;

import io.swale.cli.SwaleCli;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class SwaleApplication {
    /**
     * A first argument that names a command runs the command line ({@code swale status}, …); no arguments, or
     * only {@code --option=value} arguments, start the service (interfaces §4). The bench is not part of this jar:
     * {@code bin/swale bench} runs it next to the jar.
     */
    public static void main(String[] args) {
        if (args.length > 0 && "bench".equals(args[0])) {
            // formerly dispatched here: say where it went rather than start the service
            System.err.println("swale: the bench is not part of the service jar; run bin/swale bench (./mvnw package builds"
                    + " target/bench/ next to the jar)");
            System.exit(2);
        }
        if (SwaleCli.isCommand(args)) {
            System.exit(SwaleCli.execute(args));
        }
        SpringApplication.run(SwaleApplication.class, args);
    }
}
