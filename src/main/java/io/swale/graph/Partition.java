package io.swale.graph;

import java.util.regex.Pattern;

/** A key naming one slice of data: 1–16 bytes of {@code [A-Za-z0-9_]}, e.g. {@code 20260915}. */
public record Partition(String key) implements Comparable<Partition> {
    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_]{1,16}");

    public static final Partition NONE = new Partition("none");

    public Partition {
        if (key == null || !KEY.matcher(key).matches()) {
            throw new InvalidPartitionException(key);
        }
    }

    public static Partition of(String key) {
        return new Partition(key);
    }

    public static boolean isValid(String key) {
        return key != null && KEY.matcher(key).matches();
    }

    @Override
    public int compareTo(Partition other) {
        return key.compareTo(other.key);
    }

    @Override
    public String toString() {
        return key;
    }
}
