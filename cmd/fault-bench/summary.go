package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/advertest/advertest-lsp/cmd/internal/benchkit"
)

// Summary is the figures of one half (or of all faults).
type Summary struct {
	Faults   int `json:"faults"`
	Detected int `json:"detected"`
	// Rate is Detected / Faults (0 for no faults).
	Rate float64 `json:"rate"`
	// MedianSeconds and MaxSeconds are over the `advertest run` times, timeouts included
	// (at the limit they ran to).
	MedianSeconds float64 `json:"medianSeconds"`
	MaxSeconds    float64 `json:"maxSeconds"`
	Timeouts      int     `json:"timeouts"`
	Errors        int     `json:"errors"`
}

// summarize sums up the results of half ("" for all); interrupted faults are left out.
func summarize(results []Result, half Half) Summary {
	var s Summary
	var times []float64
	for _, r := range results {
		if r.Status == Interrupted || (half != "" && r.Half != half) {
			continue
		}
		s.Faults++
		switch r.Status {
		case Detected:
			s.Detected++
		case Timeout:
			s.Timeouts++
		case Failed:
			s.Errors++
		}
		times = append(times, r.RunSeconds)
	}
	if s.Faults > 0 {
		s.Rate = float64(s.Detected) / float64(s.Faults)
	}
	s.MedianSeconds, s.MaxSeconds = benchkit.Median(times), benchkit.Max(times)
	return s
}

// resultLine is one fault's line of the table.
func resultLine(r Result) string {
	verdict := string(r.Status)
	switch r.Status {
	case Detected:
		verdict = "yes"
		if r.HungOnBuggy {
			verdict = "yes (hangs)"
		}
	case Missed:
		verdict = "no"
	case Timeout:
		verdict = "no (timeout)"
	case Failed:
		verdict = "no (error)"
	}
	tests := fmt.Sprintf("%d tests", r.Tests)
	if r.Tests != r.PassingOnFixed && r.Status != Timeout && r.Status != Failed {
		tests += fmt.Sprintf(" (%d fail on fixed)", r.Tests-r.PassingOnFixed)
	}
	return fmt.Sprintf("%-8s %-34s %-13s %-26s %6.1f s", r.Half, r.Name, verdict, tests, r.RunSeconds)
}

// printTable prints every result, dev half first, by name, then the figures per half and
// overall; errors follow the table, one paragraph each.
func printTable(w io.Writer, results []Result) {
	sorted := append([]Result(nil), results...)
	sort.Slice(sorted, func(i, j int) bool {
		if sorted[i].Half != sorted[j].Half {
			return sorted[i].Half == Dev
		}
		return sorted[i].Name < sorted[j].Name
	})
	fmt.Fprintf(w, "%-8s %-34s %-13s %-26s %8s\n", "half", "method", "detected", "tests", "run time")
	for _, r := range sorted {
		fmt.Fprintln(w, resultLine(r))
	}
	fmt.Fprintln(w)
	for _, h := range []Half{Dev, Holdout, ""} {
		s := summarize(results, h)
		if s.Faults == 0 {
			continue
		}
		name := string(h)
		if h == "" {
			name = "all"
		}
		fmt.Fprintf(w, "%-8s detected %2d of %2d (%5.1f%%)  median %6.1f s  max %6.1f s", name, s.Detected, s.Faults, 100*s.Rate, s.MedianSeconds, s.MaxSeconds)
		if s.Timeouts > 0 || s.Errors > 0 {
			fmt.Fprintf(w, "  (%d timeouts, %d errors)", s.Timeouts, s.Errors)
		}
		fmt.Fprintln(w)
	}
	for _, r := range sorted {
		if r.Error != "" {
			fmt.Fprintf(w, "\n%s: %s\n", r.Name, strings.TrimSpace(r.Error))
		}
	}
}
