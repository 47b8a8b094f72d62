package settings

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestParseNestedAndDefaults(t *testing.T) {
	base := Default(func(string) string { return "" })
	s, problems := Parse(base, json.RawMessage(`{"rounds": 3, "onSave": "round", "onSaveDelayMs": 50,
		"mutantTimeout": {"factor": 2, "constantMs": 1500}, "jobs": {"max": 1}, "maven": {"args": ["-q"]},
		"llm": {"model": "m", "pricing": {"inputPerMTok": 1.5}}, "agents": null}`))
	if len(problems) != 0 {
		t.Fatalf("problems: %v", problems)
	}
	if s.Rounds != 3 || s.OnSave != OnSaveRound || s.OnSaveDelay != 50*time.Millisecond || s.MutantTimeoutFactor != 2 ||
		s.MutantTimeoutConstant != 1500*time.Millisecond || s.JobsMax != 1 || strings.Join(s.MavenArgs, " ") != "-q" ||
		s.LLM.Model != "m" || s.LLM.InputPerMTok != 1.5 || s.Agents != "auto" {
		t.Fatalf("parsed %+v", s)
	}
	if c := s.LoopConfig(); c.Rounds != 3 || c.MutantTimeoutConstant != 1500*time.Millisecond {
		t.Errorf("loop config %+v", c)
	}
}

func TestParseBadValuesKeepDefaults(t *testing.T) {
	base := Default(func(string) string { return "" })
	s, problems := Parse(base, json.RawMessage(`{"rounds": "five", "onSave": "always", "jobs": 3, "workers": 0.5, "colour": 1, "mutantTimeout": {"factor": -1}}`))
	var got []string
	for _, p := range problems {
		got = append(got, p.String())
	}
	want := []string{
		"setting `colour`: unknown setting (ignored)",
		"setting `jobs`: want an object, got 3",
		"setting `mutantTimeout.factor`: want a number from 1 to 100, got -1; using 1.25",
		"setting `onSave`: want one of analyze, round, off, got \"always\"; using \"analyze\"",
		"setting `rounds`: want an integer from 1 to 99, got \"five\"; using 5",
		"setting `workers`: want an integer from 1 to 64, got 0.5; using " + itoa(base.Workers),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s.Rounds != 5 || s.OnSave != OnSaveAnalyze || s.JobsMax != 2 || s.MutantTimeoutFactor != 1.25 {
		t.Fatalf("defaults not kept: %+v", s)
	}
	if _, problems := Parse(base, json.RawMessage(`[1]`)); len(problems) != 1 {
		t.Fatalf("a list: %v", problems)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
