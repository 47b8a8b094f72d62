package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// tzRegions are the files of Joda-Time's copy of the tz database its build compiles, in its
// pom's order.
var tzRegions = []string{"africa", "antarctica", "asia", "australasia", "europe", "northamerica",
	"southamerica", "etcetera", "backward"}

// timeZoneData does what Joda-Time's own build does in its compile phase (exec-maven-plugin):
// it compiles the time-zone database in src/main/java/org/joda/time/tz/src with the freshly
// compiled org.joda.time.tz.ZoneInfoCompiler. The data goes into the layout's
// src/main/resources (so a plain `mvn compile` of the layout has it, and the suite layout
// copies it), then into target/classes.
func (b *builder) timeZoneData(dir string, cp []string) error {
	src := filepath.Join(dir, "src", "main", "java", "org", "joda", "time", "tz", "src")
	dst := filepath.Join(dir, "src", "main", "resources", "org", "joda", "time", "tz", "data")
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	classpath := strings.Join(append([]string{filepath.Join(dir, "target", "classes")}, cp...), string(os.PathListSeparator))
	args := append([]string{"-cp", classpath,
		"-Dorg.joda.time.DateTimeZone.Provider=org.joda.time.tz.UTCProvider",
		"org.joda.time.tz.ZoneInfoCompiler", "-src", src, "-dst", dst}, tzRegions...)
	out, err := b.run(b.ctx, dir, "java", args...)
	_ = os.WriteFile(filepath.Join(dir, "target", "tzdata.log"), out, 0o644)
	if err != nil {
		return fmt.Errorf("compiling the time-zone database: %w\n%s", err, tail(string(out), 2000))
	}
	if _, err := os.Stat(filepath.Join(dst, "ZoneInfoMap")); err != nil {
		return fmt.Errorf("compiling the time-zone database made no ZoneInfoMap: %w", err)
	}
	if _, err := b.mvn(dir, "main-resources", "process-resources"); err != nil {
		return fmt.Errorf("copying the time-zone database into target/classes: %w", err)
	}
	return nil
}
