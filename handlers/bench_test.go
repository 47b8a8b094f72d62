package handlers_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/handlers"
	"github.com/advertest/advertest-lsp/server"
	"github.com/advertest/advertest-lsp/server/lsptest"
)

// bigJava generates a Java file of about lines lines: one class of
// ten-line methods. methodLine(i) is the 0-based line of the body of method
// i's `return` statement.
func bigJava(lines int) (src string, methods int) {
	var b strings.Builder
	b.WriteString("package org.acme.big;\n\nimport java.util.List;\n\npublic class Big {\n    private int count;\n\n")
	header := 7
	for i := 0; header+10*(i+1)+1 <= lines; i++ {
		fmt.Fprintf(&b, "    /** Method %d. */\n", i)
		fmt.Fprintf(&b, "    public int m%d(int a, int b) {\n", i)
		b.WriteString("        int s = a;\n")
		b.WriteString("        for (int k = 0; k < b; k++) {\n")
		b.WriteString("            s += k * 3 - 1;\n")
		b.WriteString("        }\n")
		b.WriteString("        if (s > 100) {\n")
		b.WriteString("            return s - 100;\n")
		b.WriteString("        }\n")
		b.WriteString("    }\n")
		methods++
	}
	b.WriteString("}\n")
	return b.String(), methods
}

// methodLine is the 0-based line of `int s = a;` in method i of bigJava.
func methodLine(i int) int { return 7 + 10*i + 2 }

func startBench(b *testing.B) *lsptest.Client {
	b.Helper()
	c, _ := lsptest.Start(b, server.Config{Logger: zap.NewNop(), NewHandler: handlers.NewFunc(handlers.Options{})})
	if err := c.Call("initialize", map[string]any{"capabilities": map[string]any{}}, nil); err != nil {
		b.Fatal(err)
	}
	c.Notify("initialized", map[string]any{})
	return c
}

func reportPercentiles(b *testing.B, latencies []time.Duration) {
	if len(latencies) == 0 {
		return
	}
	slices.Sort(latencies)
	at := func(p float64) float64 {
		return float64(latencies[int(p*float64(len(latencies)-1))].Nanoseconds()) / 1e6
	}
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.95), "p95-ms")
}

// BenchmarkServer5000Lines measures a 5,000-line Java file through the real
// server over a pipe. Run:
//
//	go test -run '^$' -bench Server5000Lines -benchtime 200x ./handlers/
func BenchmarkServer5000Lines(b *testing.B) {
	src, methods := bigJava(5000)
	if n := strings.Count(src, "\n"); n < 4990 || n > 5000 {
		b.Fatalf("generated %d lines", n)
	}
	uri := "file:///bench/org/acme/big/Big.java"

	// didOpen: the first full parse. Each iteration opens a new document and
	// waits for it with a code action (requests wait for earlier
	// notifications), then closes it.
	b.Run("didOpen", func(b *testing.B) {
		c := startBench(b)
		b.SetBytes(int64(len(src)))
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			u := fmt.Sprintf("file:///bench/open%d/Big.java", i)
			openDoc(c, u, "java", src)
			var actions []any
			if err := c.Call("textDocument/codeAction", codeActionParams(u, methodLine(methods-1), 8), &actions); err != nil || len(actions) != 2 {
				b.Fatalf("codeAction after didOpen: %d actions, %v", len(actions), err)
			}
			c.Notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": u}})
		}
	})

	b.Run("codeAction", func(b *testing.B) {
		c := startBench(b)
		openDoc(c, uri, "java", src)
		latencies := make([]time.Duration, 0, b.N)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			start := time.Now()
			var actions []any
			if err := c.Call("textDocument/codeAction", codeActionParams(uri, methodLine((i*37)%methods), 8), &actions); err != nil || len(actions) != 2 {
				b.Fatalf("codeAction: %d actions, %v", len(actions), err)
			}
			latencies = append(latencies, time.Since(start))
		}
		b.StopTimer()
		reportPercentiles(b, latencies)
	})

	// didChange+codeAction: a one-character edit (insert, then delete, a
	// digit in `int s = a;`) and a code action on the edited method, which
	// must see the edit (an incremental re-parse).
	b.Run("didChange+codeAction", func(b *testing.B) {
		c := startBench(b)
		openDoc(c, uri, "java", src)
		latencies := make([]time.Duration, 0, b.N)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			m := (i / 2 * 53) % methods
			line := methodLine(m)
			pos := map[string]any{"line": line, "character": 17} // after `        int s = a`
			end := pos
			text := "1"
			if i%2 == 1 {
				end = map[string]any{"line": line, "character": 18}
				text = ""
			}
			start := time.Now()
			c.Notify("textDocument/didChange", map[string]any{
				"textDocument":   map[string]any{"uri": uri, "version": i + 2},
				"contentChanges": []any{map[string]any{"range": map[string]any{"start": pos, "end": end}, "text": text}},
			})
			var actions []struct{ Title string }
			if err := c.Call("textDocument/codeAction", codeActionParams(uri, line, 8), &actions); err != nil || len(actions) != 2 {
				b.Fatalf("codeAction after didChange: %v, %v", actions, err)
			}
			latencies = append(latencies, time.Since(start))
			if want := fmt.Sprintf("`m%d`", m); !strings.Contains(actions[0].Title, want) {
				b.Fatalf("title %q, want %s", actions[0].Title, want)
			}
		}
		b.StopTimer()
		reportPercentiles(b, latencies)
	})
}
