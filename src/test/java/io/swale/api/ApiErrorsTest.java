package io.swale.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.store.redis.Durability;
import io.swale.store.redis.TooFewReplicas;
import io.swale.task.SwaleException;
import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;
import org.springframework.http.ProblemDetail;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.method.annotation.ExceptionHandlerMethodResolver;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisMovedDataException;

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

    @Test
    void aRedisErrorReplyARetryWouldMeetAgainIsAServerErrorAndRedisBeingUnavailableAsksForARetry() throws Exception {
        ProblemDetail wrongType = answer(new JedisDataException(
                "WRONGTYPE Operation against a key holding the wrong kind of value"));
        assertThat(wrongType.getStatus()).isEqualTo(500);
        assertThat(wrongType.getDetail()).startsWith("WRONGTYPE");
        assertThat(answer(new JedisDataException("LOADING Redis is loading the dataset in memory")).getStatus())
                .isEqualTo(503);
        assertThat(answer(new TooFewReplicas("finish", 0, Durability.waitFor(1, 100))).getStatus()).isEqualTo(503);
        assertThat(answer(new JedisMovedDataException("MOVED 3999 127.0.0.1:6381",
                new HostAndPort("127.0.0.1", 6381), 3999)).getStatus()).isEqualTo(503);
        assertThat(answer(new JedisConnectionException("Connection refused")).getStatus()).isEqualTo(503);
    }

    @Test
    void aTryAgainAnswerSaysWhenToRetry() throws Exception {
        MockHttpServletResponse response = new MockHttpServletResponse();
        RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(new MockHttpServletRequest(), response));
        try {
            assertThat(answer(new JedisConnectionException("Connection refused")).getStatus()).isEqualTo(503);
            assertThat(response.getHeader("Retry-After")).isEqualTo("1");
        } finally {
            RequestContextHolder.resetRequestAttributes();
        }
        MockHttpServletResponse refused = new MockHttpServletResponse();
        RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(new MockHttpServletRequest(), refused));
        try {
            assertThat(answer(new SwaleException.InputMismatch("g-p-n-r0")).getStatus()).isEqualTo(409);
            assertThat(refused.getHeader("Retry-After")).isNull();
        } finally {
            RequestContextHolder.resetRequestAttributes();
        }
    }
}
