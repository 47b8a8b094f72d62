package main

import (
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/advertest/advertest-lsp/cmd/internal/benchkit"
)

// Summary is the figures over a set of measured methods (a library's half, a half, all). A
// method without a kept test counts as 0 in every mean.
type Summary struct {
	Methods  int `json:"methods"`
	WithTest int `json:"withTest"`
	// WithTestRate is WithTest / Methods.
	WithTestRate float64 `json:"withTestRate"`
	// Means over the methods of the method's line and branch coverage and mutation score.
	LineCoverage   float64 `json:"lineCoverage"`
	BranchCoverage float64 `json:"branchCoverage"`
	MutationScore  float64 `json:"mutationScore"`
	// Faults counts the seeded faults that count (the library's own tests detect them);
	// Detected those the written suites detect; DetectionRate is their ratio (0 for none);
	// Coinciding those equal to one of the run's mutants.
	Faults        int     `json:"faults"`
	Detected      int     `json:"detected"`
	DetectionRate float64 `json:"detectionRate"`
	Coinciding    int     `json:"coinciding"`
	// ByKind is the detection per fault kind: [counted, detected].
	ByKind map[string][2]int `json:"byKind"`
	// MethodsWithFaults counts the methods that have counted faults.
	MethodsWithFaults int     `json:"methodsWithFaults"`
	MedianSeconds     float64 `json:"medianSeconds"`
	MaxSeconds        float64 `json:"maxSeconds"`
	Timeouts          int     `json:"timeouts"`
	Errors            int     `json:"errors"`
	// ErrorCauses groups the errors by cause (the message's shape), NoTestCauses the methods
	// without a test by the run's first warning; each with its count.
	ErrorCauses  map[string]int `json:"errorCauses,omitempty"`
	NoTestCauses map[string]int `json:"noTestCauses,omitempty"`
}

// summarize sums up the results.
func summarize(results []MethodResult) Summary {
	s := Summary{ByKind: map[string][2]int{}}
	var times []float64
	for _, r := range results {
		s.Methods++
		times = append(times, r.Seconds)
		if r.WithTest {
			s.WithTest++
			s.LineCoverage += r.LineCoverage
			s.BranchCoverage += r.BranchCoverage
			s.MutationScore += r.MutationScore
		} else if r.Status != Errored {
			s.NoTestCauses = bump(s.NoTestCauses, noTestCause(r))
		}
		switch r.Status {
		case TimedOut:
			s.Timeouts++
		case Errored:
			s.Errors++
			s.ErrorCauses = bump(s.ErrorCauses, Cause(r.Error))
		}
		if len(r.Faults) > 0 {
			s.MethodsWithFaults++
		}
		for _, f := range r.Faults {
			k := s.ByKind[f.Kind]
			k[0]++
			s.Faults++
			if f.Detected {
				k[1]++
				s.Detected++
			}
			if f.CoincidesWithMutant {
				s.Coinciding++
			}
			s.ByKind[f.Kind] = k
		}
	}
	if s.Methods > 0 {
		n := float64(s.Methods)
		s.WithTestRate = float64(s.WithTest) / n
		s.LineCoverage /= n
		s.BranchCoverage /= n
		s.MutationScore /= n
	}
	if s.Faults > 0 {
		s.DetectionRate = float64(s.Detected) / float64(s.Faults)
	}
	s.MedianSeconds, s.MaxSeconds = benchkit.Median(times), benchkit.Max(times)
	return s
}

func bump(m map[string]int, k string) map[string]int {
	if m == nil {
		m = map[string]int{}
	}
	m[k]++
	return m
}

// noTestCause is why a method got no test: the run's first warning, else what the figures say.
func noTestCause(r MethodResult) string {
	switch {
	case r.Status == TimedOut:
		return "the run reached its time cap"
	case len(r.Warnings) > 0:
		return Cause(r.Warnings[0])
	case r.Mutants == 0:
		return "no mutant, no warning"
	default:
		return "no test kept, no warning"
	}
}

