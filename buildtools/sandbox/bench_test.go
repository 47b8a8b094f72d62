package sandbox

import (
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkStart prints what the sandbox adds to a JVM's start, side by side in one run:
//
//	go test -run '^$' -bench Start -benchtime 20x ./buildtools/sandbox/
//
// Each iteration runs the program bare and then sandboxed, so that a busy machine slows both
// alike; the metrics are the medians (bare-ms, sandboxed-ms) and their difference (added-ms).
// "true" is bwrap's own cost (namespaces and mounts, no JVM); "main" is a tiny main that prints
// one property; "version" is java -version.
func BenchmarkStart(b *testing.B) {
	needBwrap(b)
	classes := filepath.Join(escapeClasses(b), "classes")
	st, err := Policy{Mode: ModeOn}.Decide(nil)
	if err != nil {
		b.Fatal(err)
	}
	spec := Spec{Status: st, ReadOnly: []string{classes}, Scratch: b.TempDir()}
	truePath, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true on PATH")
	}
	for _, c := range []struct {
		name string
		prog string
		args []string
	}{
		{"true", truePath, nil},
		{"main", "java", []string{"-cp", classes, "Escape", "prop=java.version"}},
		{"version", "java", []string{"-version"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			run := func(sandboxed bool) time.Duration {
				cmd := exec.Command(c.prog, c.args...)
				if sandboxed {
					if err := spec.Apply(cmd); err != nil {
						b.Fatal(err)
					}
				}
				t0 := time.Now()
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v: %v\n%s", cmd.Args, err, out)
				}
				return time.Since(t0)
			}
			var bare, boxed []time.Duration
			for i := 0; i < b.N; i++ {
				bare = append(bare, run(false))
				boxed = append(boxed, run(true))
			}
			mb, ms := median(bare), median(boxed)
			b.ReportMetric(ms2(mb), "bare-ms")
			b.ReportMetric(ms2(ms), "sandboxed-ms")
			b.ReportMetric(ms2(ms-mb), "added-ms")
		})
	}
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms2(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
