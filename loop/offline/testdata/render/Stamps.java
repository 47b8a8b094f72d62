package org.acme;

import java.text.DateFormat;
import java.util.Date;

/**
 * A fixture of the offline agent: a method whose result holds the current time, formatted
 * ("ann at 12/5/26, 7:10 PM"). The same minute gives the same text twice, so two runs of the
 * original alone do not show that it changes; a test that asserted it would fail the next minute.
 */
public class Stamps {
    public static String stamp(String who) {
        if (who == null || who.isEmpty()) {
            throw new IllegalArgumentException("who");
        }
        return who + " at " + DateFormat.getDateTimeInstance(DateFormat.SHORT, DateFormat.SHORT).format(new Date());
    }
}
