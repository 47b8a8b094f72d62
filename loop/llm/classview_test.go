package llm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/loop"
	"github.com/advertest/advertest-lsp/loop/agent"
	"github.com/advertest/advertest-lsp/loop/llm/prompts"
)

// limiterSource is a rate limiter whose constructor's body decides what tryAcquire does: the
// starting tokens, where the refill clock starts, a rate of 0 rejected.
const limiterSource = `package org.acme.limits;

import org.acme.util.Clock;

public class RateLimiter {
    private final int ratePerSecond;
    private double tokens;
    private long lastRefill;

    public RateLimiter(int ratePerSecond) {
        if (ratePerSecond <= 0) {
            throw new IllegalArgumentException("rate must be positive");
        }
        this.ratePerSecond = ratePerSecond;
        this.tokens = ratePerSecond;
        this.lastRefill = Clock.now();
    }

    /** Takes one token if there is one. */
    public boolean tryAcquire() {
        refill();
        if (tokens >= 1) {
            tokens -= 1;
            return true;
        }
        return false;
    }

    private void refill() {
        long now = Clock.now();
        tokens = Math.min(ratePerSecond, tokens + (now - lastRefill) * ratePerSecond / 1000.0);
        lastRefill = now;
    }

    /** A report no one calls from tryAcquire. */
    public String describe() {
        StringBuilder b = new StringBuilder();
        b.append("RateLimiter(");
        b.append(ratePerSecond);
        b.append(", ");
        b.append(tokens);
        b.append(")");
        return b.toString();
    }

    public int burst() {
        return tryAcquire() ? 1 : 0;
    }
}
`

const clockSource = `package org.acme.util;

public final class Clock {
    private Clock() {
    }

    /** Milliseconds since the epoch. */
    public static long now() {
        return System.currentTimeMillis();
    }
}
`

// limiterSubject writes the two classes under a source root and returns the subject of
// method (a name of RateLimiter).
func limiterSubject(t *testing.T, method string) *agent.Subject {
	t.Helper()
	root := filepath.Join(t.TempDir(), "src", "main", "java")
	for path, text := range map[string]string{"org/acme/limits/RateLimiter.java": limiterSource, "org/acme/util/Clock.java": clockSource} {
		p := filepath.Join(root, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	target, err := loop.ResolveTarget(filepath.Join(root, "org", "acme", "limits", "RateLimiter.java"), 0, method)
	if err != nil {
		t.Fatal(err)
	}
	return &agent.Subject{File: target.File, Source: target.Source, Parsed: target.Parsed, Method: target.Method,
		Context: target.Parsed.Context(target.Method), JUnit: 5, TestClassName: "RateLimiterAdverTest"}
}

func TestPromptShowsTheWholeClass(t *testing.T) {
	s := limiterSubject(t, "tryAcquire")
	m := methodInputs(s, DefaultContextTokens)
	// The constructor's body, with the file's line numbers.
	for _, want := range []string{"15:         this.tokens = ratePerSecond;", "16:         this.lastRefill = Clock.now();", "42:         b.append(\")\");"} {
		if !strings.Contains(m.Listing, want) {
			t.Errorf("the listing lacks %q:\n%s", want, m.Listing)
		}
	}
	if m.Elided || m.Private != "" || m.StartLine != 20 || m.EndLine != 27 || strings.Contains(m.Listing, "{ … }") {
		t.Errorf("elided %v, private %q, lines %d-%d", m.Elided, m.Private, m.StartLine, m.EndLine)
	}
	// The other class's method it calls (through refill), with its own line numbers.
	if !strings.Contains(m.Others, "// Clock.java\n8:     public static long now() {\n9:         return System.currentTimeMillis();") {
		t.Errorf("the other class's method is missing:\n%s", m.Others)
	}
}

func TestPromptElidesWhatTheMethodDoesNotReach(t *testing.T) {
	s := limiterSubject(t, "tryAcquire")
	whole := methodInputs(s, DefaultContextTokens).Listing
	m := methodInputs(s, len(whole)/4-20) // a little less than the whole file
	if !m.Elided {
		t.Fatalf("not elided:\n%s", m.Listing)
	}
	for _, want := range []string{
		"8:     private long lastRefill;",                         // fields
		"15:         this.tokens = ratePerSecond;",                // the constructor
		"22:         if (tokens >= 1) {",                          // the method
		"31:         tokens = Math.min(ratePerSecond, tokens + (", // what it calls
		"36:     public String describe() { … }",                  // elided to its signature
		"49: }",
	} {
		if !strings.Contains(m.Listing, want) {
			t.Errorf("the elided listing lacks %q:\n%s", want, m.Listing)
		}
	}
	for _, gone := range []string{"b.append", "A report no one calls"} {
		if strings.Contains(m.Listing, gone) {
			t.Errorf("the elided listing still has %q:\n%s", gone, m.Listing)
		}
	}
	if len(m.Listing) > len(whole) {
		t.Errorf("the elided listing is longer than the file")
	}
}

func TestPrivateMethodNamesItsCallers(t *testing.T) {
	s := limiterSubject(t, "refill")
	m := methodInputs(s, DefaultContextTokens)
	if m.Private != "it is private" || len(m.Callers) != 1 || m.Callers[0] != "public boolean tryAcquire() (line 20)" {
		t.Errorf("private %q, callers %q", m.Private, m.Callers)
	}
	// burst reaches it through tryAcquire, which is accessible: tryAcquire is named, not burst.
	msgs, err := agentMessages("T", s, "test_initial", promptsTask(s), DefaultContextTokens)
	if err != nil {
		t.Fatal(err)
	}
	u := msgs[1].Content
	for _, want := range []string{"A test cannot call it directly (it is private)", "- `public boolean tryAcquire() (line 20)`", "Do not use reflection"} {
		if !strings.Contains(u, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, u)
		}
	}
}

func promptsTask(s *agent.Subject) prompts.Task {
	return prompts.Task{TestClassName: s.TestClassName, JUnit: s.JUnit}
}
