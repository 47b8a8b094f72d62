package llm

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/javaparse"
)

// TestRepairRules compiles realistic broken test classes with the real javac (the project's
// worker pool), applies the rules to the diagnostics until the class compiles, and checks
// which rules did it.
func TestRepairRules(t *testing.T) {
	proj, root := openCalculator(t)
	file := filepath.Join(root, "src", "main", "java", "org", "acme", "PriceCalculator.java")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pf, _ := javaparse.Parse(src)
	ctxInfo := pf.Context(pf.FindMethods("clamp")[0])
	rc := RuleContext{Package: "org.acme", Class: "org.acme.PriceCalculator", Imports: ctxInfo.Imports, JUnit: 5, TestPackage: "org.acme"}
	const head = "package org.acme;\n\nimport static org.junit.jupiter.api.Assertions.*;\nimport org.junit.jupiter.api.Test;\n\nclass RuleProbeTest {\n"
	for _, tc := range []struct {
		name  string
		body  string
		rules []string
	}{
		{"semicolon", "    @Test\n    void a() {\n        int x = PriceCalculator.clamp(5, 0, 10)\n        assertEquals(5, x);\n    }\n}\n", []string{RuleSemicolon}},
		{"eof", "    @Test\n    void a() {\n        assertEquals(5, PriceCalculator.clamp(5, 0, 10));\n    }\n", []string{RuleEOF}},
		{"statement", "    @Test\n    void a() {\n        int x = 1;\n        x++\n        assertEquals(2, x);\n    }\n}\n", nil},
		{"scope", "    @Test\n    void a() {\n        assertEquals(5, PriceCalculator.clamp(5, 0, 10));\n\n    @Test\n    void b() {\n        assertEquals(0, PriceCalculator.clamp(-5, 0, 10));\n    }\n}\n", []string{RuleScope}},
		{"placeholder", "    @Test\n    void a() {\n        assertEquals(5, PriceCalculator.clamp(5, 0, 10));\n        ...\n    }\n}\n", []string{RulePlaceholder}},
		{"imports", "    @Test\n    void a() {\n        List<Integer> xs = new ArrayList<>();\n        xs.add(PriceCalculator.clamp(5, 0, 10));\n        Collections.sort(xs);\n        assertEquals(5, (int) xs.get(0));\n    }\n}\n", []string{RuleImports}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := head + tc.body
			var used []string
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			for pass := 0; ; pass++ {
				cr, err := proj.Pool.Compile(ctx, []harness.Source{{ClassName: "org.acme.RuleProbeTest", Text: text}})
				if err != nil {
					t.Fatal(err)
				}
				if cr.OK {
					break
				}
				if pass == maxRulePasses {
					t.Fatalf("still broken after the rules (%v):\n%s\n%v", used, text, cr.Diagnostics)
				}
				var applied []string
				text, applied = ApplyRules(text, cr.Diagnostics, rc)
				if len(applied) == 0 {
					t.Fatalf("no rule for %v:\n%s", cr.Diagnostics, text)
				}
				used = append(used, applied...)
			}
			for _, r := range tc.rules {
				if !slices.Contains(used, r) {
					t.Errorf("rules used %v, want %s", used, r)
				}
			}
			if tc.name == "statement" && !slices.Contains(used, RuleSemicolon) && !slices.Contains(used, RuleStatement) {
				t.Errorf("rules used %v", used)
			}
			t.Logf("%s: %v", tc.name, used)
		})
	}
}
