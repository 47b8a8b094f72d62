package state

import (
	"os"
	"testing"

	"github.com/advertest/advertest-lsp/loop/report"
)

// TestForFileReadsOnlyItsFilesOnceIndexed: once a module's method files are indexed, ForFile of
// one source file does not read the method files of another (here: one replaced behind the
// index's back by garbage of the same size and time is not even looked at), while a file that
// changed is read again.
func TestForFileReadsOnlyItsFilesOnceIndexed(t *testing.T) {
	s := Open(t.TempDir())
	mine := &Method{Kind: KindAnalyze, Query: "a()", Report: &report.Report{Target: report.Target{File: "src/A.java", Class: "p.A"}}}
	theirs := &Method{Kind: KindAnalyze, Query: "b()", Report: &report.Report{Target: report.Target{File: "src/B.java", Class: "p.B"}}}
	for _, m := range []*Method{mine, theirs} {
		if err := s.Save(m); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := s.ForFile("src/A.java"); err != nil || len(got) != 1 || got[0].Query != "a()" {
		t.Fatalf("ForFile(A) = %v, %v", got, err)
	}
	other := s.Path("p.B", "b()")
	info, err := os.Stat(other)
	if err != nil {
		t.Fatal(err)
	}
	garbage := make([]byte, info.Size())
	for i := range garbage {
		garbage[i] = '#'
	}
	if err := os.WriteFile(other, garbage, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(other, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	if got, err := s.ForFile("src/A.java"); err != nil || len(got) != 1 {
		t.Fatalf("ForFile(A) read B's file: %v, %v", got, err)
	}
	// B's own document reads it, finds it corrupt and moves it aside.
	if got, err := s.ForFile("src/B.java"); err == nil || len(got) != 0 {
		t.Fatalf("ForFile(B) = %v, %v; want the corrupt file reported", got, err)
	}
	if _, err := os.Stat(other + ".corrupt"); err != nil {
		t.Errorf("B's corrupt file was not moved aside: %v", err)
	}
	// A file that changed is read again: A's state saved by another Store of the module.
	mine.Kind = KindGenerate
	if err := Open(s.moduleRoot).Save(mine); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.ForFile("src/A.java"); len(got) != 1 || got[0].Kind != KindGenerate {
		t.Errorf("ForFile(A) after a save = %+v", got)
	}
}
