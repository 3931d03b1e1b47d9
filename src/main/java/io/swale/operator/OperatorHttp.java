package io.swale.operator;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The one HTTP client the operators share, and a send that honours a whole-request timeout and the
 * attempt's cancellation by abandoning the exchange.
 */
final class OperatorHttp {
    private OperatorHttp() {}

    // Built on the first request, not when the operators are: the default SSL context it loads (the JDK's trust
    // store) and its selector thread cost the start about a tenth of a second, and most services never send one.
    private static final class Holder {
        static final HttpClient CLIENT = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NEVER)
                .version(HttpClient.Version.HTTP_1_1)
                .build();
    }

    /** The shared client: HTTP/1.1, follows no redirect itself ({@link #sendFollowing} does). */
    static HttpClient client() {
        return Holder.CLIENT;
    }

    /** Why a request ended without a response: the error result to return. */
    static final class Abort extends Exception {
        private final transient OperatorResult result;

        Abort(OperatorResult result) {
            super(null, null, false, false);
            this.result = result;
        }

        OperatorResult result() {
            return result;
        }
    }

    /**
     * As {@link #send}, following redirects ({@link Redirects}): the final response, the whole chain within
     * {@code timeoutMillis}. The hops to one host go through that host's guard as one call, judged by the answer the
     * chain ends with there; a redirect to another host meets that host's circuit breaker and rate limit, and the
     * host that redirected is judged by its 3xx, a success.
     */
    static <T> HttpResponse<T> sendFollowing(HttpRequest request, HttpResponse.BodyHandler<T> handler, String what,
            long timeoutMillis, String timeoutText, Cancellation cancellation, HostGuards guards) throws Abort {
        long start = System.nanoTime();
        HttpRequest current = request;
        HostCall call = HostCall.open(guards, current, what);
        for (int hop = 0; ; hop++) {
            long spent = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            HttpResponse<T> response;
            try {
                response = send(client(), current, handler, what, Math.max(0, timeoutMillis - spent), timeoutText,
                        cancellation);
            } catch (Abort abort) {
                call.aborted(abort, cancellation);
                throw abort;
            }
            Optional<HttpRequest> next = hop < Redirects.MAX_HOPS ? Redirects.next(current, response)
                    : Optional.empty();
            if (next.isEmpty()) {
                call.answered(response.statusCode());
                return response;
            }
            current = next.get();
            if (!hostOf(current.uri()).equals(call.host())) {
                call.answered(response.statusCode());
                call = HostCall.open(guards, current, what);
            }
        }
    }

    /** The hops of one request to one host, under that host's guard. */
    private static final class HostCall {
        private final HostGuards.Guard guard;
        private final String host;
        private final long startNanos = System.nanoTime();

        private HostCall(HostGuards.Guard guard, String host) {
            this.guard = guard;
            this.host = host;
        }

        /** The guard's go-ahead for {@code request}'s host; a refusal is a transient error. */
        static HostCall open(HostGuards guards, HttpRequest request, String what) throws Abort {
            String host = hostOf(request.uri());
            HostGuards.Guard guard = guards.acquire(host);
            Optional<String> refused = guard.refusal();
            if (refused.isPresent()) {
                throw new Abort(new OperatorResult.TransientError(what + ": " + refused.get()));
            }
            return new HostCall(guard, host);
        }

        String host() {
            return host;
        }

        /** The host answered {@code status}: a 5xx or a 429 is its failure, anything else its success. */
        void answered(int status) {
            long nanos = System.nanoTime() - startNanos;
            if (status >= 500 && status < 600 || status == 429) {
                guard.failed(nanos, new IllegalStateException("HTTP status " + status));
            } else {
                guard.succeeded(nanos);
            }
        }

        /** No answer: the host's failure, unless the attempt was cancelled. */
        void aborted(Abort abort, Cancellation cancellation) {
            if (cancellation.isCancelled()) {
                guard.released();
            } else {
                guard.failed(System.nanoTime() - startNanos, abort);
            }
        }
    }

    /** The key of a host's guard: host, and port when the URL names one. */
    static String hostOf(URI uri) {
        String host = uri.getHost() == null ? String.valueOf(uri.getAuthority()) : uri.getHost();
        return uri.getPort() < 0 ? host : host + ":" + uri.getPort();
    }

    /**
     * Sends {@code request} and waits for the whole response, body included.
     *
     * @param what how error messages name the request, e.g. {@code GET https://…}
     * @param timeoutMillis the limit on the whole exchange
     * @param timeoutText how messages name the limit
     * @throws Abort with a transient error on cancellation, timeout or an I/O failure, and a permanent
     *     one when the client refuses the request
     */
    static <T> HttpResponse<T> send(HttpClient client, HttpRequest request, HttpResponse.BodyHandler<T> handler,
            String what, long timeoutMillis, String timeoutText, Cancellation cancellation) throws Abort {
        if (cancellation.isCancelled()) {
            throw new Abort(new OperatorResult.TransientError(cancelled(what, cancellation)));
        }
        CompletableFuture<HttpResponse<T>> response;
        try {
            response = client.sendAsync(request, handler);
        } catch (IllegalArgumentException e) {
            throw new Abort(new OperatorResult.PermanentError(what + ": the request cannot be built: "
                    + OperatorJson.describe(e)));
        }
        CompletableFuture<String> stop = new CompletableFuture<>();
        cancellation.onCancel(() -> stop.complete(cancelled(what, cancellation)));
        ScheduledFuture<?> timer = OperatorExecutors.completeAfter(stop,
                what + ": no complete response within the timeout of " + timeoutText + "; abandoned the request",
                timeoutMillis);
        boolean interrupted = false;
        try {
            CompletableFuture.anyOf(response, stop).get();
        } catch (InterruptedException e) {
            interrupted = true;
            stop.complete(what + ": the attempt was interrupted; abandoned the request");
        } catch (ExecutionException e) {
            // judged from the response future below
        } finally {
            timer.cancel(false);
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        if (!response.isDone()) {
            response.cancel(true);
            throw new Abort(new OperatorResult.TransientError(stop.getNow(what + ": abandoned the request")));
        }
        try {
            return response.join();
        } catch (CompletionException | CancellationException e) {
            Throwable cause = e;
            while ((cause instanceof CompletionException || cause instanceof ExecutionException
                    || cause instanceof CancellationException) && cause.getCause() != null) {
                cause = cause.getCause();
            }
            if (cause instanceof IllegalArgumentException) {
                throw new Abort(new OperatorResult.PermanentError(what + ": the request cannot be built: "
                        + OperatorJson.describe(cause)));
            }
            String kind = cause instanceof java.net.http.HttpConnectTimeoutException ? "connecting timed out: "
                    : cause instanceof java.net.ConnectException ? "cannot connect: "
                    : cause instanceof java.net.http.HttpTimeoutException ? "timed out: "
                    : "";
            throw new Abort(new OperatorResult.TransientError(what + ": " + kind + OperatorJson.describe(cause)));
        }
    }

    private static String cancelled(String what, Cancellation cancellation) {
        String why = cancellation.reason().isEmpty() ? "" : " (" + cancellation.reason() + ")";
        return "the attempt was cancelled" + why + "; abandoned " + what;
    }
}
