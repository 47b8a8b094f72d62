package advertest.worker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Rewritten bytes of the project's class files, kept across runs while a file is unchanged. */
final class ProjectCache {
    private static final class Entry {
        final long modified;
        final long size;
        final byte[] bytes;

        Entry(long modified, long size, byte[] bytes) {
            this.modified = modified;
            this.size = size;
            this.bytes = bytes;
        }
    }

    private final Map<Path, Entry> entries = new ConcurrentHashMap<>();
    /** The same classes with their comparisons recorded too, for the runs that ask for it. */
    private final Map<Path, Entry> recording = new ConcurrentHashMap<>();

    byte[] rewritten(Path f) {
        return cached(f, entries, false);
    }

    /** The rewritten bytes of f with its comparisons recorded (Rewriter.recordCompares). */
    byte[] recording(Path f) {
        return cached(f, recording, true);
    }

    private static byte[] cached(Path f, Map<Path, Entry> entries, boolean record) {
        try {
            BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
            long mod = a.lastModifiedTime().toMillis();
            Entry e = entries.get(f);
            if (e != null && e.modified == mod && e.size == a.size()) {
                return e.bytes;
            }
            byte[] b = Rewriter.rewrite(Files.readAllBytes(f), false);
            if (record) {
                b = Rewriter.recordCompares(b);
            }
            entries.put(f, new Entry(mod, a.size(), b));
            return b;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
