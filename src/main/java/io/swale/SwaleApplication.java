package io.swale;

import io.swale.cli.SwaleCli;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class SwaleApplication {
    /**
     * A first argument that names a command runs the command line ({@code swale status}, …; {@code swale bench} measures); no arguments, or
     * only {@code --option=value} arguments, start the service (interfaces §4).
     */
    public static void main(String[] args) {
        if (args.length > 0 && "bench".equals(args[0])) {
            // the bench starts the whole application in this process: dispatched before the command line
            System.exit(io.swale.bench.BenchCommand.run(java.util.Arrays.copyOfRange(args, 1, args.length)));
        }
        if (SwaleCli.isCommand(args)) {
            System.exit(SwaleCli.execute(args));
        }
        SpringApplication.run(SwaleApplication.class, args);
    }
}
