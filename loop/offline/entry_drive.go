package offline

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop/agent"
)

// Driving a method through its entry points (found in entry.go): the exploration through the
// first entry point whose inputs enter the method, the probe in the mutants' sources, and what
// the failed entry points say.

// throughEntry reports whether an entry point may drive a method the explorer refused: it
// cannot be called or its receiver cannot be made, not that it has no body or class.
func throughEntry(reason string) bool {
	for _, no := range []string{"has no body", "is abstract", "not found", "fails to initialise", "default method of an interface"} {
		if strings.Contains(reason, no) {
			return false
		}
	}
	return true
}

// drive is the original's exploration for s and the subject whose method the tests call: s
// itself when a test can drive its method, else the first of its entry points whose inputs
// entered it (entryEnough of them, else the one with the most). A method whose entry points
// all fail gives an *UnsupportedError that says which and why.
func (a *Agent) drive(ctx context.Context, s *agent.Subject) (*agent.Subject, *original, error) {
	orig, err := a.originalFor(ctx, s, nil)
	var ue *UnsupportedError
	if err == nil || !errors.As(err, &ue) || !throughEntry(ue.Reason) {
		return s, orig, err
	}
	f := s.Parsed
	if f == nil || !slices.Equal(f.Source(), s.Source) {
		if f, err = javaparse.Parse(s.Source); err != nil {
			return nil, nil, ue
		}
	}
	at := probeOffset(f, s.Method)
	entries := resultEntries(f, s.Method, at)
	for _, e := range entryPoints(f, s.Method) {
		entries = append(entries, &entryPoint{target: s.Method, entry: e, probeAt: at})
	}
	if at < 0 || len(entries) == 0 {
		return nil, nil, &UnsupportedError{Method: methodID(s), Reason: ue.Reason + ", and no method or constructor of its file that a test can call reaches it"}
	}
	var (
		best      *original
		bestS     *agent.Subject
		failures  []string
		bestCount int
	)
	for _, via := range entries {
		e := via.entry
		es := *s
		es.Method = e
		es.Context = f.Context(e)
		o, err := a.originalFor(ctx, &es, via)
		var eue *UnsupportedError
		var ce *compileError
		switch {
		case errors.As(err, &eue):
			failures = append(failures, via.name()+" cannot be driven ("+eue.Reason+")")
			continue
		case errors.As(err, &ce):
			// the probe's call where the target's body starts did not compile there
			failures = append(failures, via.name()+" cannot be driven (the source with the entry probe "+strings.TrimPrefix(ce.Error(), "offline: ")+")")
			continue
		case err != nil:
			return nil, nil, err
		}
		a.log.Debug("offline: entry point", zap.String("target", methodID(s)), zap.String("entry", via.name()),
			zap.Int("entered", len(o.records)), zap.Int("missed", o.missed))
		if len(o.records) == 0 {
			failures = append(failures, via.name()+" "+o.notEntered())
			continue
		}
		if len(o.records) > bestCount {
			best, bestS, bestCount = o, &es, len(o.records)
		}
		if bestCount >= entryEnough {
			break
		}
	}
	if best == nil {
		return nil, nil, &UnsupportedError{Method: methodID(s), Reason: ue.Reason + "; none of its entry points ran it: " + strings.Join(failures, "; ")}
	}
	return bestS, best, nil
}

// entryName names an entry point as a test calls it: Outer.parse(String), new Outer(int).
func entryName(m *javaparse.Method) string {
	var ps []string
	for _, p := range m.Params {
		ps = append(ps, p.Type)
	}
	name := strings.Join(m.ClassPath, ".")
	if m.Kind == javaparse.KindConstructor {
		return "new " + name + "(" + strings.Join(ps, ", ") + ")"
	}
	return name + "." + m.Name + "(" + strings.Join(ps, ", ") + ")"
}

// notEntered says why an entry point's exploration left no input that entered the target.
func (o *original) notEntered() string {
	if o.missed == o.inputs {
		// what the calls did instead: all thrown (a class that failed to initialise) reads
		// otherwise than all returned (a branch the search never took)
		var did []string
		for _, kw := range kindWords {
			if n := o.kinds[kw.kind]; n > 0 {
				did = append(did, fmt.Sprintf("%d %s", n, kw.words))
			}
		}
		return fmt.Sprintf("did not enter it on any of %s it ran (%s)", inputsText(o.inputs), strings.Join(did, ", "))
	}
	return fmt.Sprintf("entered it on %s, but %s", inputsText(o.inputs-o.missed), strings.TrimPrefix(o.noStableInput().Why, "the search "))
}

// entryLiterals are the target's literals, then the entry point's: the target's are the
// boundaries that tell its outcomes apart.
func entryLiterals(f *javaparse.File, lits literals, target *javaparse.Method) literals {
	out := scanLiterals(f, target.StartByte, target.EndByte)
	for _, v := range lits.ints {
		if !slices.Contains(out.ints, v) && len(out.ints) < maxLiterals {
			out.ints = append(out.ints, v)
		}
	}
	for _, v := range lits.doubles {
		if !slices.Contains(out.doubles, v) && len(out.doubles) < maxLiterals {
			out.doubles = append(out.doubles, v)
		}
	}
	for _, v := range lits.strings {
		if !slices.Contains(out.strings, v) && len(out.strings) < maxLiterals {
			out.strings = append(out.strings, v)
		}
	}
	for _, r := range lits.chars {
		if !strings.ContainsRune(out.chars, r) {
			out.chars += string(r)
		}
	}
	return out
}

// qualified is a class's binary name in pkg.
func qualified(pkg, class string) string {
	if pkg == "" {
		return class
	}
	return pkg + "." + class
}

// probedMutant is the mutant's text as the explorer runs it: with the entry probe where the
// original has it (shifted by the change when the change comes before it) when via is set.
func probedMutant(src, mutated []byte, via *entryPoint) []byte {
	if via == nil {
		return mutated
	}
	at := via.probeAt
	pre := 0
	for pre < len(src) && pre < len(mutated) && src[pre] == mutated[pre] {
		pre++
	}
	if pre < at {
		at += len(mutated) - len(src)
	}
	return withEntryProbe(mutated, at)
}
