package state

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/loop/report"
)

func TestSaveLoadForFile(t *testing.T) {
	root := t.TempDir()
	s := Open(root)
	m := &Method{Kind: KindAnalyze, Query: "clamp(int,int,int)", MethodText: "int clamp() {}",
		Report: &report.Report{Target: report.Target{File: "src/main/java/org/acme/C.java", Class: "org.acme.C", Method: "clamp", StartLine: 3},
			Mutants: []report.Mutant{{ID: "m1", Line: 4, Status: report.Survived}}},
		Covering: map[string][]string{"m1": {"org.acme.CTest.a"}}}
	m.Record(KindAnalyze, time.Unix(0, 0))
	if err := s.Save(m); err != nil {
		t.Fatal(err)
	}
	other := &Method{Kind: KindAnalyze, Query: "x()", Report: &report.Report{Target: report.Target{File: "src/main/java/org/acme/D.java", Class: "org.acme.D"}}}
	if err := s.Save(other); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load("org.acme.C", "clamp(int,int,int)")
	if err != nil || got == nil || got.Report.Mutants[0].ID != "m1" || got.Covering["m1"][0] != "org.acme.CTest.a" || len(got.History) != 1 {
		t.Fatalf("Load = %+v, %v", got, err)
	}
	if missing, err := s.Load("org.acme.C", "nope()"); missing != nil || err != nil {
		t.Fatalf("Load of a missing method = %v, %v", missing, err)
	}
	// A broken file does not hide the good ones.
	bad := filepath.Join(s.Dir(), "methods", "org.acme.C", "broken.json")
	if err := os.WriteFile(bad, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	list, err := s.ForFile("src/main/java/org/acme/C.java")
	if len(list) != 1 || list[0].Query != "clamp(int,int,int)" || err == nil {
		t.Fatalf("ForFile = %v, %v", list, err)
	}
	// No temporary files are left behind.
	entries, _ := os.ReadDir(filepath.Dir(s.Path("org.acme.C", "clamp(int,int,int)")))
	for _, e := range entries {
		if filepath.Ext(e.Name()) == ".tmp" {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}