var (
	quoted = regexp.MustCompile("`[^`]*`|\"[^\"]*\"|'[^']*'")
	// diagnostics are a compiler's list as the CLI prints it ([{Class line col error text} …]):
	// its quotes are unbalanced (')' expected), so it goes whole, before the quotes.
	diagnostics = regexp.MustCompile(`\[\{.*\}\]`)
	numbers     = regexp.MustCompile(`\d+(\.\d+)?`)
	paths       = regexp.MustCompile(`(/[\w.@+-]+)+`)
	// javaNames are qualified Java names (org.acme.Foo$Bar.baz): a package's lower-case first
	// part and at least one dot.
	javaNames = regexp.MustCompile(`\b[a-z][\w]*(\.[\w$]+)+\b`)
)

// Cause is the shape of a message, for grouping: its first line with quoted text, paths,
// qualified Java names and numbers blanked, at most 140 characters.
func Cause(msg string) string {
	s := benchkit.FirstLine(msg)
	s = diagnostics.ReplaceAllString(s, "[diagnostics]")
	s = quoted.ReplaceAllString(s, "…")
	s = paths.ReplaceAllString(s, "PATH")
	s = javaNames.ReplaceAllString(s, "NAME")
	s = numbers.ReplaceAllString(s, "N")
	if len(s) > 140 {
		s = s[:137] + "…"
	}
	return s
}

// methodLine is one method's line of the table.
func methodLine(r MethodResult) string {
	m := r.Method
	detected := 0
	for _, f := range r.Faults {
		if f.Detected {
			detected++
		}
	}
	verdict := "no test"
	if r.WithTest {
		verdict = fmt.Sprintf("%d tests", r.Tests)
	}
	switch r.Status {
	case TimedOut:
		verdict += " (timeout)"
	case Errored:
		verdict = "error"
	}
	faults := "-"
	if len(r.Faults) > 0 {
		faults = fmt.Sprintf("%d/%d", detected, len(r.Faults))
	}
	name := m.Display()
	if len(name) > 44 {
		name = name[:43] + "…"
	}
	return fmt.Sprintf("%-8s %-12s %-44s %-18s %5.0f%% %5.0f%% %5.0f%% %6s %7.1f s",
		m.Half, m.Library, name, verdict, 100*r.LineCoverage, 100*r.BranchCoverage, 100*r.MutationScore, faults, r.Seconds)
}

