package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/loop/report"
)

func sampleMethod(query string) *Method {
	return &Method{Kind: KindAnalyze, Query: query,
		Report: &report.Report{Target: report.Target{File: "src/main/java/org/acme/C.java", Class: "org.acme.C", Method: "m"}}}
}

// TestConcurrentUpdatesOfOneMethod: updates from many goroutines run one at a time; every
// one's history entry is kept, and a reader never sees half a file.
func TestConcurrentUpdatesOfOneMethod(t *testing.T) {
	s := Open(t.TempDir())
	const writers = 40
	stop := make(chan struct{})
	readErr := make(chan error, 1)
	go func() { // a reader all along
		defer close(readErr)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := s.Load("org.acme.C", "m()"); err != nil {
				readErr <- err
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for i := 0; i < writers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := s.Update("org.acme.C", "m()", func(prev *Method) *Method {
				m := sampleMethod("m()")
				if prev != nil {
					m.History = prev.History
				}
				m.Report.Warnings = []string{fmt.Sprint("writer ", i)}
				m.Record(fmt.Sprint("run", i), time.Unix(int64(i), 0))
				return m
			})
			if err != nil {
				t.Errorf("update %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	close(stop)
	if err := <-readErr; err != nil {
		t.Fatalf("a reader saw a broken file: %v", err)
	}
	got, err := s.Load("org.acme.C", "m()")
	if err != nil || got == nil {
		t.Fatal(got, err)
	}
	kinds := map[string]bool{}
	for _, e := range got.History {
		kinds[e.Kind] = true
	}
	if len(got.History) != writers || len(kinds) != writers {
		t.Fatalf("history has %d entries (%d distinct), want %d: an update was lost", len(got.History), len(kinds), writers)
	}
}

// TestCorruptStateIsMovedAside: a state file that is not JSON (or holds no report) is renamed
// to *.corrupt, and the caller gets a warning to show; the method starts afresh.
func TestCorruptStateIsMovedAside(t *testing.T) {
	s := Open(t.TempDir())
	if err := s.Save(sampleMethod("good()")); err != nil {
		t.Fatal(err)
	}
	bad := s.Path("org.acme.C", "m()")
	if err := os.WriteFile(bad, []byte(`{"schema": 1, "report": {"target": `), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := s.Load("org.acme.C", "m()")
	var corrupt *CorruptError
	if m != nil || !errors.As(err, &corrupt) || corrupt.MovedTo != bad+".corrupt" || !strings.Contains(err.Error(), "was corrupt") {
		t.Fatalf("Load of a corrupt file = %v, %v; want a CorruptError, moved aside", m, err)
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Errorf("the corrupt file is still in place: %v", err)
	}
	if data, _ := os.ReadFile(bad + ".corrupt"); !strings.HasPrefix(string(data), `{"schema": 1`) {
		t.Errorf("the corrupt file's text was not kept: %q", data)
	}

	// Through ForFile (the server on didOpen), with the good state still returned.
	if err := os.WriteFile(bad, []byte(`{"schema": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	list, err := s.ForFile("src/main/java/org/acme/C.java")
	if len(list) != 1 || list[0].Query != "good()" || !errors.As(err, &corrupt) || !strings.Contains(err.Error(), "no report") {
		t.Fatalf("ForFile = %v, %v", list, err)
	}

	// Through Update: fn starts afresh, the new state is saved, the warning comes back.
	if err := os.WriteFile(bad, []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	var sawPrev *Method
	err = s.Update("org.acme.C", "m()", func(prev *Method) *Method { sawPrev = prev; return sampleMethod("m()") })
	if sawPrev != nil || !errors.As(err, &corrupt) {
		t.Fatalf("Update over a corrupt file: prev %v, err %v", sawPrev, err)
	}
	if m, err := s.Load("org.acme.C", "m()"); m == nil || err != nil {
		t.Fatalf("after Update: %v, %v", m, err)
	}

	// Another schema's file is not corrupt: it is left where it is.
	other := s.Path("org.acme.C", "future()")
	if err := os.WriteFile(other, []byte(`{"schema": 99}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load("org.acme.C", "future()"); err == nil || errors.As(err, &corrupt) {
		t.Errorf("a file of schema 99: %v, want a plain error", err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("the other schema's file was moved: %v", err)
	}
}

// TestHistoryIsCapped: the history keeps the MaxHistory latest runs.
func TestHistoryIsCapped(t *testing.T) {
	s := Open(t.TempDir())
	for i := 0; i < MaxHistory+25; i++ {
		err := s.Update("org.acme.C", "m()", func(prev *Method) *Method {
			m := sampleMethod("m()")
			if prev != nil {
				m.History = prev.History
			}
			m.Record(fmt.Sprint("run", i), time.Unix(int64(i), 0))
			return m
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	m, err := s.Load("org.acme.C", "m()")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.History) != MaxHistory || m.History[0].Kind != "run25" || m.History[MaxHistory-1].Kind != fmt.Sprint("run", MaxHistory+24) {
		t.Fatalf("history: %d entries from %s to %s", len(m.History), m.History[0].Kind, m.History[len(m.History)-1].Kind)
	}
	// Save caps a history built elsewhere too.
	long := sampleMethod("n()")
	long.History = make([]Entry, 3*MaxHistory)
	if err := s.Save(long); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(s.Path("org.acme.C", "n()"))
	var saved Method
	if err := json.Unmarshal(data, &saved); err != nil || len(saved.History) != MaxHistory {
		t.Fatalf("saved history %d entries, %v", len(saved.History), err)
	}
}
