package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkStart prints what the sandbox adds to a JVM's start, side by side in one run:
//
//	go test -run '^$' -bench Start -benchtime 20x ./buildtools/sandbox/
//
// bwrap-true is bwrap's own cost (namespaces and mounts, no JVM); bare-main and bwrap-main run a
// tiny main (print one property) without and with the sandbox; bare-version and bwrap-version
// run java -version.
func BenchmarkStart(b *testing.B) {
	needBwrap(b)
	classes := filepath.Join(escapeClasses(b), "classes")
	scratch := b.TempDir()
	st, err := Policy{Mode: ModeOn}.Decide(nil)
	if err != nil {
		b.Fatal(err)
	}
	spec := Spec{Status: st, ReadOnly: []string{classes}, Scratch: scratch}
	truePath, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true on PATH")
	}
	cases := []struct {
		name    string
		sandbox bool
		prog    string
		args    []string
	}{
		{"bwrap-true", true, truePath, nil},
		{"bare-main", false, "java", []string{"-cp", classes, "Escape", "prop=java.version"}},
		{"bwrap-main", true, "java", []string{"-cp", classes, "Escape", "prop=java.version"}},
		{"bare-version", false, "java", []string{"-version"}},
		{"bwrap-version", true, "java", []string{"-version"}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				cmd := exec.Command(c.prog, c.args...)
				if c.sandbox {
					if err := spec.Apply(cmd); err != nil {
						b.Fatal(err)
					}
				}
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v: %v\n%s", cmd.Args, err, out)
				}
			}
		})
	}
	_ = os.RemoveAll(scratch)
}
