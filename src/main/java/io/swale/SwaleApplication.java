package io.swale;

import io.swale.cli.SwaleCli;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class SwaleApplication {
    /**
     * A first argument that names a command runs the command line ({@code swale status}, …); no arguments, or
     * only {@code --option=value} arguments, start the service (interfaces §4).
     */
    public static void main(String[] args) {
        if (SwaleCli.isCommand(args)) {
            System.exit(SwaleCli.execute(args));
        }
        SpringApplication.run(SwaleApplication.class, args);
    }
}