// printTable prints the methods, then per library and half, per half and overall, the
// figures; then the detection per fault kind, the causes, and the mutation runs.
func printTable(w io.Writer, doc *BenchDoc) {
	fmt.Fprintf(w, "%-8s %-12s %-44s %-18s %6s %6s %6s %6s %9s\n", "half", "library", "method", "tests", "line", "branch", "score", "faults", "run time")
	for _, r := range doc.Results {
		fmt.Fprintln(w, methodLine(r))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%-22s %7s %9s %6s %6s %6s %13s %9s %8s %8s %6s\n", "", "methods", "with test", "line", "branch", "score", "faults found", "coincide", "median", "max", "errors")
	keys := slices.Sorted(maps.Keys(doc.Summaries))
	slices.SortStableFunc(keys, func(a, b string) int { return summaryRank(a) - summaryRank(b) })
	for _, k := range keys {
		s := doc.Summaries[k]
		fmt.Fprintf(w, "%-22s %7d %4d %3.0f%% %5.1f%% %5.1f%% %5.1f%% %4d/%-3d %3.0f%% %9d %6.1f s %6.1f s %6d\n", k, s.Methods, s.WithTest, 100*s.WithTestRate,
			100*s.LineCoverage, 100*s.BranchCoverage, 100*s.MutationScore, s.Detected, s.Faults, 100*s.DetectionRate, s.Coinciding, s.MedianSeconds, s.MaxSeconds, s.Errors+s.Timeouts)
	}
	for _, half := range []string{"dev", "holdout", "all"} {
		s, ok := doc.Summaries[half]
		if !ok {
			continue
		}
		fmt.Fprintf(w, "\n%s: seeded faults detected per kind:", half)
		for _, kind := range slices.Sorted(maps.Keys(s.ByKind)) {
			k := s.ByKind[kind]
			fmt.Fprintf(w, " %s %d/%d;", kind, k[1], k[0])
		}
		fmt.Fprintln(w)
		printCauses(w, "  methods without a test, by cause", s.NoTestCauses)
		printCauses(w, "  errors, by cause", s.ErrorCauses)
	}
	if len(doc.Mutation) > 0 {
		fmt.Fprintf(w, "\nmutation analysis with the libraries' own suites (advertest mutate against one plain mvn test):\n")
		fmt.Fprintf(w, "%-12s %-10s %22s %10s %8s %10s %10s %9s %12s %s\n", "library", "what", "mvn test", "wall", "mutants", "baseline", "mutants/s", "score", "1st verdict", "tests not run / reaching / new (map)")
		for _, m := range doc.Mutation {
			mvn := fmt.Sprintf("%.1f s (%d tests)", m.MvnTest.Seconds, m.MvnTest.Tests)
			for _, part := range []struct {
				what string
				run  *MutateRun
			}{{"methods", m.Methods}, {"second", m.Second}, {"class", m.Class}} {
				if part.run == nil {
					continue
				}
				r := part.run
				score := "-"
				if r.Score != nil {
					score = fmt.Sprintf("%.1f%%", 100**r.Score)
				}
				fmt.Fprintf(w, "%-12s %-10s %22s %8.1f s %8d %9.0f%% %10.2f %9s %10.1f s %d / %d / %d (%.1f MB)", m.Library, fmt.Sprintf("%s(%d)", part.what, r.Methods), mvn, r.Seconds, r.Mutants, 100*r.BaselineShare, r.MutantsPerSecond, score,
					r.FirstVerdictSeconds, r.MapNotRun, r.MapReaching, r.MapRerun, float64(r.MapBytes)/(1<<20))
				if r.Error != "" || r.TimedOut {
					fmt.Fprintf(w, "  (%s)", firstNonEmpty(benchkit.FirstLine(r.Error), "timed out"))
				}
				fmt.Fprintln(w)
			}
			if sr := m.Server; sr != nil {
				fmt.Fprintf(w, "%-12s %-10s %22s first Analyze %.1f s (first verdicts %.1f s), second Analyze of another class %.1f s", m.Library, "server", mvn, sr.FirstSeconds, sr.FirstVerdictsSeconds, sr.SecondSeconds)
				if sr.Error != "" {
					fmt.Fprintf(w, "  (%s)", benchkit.FirstLine(sr.Error))
				}
				fmt.Fprintln(w)
			}
			for _, s := range m.Skipped {
				fmt.Fprintf(w, "%-12s skipped: %s\n", m.Library, s)
			}
		}
	}
	for _, s := range doc.Skipped {
		fmt.Fprintf(w, "\nskipped %s: %s\n", s.Library, s.Reason)
	}
	for _, r := range doc.Results {
		if r.Error != "" {
			fmt.Fprintf(w, "\n%s %s: %s\n", r.Method.Library, r.Method.Display(), strings.TrimSpace(benchkit.Tail(r.Error, 1500)))
		}
	}
}

func printCauses(w io.Writer, title string, causes map[string]int) {
	if len(causes) == 0 {
		return
	}
	fmt.Fprintf(w, "%s:\n", title)
	keys := slices.Sorted(maps.Keys(causes))
	slices.SortStableFunc(keys, func(a, b string) int { return causes[b] - causes[a] })
	for _, k := range keys {
		fmt.Fprintf(w, "    %3d  %s\n", causes[k], k)
	}
}

// summaryRank orders the summary rows: libraries' halves first, then the halves, then all.
func summaryRank(k string) int {
	switch k {
	case "dev":
		return 1
	case "holdout":
		return 2
	case "all":
		return 3
	}
	return 0
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
