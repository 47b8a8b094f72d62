package llmtest

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestReplayAnswersFromTheTranscript: every recorded request is classified as its recorded
// kind says; a request gets the reply recorded for its key, the first not used yet, then the
// last again; a request with no recorded key gets an empty, valid answer and is counted.
func TestReplayAnswersFromTheTranscript(t *testing.T) {
	r, err := LoadReplay("testdata/examples.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	entries, keys := r.Entries()
	if len(entries) != 34 {
		t.Fatalf("%d entries", len(entries))
	}
	agentOf := map[string]string{"tests": "T", "mutants": "M", "judge": "J"}
	for i, e := range entries {
		if k := keys[i]; k.Agent != agentOf[e.Kind] || k.Method != e.Method || k.Kind == "" {
			t.Errorf("entry %d (%s, %s) classified %s", e.N, e.Kind, e.Method, k)
		}
	}
	ask := func(msgs []Message) string {
		t.Helper()
		resp := r.Handle(&Request{Messages: msgs}, 0)
		var body struct {
			Choices []struct {
				Message struct{ Content string } `json:"message"`
			} `json:"choices"`
		}
		if resp.Status != 200 || json.Unmarshal([]byte(resp.Body), &body) != nil || len(body.Choices) != 1 {
			t.Fatalf("answer %d %s", resp.Status, resp.Body)
		}
		return body.Choices[0].Message.Content
	}
	// bulkPrice's kill request for `count < 0` was recorded three times (n 3, 5, 7).
	kill := entries[2].Messages
	for _, want := range []int{3, 5, 7, 7} {
		if got := ask(kill); got != entries[want-1].Reply {
			t.Errorf("kill request: not n %d's reply", want)
		}
	}
	// A request of another mutant: nothing recorded.
	other := append([]Message(nil), kill...)
	other[1].Content = strings.Replace(other[1].Content, "mutated to: `if (count < 0) {`", "mutated to: `if (count != 0) {`", 1)
	if got := ask(other); strings.Contains(got, "class ") || strings.Contains(got, "mutated") {
		t.Errorf("an unrecorded request got %q", got)
	}
	un := r.Unrecorded()
	if len(un) != 1 || un[0].Kind != "kill" || un[0].Mutated != "if (count != 0) {" {
		t.Errorf("unrecorded %v", un)
	}
	if served := r.Served(); len(served) != 5 || served[0].Recorded != 3 || served[4].Recorded != 0 {
		t.Errorf("served %+v", served)
	}
}
