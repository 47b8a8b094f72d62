package llm

import (
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/loop/agent"
)

func TestParseJudgement(t *testing.T) {
	for _, tc := range []struct {
		name, reply string
		want        agent.Judgement
		err         string
	}{
		{name: "fenced, equivalent", reply: "Sure.\n```json\n{\"equivalent\": true, \"reason\": \"both return lo at value == lo\", \"input\": \"\"}\n```",
			want: agent.Judgement{Equivalent: true, Reason: "both return lo at value == lo"}},
		{name: "bare amid chatter, not equivalent", reply: `I checked. {"equivalent": false, "reason": "x = -1 differs", "input": "clamp(-1, 0, 10): 0 vs -1"} Hope it helps.`,
			want: agent.Judgement{Reason: "x = -1 differs", Input: "clamp(-1, 0, 10): 0 vs -1"}},
		{name: "input left out, or null", reply: `{"equivalent": false, "reason": "differs", "input": null}`, want: agent.Judgement{Reason: "differs"}},
		{name: "an equivalent answer's input is dropped", reply: `{"equivalent": true, "reason": "same", "input": "f(1)"}`, want: agent.Judgement{Equivalent: true, Reason: "same"}},
		{name: "a string for the boolean", reply: `{"equivalent": "true", "reason": "same"}`, err: `"equivalent" must be true or false, got "true"`},
		{name: "no boolean", reply: `{"equivalent": null, "reason": "same"}`, err: `"equivalent" must be true or false, got null`},
		{name: "no reason", reply: `{"equivalent": true}`, err: `"reason" must be a string, got nothing`},
		{name: "empty reason", reply: `{"equivalent": true, "reason": "  "}`, err: `"reason" is empty`},
		{name: "a number for the input", reply: `{"equivalent": false, "reason": "x", "input": 3}`, err: `"input" must be a string, got 3`},
		{name: "prose", reply: "They look equivalent to me.", err: `no JSON object with "equivalent"`},
		{name: "answers that disagree", reply: "```json\n{\"equivalent\": true, \"reason\": \"a\"}\n```\nor rather\n```json\n{\"equivalent\": false, \"reason\": \"b\", \"input\": \"f(0)\"}\n```", err: "disagree"},
		{name: "broken JSON", reply: "```json\n{\"equivalent\": true, \"reason\": \"unterminated}\n```", err: `no JSON object`},
	} {
		got, err := ParseJudgement(tc.reply)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: %+v, %v; want an error with %q", tc.name, got, err, tc.err)
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("%s: %+v, %v; want %+v", tc.name, got, err, tc.want)
		}
	}
}
