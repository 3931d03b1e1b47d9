package io.swale.local;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Optional;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.embedded.RedisServer;
import redis.embedded.core.ExecutableProvider;
import redis.embedded.model.OsArchitecture;

/**
 * The redis-server binary that embedded-redis ships, extracted once into a folder of the user's own and reused
 * while it is identical (size and CRC) to the jar's: the library would inflate and write its ~10 MB afresh on
 * every start, most of redis-server's start. Concurrent starts are safe: each writes a file of its own and
 * renames it into place atomically, so a reader sees a whole binary or none. Where the folder cannot be trusted
 * (not the user's, open to others, a link, no POSIX permissions) or the binary is not in a jar, the library's own
 * extraction (a fresh temporary folder each start) is used, as before.
 */
final class RedisBinary {
    private static final Logger log = LoggerFactory.getLogger(RedisBinary.class);
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    private RedisBinary() {
    }

    /** The executable for the builder: the reused binary, else the library's own extraction. */
    static ExecutableProvider provider() {
        Path dir = Path.of(System.getProperty("java.io.tmpdir"),
                "swale-redis-" + System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_"));
        return () -> {
            Optional<Path> cached = cached(dir);
            return cached.isPresent() ? cached.get().toFile() : ExecutableProvider.newJarResourceProvider().get();
        };
    }

    /** The binary in {@code dir}, extracted there first if it is missing or differs; empty where not reusable. */
    static Optional<Path> cached(Path dir) {
        try {
            String resource = ExecutableProvider.newProvidedVersionsMap().get(OsArchitecture.detectOSandArchitecture());
            URL url = resource == null ? null : RedisServer.class.getResource(resource);
            if (url == null || !(url.openConnection() instanceof JarURLConnection jar) || !ownFolder(dir)) {
                return Optional.empty();
            }
            JarEntry entry = jar.getJarEntry();
            if (entry.getCrc() < 0 || entry.getSize() < 0) {
                return Optional.empty();
            }
            // the CRC in the name: another version of the library keeps its own binary
            Path binary = dir.resolve(String.format("%08x-%s", entry.getCrc(), resource.substring(resource.lastIndexOf('/') + 1)));
            if (!identical(binary, entry.getSize(), entry.getCrc())) {
                extract(url, binary);
            }
            return Optional.of(binary);
        } catch (IOException | RuntimeException e) {
            log.debug("cannot reuse an extracted redis-server in {}, extracting afresh: {}", dir, e.toString());
            return Optional.empty();
        }
    }

    /** Ours alone: a real folder (no link), owned by this user, that nobody else may read, write or enter. */
    private static boolean ownFolder(Path dir) throws IOException {
        try {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        } catch (FileAlreadyExistsException existing) {
            // checked below like a new one
        } catch (UnsupportedOperationException noPosix) {
            return false;
        }
        PosixFileAttributes attrs = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        UserPrincipal me = dir.getFileSystem().getUserPrincipalLookupService()
                .lookupPrincipalByName(System.getProperty("user.name"));
        return attrs.isDirectory() && attrs.owner().equals(me) && attrs.permissions().equals(OWNER_ONLY);
    }

    private static boolean identical(Path binary, long size, long crc) throws IOException {
        if (!Files.isRegularFile(binary, LinkOption.NOFOLLOW_LINKS) || Files.size(binary) != size
                || !Files.isExecutable(binary)) {
            return false;
        }
        CRC32 sum = new CRC32();
        byte[] buffer = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(binary, LinkOption.NOFOLLOW_LINKS)) {
            for (int n; (n = in.read(buffer)) > 0; ) {
                sum.update(buffer, 0, n);
            }
        }
        return sum.getValue() == crc;
    }

    private static void extract(URL url, Path binary) throws IOException {
        Path part = Files.createTempFile(binary.getParent(), "extracting-", ".part");
        try {
            try (InputStream in = url.openStream()) {
                Files.copy(in, part, StandardCopyOption.REPLACE_EXISTING);
            }
            Files.setPosixFilePermissions(part, OWNER_ONLY);
            // a redis-server already running from a replaced file keeps its own copy (the old inode)
            Files.move(part, binary, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(part);
        }
    }
}
