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

    public String hash() {
        return hash;
    }
}
