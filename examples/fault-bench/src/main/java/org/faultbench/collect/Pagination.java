package org.faultbench.collect;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Splitting a list into pages. */
public final class Pagination {

    private Pagination() {
    }

    /** How many pages of pageSize items the items fill; the last page may be short. */
    public static int pageCount(int totalItems, int pageSize) {
        if (pageSize <= 0) {
            throw new IllegalArgumentException("page size must be positive: " + pageSize);
        }
        return (totalItems + pageSize - 1) / pageSize;
    }

    /** The items of the page-th page (0-based); an empty list past the last page. */
    public static <T> List<T> page(List<T> items, int page, int pageSize) {
        if (page < 0 || pageSize <= 0) {
            throw new IllegalArgumentException("bad page " + page + " of size " + pageSize);
        }
        int from = page * pageSize;
        if (from >= items.size()) {
            return Collections.emptyList();
        }
        int to = Math.min(from + pageSize, items.size());
        return new ArrayList<>(items.subList(from, to));
    }
}
