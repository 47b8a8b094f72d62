package org.acme;

import java.util.ArrayList;
import java.util.List;

public class Hog {
    public static int hog() {
        List<long[]> all = new ArrayList<>();
        while (true) {
            all.add(new long[1 << 20]);
        }
    }
}
