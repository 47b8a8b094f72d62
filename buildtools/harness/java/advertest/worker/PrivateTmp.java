package advertest.worker;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * The sandbox's private temporary folders (/tmp, /dev/shm), emptied after each test so that
 * what one test left there (a full /tmp, a planted file) does not reach the next. Outside the
 * sandbox there are none: /tmp is then the host's and is never touched. Entries that hold a
 * path bound in from the host (the scratch folder, a project under /tmp) are left alone.
 */
final class PrivateTmp {
    private final List<Path> dirs = new ArrayList<>();
    private final List<Path> keep = new ArrayList<>();

    PrivateTmp(List<String> dirs, List<String> keep) {
        for (String d : dirs) {
            this.dirs.add(Path.of(d));
        }
        for (String k : keep) {
            this.keep.add(Path.of(k));
        }
    }

    /** Removes every entry of the folders, not following links; failures are ignored. */
    void empty() {
        for (Path d : dirs) {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(d)) {
                for (Path e : entries) {
                    if (!holdsKept(e)) {
                        remove(e);
                    }
                }
            } catch (IOException | RuntimeException e) {
                // nothing there, or unreadable: nothing to empty
            }
        }
    }

    private boolean holdsKept(Path entry) {
        for (Path k : keep) {
            if (k.startsWith(entry)) {
                return true;
            }
        }
        return false;
    }

    private static void remove(Path p) {
        try {
            if (!Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                Files.deleteIfExists(p);
                return;
            }
            Files.walkFileTree(p, new SimpleFileVisitor<Path>() {
                @Override
                public FileVisitResult visitFile(Path f, BasicFileAttributes a) throws IOException {
                    Files.deleteIfExists(f);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path f, IOException e) {
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException | RuntimeException e) {
            // a file in use or a mount point: it stays until the worker ends
        }
    }
}
