package io.swale.record;

/** A stored value that is not JSON of the expected shape: permanent. */
public final class RecordException extends RuntimeException {
    public RecordException(String key, String problem) {
        super("record `" + key + "` is malformed: " + problem);
    }
}
