package io.swale;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class SwaleApplication {
    public static void main(String[] args) {
        if (args.length > 0 && "bench".equals(args[0])) {
            System.exit(io.swale.bench.BenchCommand.run(java.util.Arrays.copyOfRange(args, 1, args.length)));
        }
        SpringApplication.run(SwaleApplication.class, args);
    }
}
