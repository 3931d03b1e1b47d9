package io.swale.run;

/**
 * A stored definition that no longer loads in this process (an operator it uses is gone, or a limit was lowered
 * since it was stored). Its cause says why; it stays as permanent as that cause.
 */
public final class UnloadableDefinitionException extends RuntimeException {
    private final String hash;

    public UnloadableDefinitionException(String hash, RuntimeException cause) {
        super("stored definition `" + hash + "` no longer loads: " + cause.getMessage(), cause);
        this.hash = hash;
    }

    /** The same, said of {@code graph}'s current definition that a publish of another graph checks its assets against. */
    public static UnloadableDefinitionException blockingPublish(String graph, UnloadableDefinitionException e) {
        return new UnloadableDefinitionException(e.hash, "stored definition `" + e.hash + "`, current for graph `" + graph
                + "`, no longer loads, so no publish can check its assets against it (publish a definition of `"
                + graph + "` that loads first): " + e.getCause().getMessage(), (RuntimeException) e.getCause());
    }

    private UnloadableDefinitionException(String hash, String message, RuntimeException cause) {
        super(message, cause);
        this.hash = hash;
    }

    public String hash() {
        return hash;
    }
}
