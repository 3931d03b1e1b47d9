package io.swale.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The redis-server binary is extracted once into a folder of the user's own and reused while it is identical. */
class RedisBinaryTest {
    @TempDir
    Path tmp;

    @Test
    void extractsOnceThenReusesTheSameFile() throws IOException {
        Path dir = tmp.resolve("cache");
        Path first = RedisBinary.cached(dir).orElseThrow();
        assertThat(first).startsWith(dir).isExecutable();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
        Object inode = Files.readAttributes(first, "unix:ino").get("ino");

        Path second = RedisBinary.cached(dir).orElseThrow();
        assertThat(second).isEqualTo(first);
        // not written again: the very same file
        assertThat(Files.readAttributes(second, "unix:ino").get("ino")).isEqualTo(inode);
    }

    @Test
    void aDamagedCopyIsReplaced() throws IOException {
        Path dir = tmp.resolve("cache");
        Path binary = RedisBinary.cached(dir).orElseThrow();
        long crc = crc(binary);
        byte[] bytes = Files.readAllBytes(binary);
        bytes[bytes.length / 2] ^= 1; // same size, other content
        Files.write(binary, bytes);

        assertThat(RedisBinary.cached(dir)).contains(binary);
        assertThat(crc(binary)).isEqualTo(crc);
    }

    @Test
    void aFolderOthersMayWriteToIsNotUsed() throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("open"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThat(RedisBinary.cached(dir)).isEmpty();
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void aLinkIsNotFollowed() throws IOException {
        Path real = Files.createDirectory(tmp.resolve("real"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), real);
        assertThat(RedisBinary.cached(link)).isEmpty();
    }

    @Test
    void concurrentStartsAllGetAWholeBinary() throws Exception {
        Path dir = tmp.resolve("cache");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Optional<Path>>> results = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                results.add(pool.submit((Callable<Optional<Path>>) () -> RedisBinary.cached(dir)));
            }
            Path expected = RedisBinary.cached(dir).orElseThrow();
            for (Future<Optional<Path>> result : results) {
                assertThat(result.get()).contains(expected);
            }
            // the name starts with the CRC of the jar's entry
            String name = expected.getFileName().toString();
            assertThat(crc(expected)).isEqualTo(Long.parseLong(name.substring(0, name.indexOf('-')), 16));
            try (Stream<Path> files = Files.list(dir)) {
                assertThat(files).containsExactly(expected); // no half-written file left behind
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static long crc(Path file) throws IOException {
        CRC32 sum = new CRC32();
        try (InputStream in = Files.newInputStream(file)) {
            sum.update(in.readAllBytes());
        }
        return sum.getValue();
    }
}
