package io.swale.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

/** Why a file could not be read, in words: the JDK's message for a missing file is only its path (spec §1.6). */
final class FileErrors {
    private FileErrors() {}

    static String why(IOException e) {
        return switch (e) {
            case NoSuchFileException n -> "no such file";
            case AccessDeniedException a -> "permission denied";
            case FileSystemException f when f.getReason() != null -> f.getReason();
            default -> e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        };
    }
}
