package io.swale.api;

import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.apache.catalina.core.StandardHost;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Errors no controller advice answers, as problem+json: the container's refusals (through
 * {@link ProblemReportValve}) and whatever reaches {@code /error} (a sendError, an exception outside MVC).
 */
@Hidden // the container's error path, not part of the API
@RestController
public class ProblemErrors implements ErrorController {

    @Configuration(proxyBeanMethods = false)
    static class ValveConfiguration {
        @Bean
        WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemReportValve() {
            return factory -> factory.addContextCustomizers(context -> {
                if (context.getParent() instanceof StandardHost host) {
                    host.setErrorReportValveClass(ProblemReportValve.class.getName());
                }
            });
        }
    }

    @RequestMapping(value = "/error", produces = {MediaType.APPLICATION_PROBLEM_JSON_VALUE, MediaType.ALL_VALUE})
    ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        int status = code instanceof Integer i && i >= 400 && i <= 599 ? i : 500;
        Object message = request.getAttribute(RequestDispatcher.ERROR_MESSAGE);
        // a 5xx names no internals; a 4xx keeps the container's reason
        String detail = status < 500 && message instanceof String m && !m.isBlank() ? m : ProblemResponses.title(status);
        ProblemDetail p = ApiErrors.problem(HttpStatus.valueOf(status), ProblemResponses.title(status), detail);
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(p);
    }
}
