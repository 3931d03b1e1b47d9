package io.swale.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.task.SwaleException;
import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;
import org.springframework.http.ProblemDetail;
import org.springframework.web.method.annotation.ExceptionHandlerMethodResolver;

class ApiErrorsTest {
    private final ExceptionHandlerMethodResolver resolver = new ExceptionHandlerMethodResolver(ApiErrors.class);

    private ProblemDetail answer(Exception e) throws Exception {
        Method handler = resolver.resolveMethod(e);
        assertThat(handler).as("a handler for %s", e.getClass().getSimpleName()).isNotNull();
        handler.setAccessible(true);
        return (ProblemDetail) handler.invoke(new ApiErrors(), e);
    }

    @Test
    void aDefinitionMissingFromTheStoreIsTheServersFaultNotOneToRetry() throws Exception {
        ProblemDetail p = answer(new SwaleException.UnknownDefinition("9f2c"));
        assertThat(p.getStatus()).isEqualTo(500);
        assertThat(p.getDetail()).contains("9f2c");
        assertThat(p.getProperties()).containsEntry("definition", "9f2c");
    }

    @Test
    void otherTransientFaultsStillAskForARetry() throws Exception {
        assertThat(answer(new SwaleException.Contended("g", "p")).getStatus()).isEqualTo(503);
        assertThat(answer(new SwaleException.UnknownPool("n", "etl")).getStatus()).isEqualTo(503);
    }
}
