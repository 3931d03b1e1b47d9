package io.swale;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class SwaleApplication {
    public static void main(String[] args) {
        SpringApplication.run(SwaleApplication.class, args);
    }
}
