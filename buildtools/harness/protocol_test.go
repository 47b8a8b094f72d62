package harness

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestEncodeRequestSetsOpAndID(t *testing.T) {
	b, err := encodeRequest(7, &runRequest{Tests: []wireTest{{Class: "a.B", Method: "c"}}, BudgetsMs: map[string]int64{"a.B#c": 5}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(b), "}\n") || strings.Count(string(b), "\n") != 1 {
		t.Fatalf("not one line: %q", b)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m["op"] != "run" || m["id"] != 7.0 || m["tests"].([]any)[0].(map[string]any)["method"] != "c" {
		t.Errorf("encoded %s", b)
	}
	for _, r := range []request{&initRequest{}, &compileRequest{}, &discoverRequest{}, &statsRequest{}, &cancelRequest{}} {
		b, _ := encodeRequest(1, r)
		if !strings.Contains(string(b), `"op":"`+r.op()+`"`) {
			t.Errorf("%T encodes as %s", r, b)
		}
	}
}

// seqCase feeds lines to a run's sequence check; the last line is the one under test.
type seqCase struct {
	name        string
	stopAtFirst bool
	cancelSent  bool
	lines       []string
	violation   string // "" when every line is accepted
}

const (
	planAB  = `{"id":5,"event":"plan","compile":{"ok":true},"tests":[{"class":"T","method":"a"},{"class":"T","method":"b"}]}`
	startA  = `{"id":5,"event":"start","index":0,"class":"T","method":"a","budgetMs":100}`
	resultA = `{"id":5,"event":"result","index":0,"class":"T","method":"a","outcome":"passed"}`
	failA   = `{"id":5,"event":"result","index":0,"class":"T","method":"a","outcome":"failed"}`
	startB  = `{"id":5,"event":"start","index":1,"class":"T","method":"b","budgetMs":100}`
	resultB = `{"id":5,"event":"result","index":1,"class":"T","method":"b","outcome":"error"}`
	done5   = `{"id":5,"done":true}`
)

func TestRunSequence(t *testing.T) {
	for _, c := range []seqCase{
		{name: "a whole run", lines: []string{planAB, startA, resultA, startB, resultB, done5}},
		{name: "a failed compile", lines: []string{`{"id":5,"done":true,"compile":{"ok":false}}`}},
		{name: "an error before the plan", lines: []string{`{"id":5,"done":true,"error":"boom"}`}},
		{name: "stop at the first failure", stopAtFirst: true, lines: []string{planAB, startA, failA, done5}},
		{name: "a fatal end", lines: []string{planAB, startA, resultA, `{"id":5,"done":true,"fatal":"oom"}`}},
		{name: "cancelled", cancelSent: true, lines: []string{planAB, startA, resultA, `{"id":5,"done":true,"cancelled":true}`}},

		{name: "not JSON", lines: []string{`hello`}, violation: "not a protocol message"},
		{name: "another id", lines: []string{planAB, `{"id":4,"done":true,"fatal":"x"}`}, violation: "a line for request 4"},
		{name: "done while a test runs", lines: []string{planAB, startA, `{"id":5,"done":true,"fatal":"forged"}`}, violation: "while T.a runs"},
		{name: "a second plan", lines: []string{planAB, planAB}, violation: "a second plan"},
		{name: "start before plan", lines: []string{startA}, violation: "before the plan"},
		{name: "out of order", lines: []string{planAB, startB}, violation: "where #0 T.a is next"},
		{name: "result of another test", lines: []string{planAB, startA, `{"id":5,"event":"result","index":1,"class":"T","method":"b","outcome":"passed"}`}, violation: "while #0 T.a runs"},
		{name: "result without start", lines: []string{planAB, resultA}, violation: "while no test runs"},
		{name: "two starts", lines: []string{planAB, startA, startB}, violation: "while T.a runs"},
		{name: "unknown outcome", lines: []string{planAB, startA, `{"id":5,"event":"result","index":0,"class":"T","method":"a","outcome":"great"}`}, violation: `outcome "great"`},
		{name: "done with tests left", lines: []string{planAB, startA, resultA, done5}, violation: "1 planned tests not run"},
		{name: "start after a failure", stopAtFirst: true, lines: []string{planAB, startA, failA, startB}, violation: "a start after a failure"},
		{name: "cancelled by nobody", lines: []string{planAB, `{"id":5,"done":true,"cancelled":true}`}, violation: "nobody cancelled"},
		{name: "done without anything", lines: []string{done5}, violation: "without a plan"},
		{name: "a plan that did not compile", lines: []string{`{"id":5,"event":"plan","compile":{"ok":false},"tests":[]}`}, violation: "without a successful compile"},
		{name: "an unknown event", lines: []string{planAB, `{"id":5,"event":"hello"}`}, violation: "an unknown message"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newRunSequence(5, c.stopAtFirst)
			s.cancelSent = c.cancelSent
			for i, l := range c.lines {
				_, err := s.accept([]byte(l))
				last := i == len(c.lines)-1
				switch {
				case err != nil && !errors.Is(err, errProtocol):
					t.Fatalf("line %d: error not marked as a protocol violation: %v", i, err)
				case err != nil && (!last || c.violation == ""):
					t.Fatalf("line %d (%s): %v", i, l, err)
				case err == nil && last && c.violation != "":
					t.Fatalf("accepted %s; want a violation %q", l, c.violation)
				case err != nil && !strings.Contains(err.Error(), c.violation):
					t.Fatalf("violation %q, want one about %q", err, c.violation)
				}
			}
		})
	}
}

func TestRunSequenceSuspects(t *testing.T) {
	s := newRunSequence(5, false)
	for _, l := range []string{planAB, startA} {
		if _, err := s.accept([]byte(l)); err != nil {
			t.Fatal(err)
		}
	}
	if got, ok := s.running(); !ok || got.String() != "T.a" {
		t.Errorf("running = %v %v", got, ok)
	}
	if _, err := s.accept([]byte(resultA)); err != nil {
		t.Fatal(err)
	}
	if got, ok := s.lastRun(); !ok || got.String() != "T.a" {
		t.Errorf("lastRun = %v %v", got, ok)
	}
	if left := s.left(); len(left) != 1 || left[0].String() != "T.b" {
		t.Errorf("left = %v", left)
	}
}

func TestReadLinesIsBounded(t *testing.T) {
	in := "short\n\n" + strings.Repeat("x", 300) + "\n" + strings.Repeat("y", 5000) + "\nnever read\n"
	out := make(chan []byte, 10)
	err := readLines(strings.NewReader(in), 1000, out)
	close(out)
	var got []string
	for l := range out {
		got = append(got, string(l))
	}
	if err == nil || !strings.Contains(err.Error(), "protocol line over") {
		t.Errorf("err = %v, want an overlong line", err)
	}
	if len(got) != 2 || got[0] != "short" || len(got[1]) != 300 {
		t.Errorf("lines = %q", got)
	}
	// A last line without its newline still counts.
	out = make(chan []byte, 10)
	if err := readLines(strings.NewReader("a\nb"), 1000, out); err != nil {
		t.Fatal(err)
	}
	close(out)
	if a, b := <-out, <-out; string(a) != "a" || string(b) != "b" {
		t.Errorf("lines %q %q", a, b)
	}
}
