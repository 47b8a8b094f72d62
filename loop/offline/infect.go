package offline

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	sitter "github.com/smacker/go-tree-sitter"
	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/buildtools/harness"
	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/loop/agent"
	"github.com/advertest/advertest-lsp/loop/mutants"
)

// Infection: when no input tells a mutant apart, the agent asks whether its inputs reached the
// state that would (docs/architecture.md, "Search evidence"). It wraps the mutated expression,
// in the original and in the mutant alike, in a call of a probe class appended to the source
// file (probeClass, package-private, so the class under test keeps its members), explores both
// once more with the same inputs, and compares, input by input, the values the expression had
// at each evaluation. Reached, infected on some inputs and observable on none is evidence of
// equivalence; never infected means the search never made the difference at the site at all.

// probeClass is the probe's simple name: a top-level class of the file's package.
const probeClass = "AdverTestSiteProbe"

// probeKeep bounds the values a probe keeps per call; it still counts and hashes every
// evaluation.
const probeKeep = 32

// probeSource is the probe: one p overload per primitive type and a generic one, each
// recording its argument and returning it. Reference values are recorded by their class, and
// by their text only for the JDK's value types (an arbitrary toString may show an identity
// hash, which differs between runs and would look like an infection).
var probeSource = `

/** Written by AdverTest's offline explorer: records the mutated expression's values. */
final class ` + probeClass + ` {
    private static final java.util.ArrayList<String> values = new java.util.ArrayList<>();
    private static int count;
    private static long hash;

    private ` + probeClass + `() {
    }

    private static synchronized void hit(String v, long bits) {
        count++;
        hash = (hash ^ bits) * 0x100000001B3L;
        if (values.size() < ` + fmt.Sprint(probeKeep) + `) {
            values.add(v);
        }
    }

    private static void hit(String v) {
        hit(v, v.hashCode() * 31L + v.length());
    }

    static boolean p(boolean v) { hit(v ? "true" : "false", v ? 1 : 0); return v; }
    static byte p(byte v) { hit("b" + v, v); return v; }
    static short p(short v) { hit("s" + v, v); return v; }
    static char p(char v) { hit("c" + (int) v, v); return v; }
    static int p(int v) { hit("i" + v, v); return v; }
    static long p(long v) { hit("l" + v, v); return v; }
    static float p(float v) { hit("f" + Float.floatToIntBits(v), Float.floatToIntBits(v)); return v; }
    static double p(double v) { hit("d" + Double.doubleToLongBits(v), Double.doubleToLongBits(v)); return v; }

    static <T> T p(T v) {
        hit(describe(v));
        return v;
    }

    private static String describe(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof String || v instanceof Number && v.getClass().getName().startsWith("java.")
                || v instanceof Boolean || v instanceof Character) {
            return v.getClass().getName() + ":" + v;
        }
        if (v instanceof Enum) {
            return v.getClass().getName() + ":" + ((Enum<?>) v).name();
        }
        Class<?> c = v.getClass();
        if (c.isArray()) {
            int n = java.lang.reflect.Array.getLength(v);
            int h = 1;
            if (c.getComponentType().isPrimitive()) {
                for (int i = 0; i < n; i++) {
                    h = 31 * h + String.valueOf(java.lang.reflect.Array.get(v, i)).hashCode();
                }
            }
            return c.getName() + "[" + n + "]#" + h;
        }
        return c.getName();
    }

    /**
     * The values since the last take, as JSON {"n": evaluations, "h": a hash of every value,
     * "v": [the first values]}; forgets them.
     */
    static synchronized String take() {
        StringBuilder b = new StringBuilder("{\"n\":").append(count).append(",\"h\":\"").append(Long.toHexString(hash)).append("\",\"v\":[");
        for (int i = 0; i < values.size(); i++) {
            b.append(i == 0 ? "\"" : ",\"");
            for (char ch : values.get(i).toCharArray()) {
                if (ch == '"' || ch == '\\') {
                    b.append('\\').append(ch);
                } else if (ch < 0x20 || ch > 0x7e) {
                    b.append(String.format("\\u%04x", (int) ch));
                } else {
                    b.append(ch);
                }
            }
            b.append('"');
        }
        values.clear();
        count = 0;
        hash = 0;
        return b.append("]}").toString();
    }
}
`

// siteValues is what the probe saw in one call: N evaluations, a hash H of all their values in
// order, the first of them in V.
type siteValues struct {
	N int      `json:"n"`
	H string   `json:"h"`
	V []string `json:"v"`
}

func (a *siteValues) same(b *siteValues) bool {
	return a.N == b.N && a.H == b.H && slices.Equal(a.V, b.V)
}

// expressionTypes are the tree-sitter node types that are Java expressions a call can wrap.
var expressionTypes = map[string]bool{
	"binary_expression": true, "unary_expression": true, "update_expression": true,
	"assignment_expression": true, "ternary_expression": true, "method_invocation": true,
	"field_access": true, "array_access": true, "identifier": true, "parenthesized_expression": true,
	"cast_expression": true, "object_creation_expression": true, "instanceof_expression": true,
	"array_creation_expression": true, "this": true,
	"decimal_integer_literal": true, "hex_integer_literal": true, "octal_integer_literal": true,
	"binary_integer_literal": true, "decimal_floating_point_literal": true, "hex_floating_point_literal": true,
	"true": true, "false": true, "null_literal": true, "string_literal": true, "character_literal": true,
}

// span is a byte range [start, end) of a source.
type span struct{ start, end int }

// siteSpan is the smallest wrappable expression of src that holds [start, end); ok is false
// when there is none (the change is a statement, a declaration, a type).
func siteSpan(src []byte, start, end int) (span, bool) {
	pf, err := javaparse.Parse(src)
	if err != nil {
		return span{}, false
	}
	if start == end {
		// an insertion or a deletion: the token it touches (the one it ends, after a name,
		// a number or a closing bracket; else the one it begins)
		if start > 0 && (identByte(src[start-1]) || src[start-1] == ')' || src[start-1] == ']') {
			start--
		} else if end < len(src) {
			end++
		}
	}
	var best *sitter.Node
	pf.WithTree(func(root *sitter.Node, _ []byte) {
		n := root
		for {
			var next *sitter.Node
			for i := 0; i < int(n.ChildCount()); i++ {
				c := n.Child(i)
				if int(c.StartByte()) <= start && end <= int(c.EndByte()) && c.EndByte() > c.StartByte() {
					next = c
					break
				}
			}
			if next == nil {
				break
			}
			n = next
			switch t := n.Type(); {
			case expressionTypes[t]:
				best = n
			case t == "block" || t == "lambda_expression" || t == "class_body" || strings.HasSuffix(t, "_statement") ||
				t == "local_variable_declaration":
				// the site is an expression of the innermost statement, never one around it
				// (a call whose lambda holds the change)
				best = nil
			}
		}
		// an identifier or access that is not a value: a method's name, an assignment's
		// target, the operand of ++ or --: wrap what holds it instead
		for best != nil && best.Parent() != nil && (lvalue(best) ||
			best.Parent().Type() == "method_invocation" && javaparse.SameNode(best.Parent().ChildByFieldName("name"), best) ||
			best.Parent().Type() == "field_access" && javaparse.SameNode(best.Parent().ChildByFieldName("field"), best)) {
			best = best.Parent()
		}
		// a constant or a variable alone always differs when it is what changed: its use is
		// the state (h == 41 against h == 42), unless the use is what gets assigned to
		if best != nil && best.ChildCount() == 0 {
			if p := best.Parent(); p != nil && expressionTypes[p.Type()] && p.Type() != "parenthesized_expression" && !lvalue(p) {
				best = p
			}
		}
		// (e) as a whole may be an if's or a while's condition, which a call cannot replace
		if best != nil && best.Type() == "parenthesized_expression" && best.NamedChildCount() == 1 {
			best = best.NamedChild(0)
		}
	})
	if best == nil {
		return span{}, false
	}
	return span{int(best.StartByte()), int(best.EndByte())}, true
}

// lvalue reports whether n is assigned to: an assignment's target, the operand of ++ or --.
func lvalue(n *sitter.Node) bool {
	p := n.Parent()
	return p != nil && (p.Type() == "update_expression" ||
		p.Type() == "assignment_expression" && javaparse.SameNode(p.ChildByFieldName("left"), n))
}

func identByte(b byte) bool {
	return b == '_' || b == '$' || b >= 0x80 || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// probedSources returns the original and the mutant with the mutated expression wrapped in the
// probe's call and the probe appended; ok is false when the change is not inside one
// expression that both sides share the place of.
func probedSources(src []byte, m mutants.Mutant) (orig, mut []byte, ok bool) {
	mutated, err := mutants.Apply(src, m)
	if err != nil {
		return nil, nil, false
	}
	// the change is on one line: the bytes both sources share before and after it
	pre := 0
	for pre < len(src) && pre < len(mutated) && src[pre] == mutated[pre] {
		pre++
	}
	post := 0
	for post < len(src)-pre && post < len(mutated)-pre && src[len(src)-1-post] == mutated[len(mutated)-1-post] {
		post++
	}
	if pre == len(src) && pre == len(mutated) {
		return nil, nil, false // no change
	}
	// widen until both sides' expressions sit at the same place
	for try := 0; try < 8; try++ {
		o, ok1 := siteSpan(src, pre, len(src)-post)
		u, ok2 := siteSpan(mutated, pre, len(mutated)-post)
		if !ok1 || !ok2 {
			return nil, nil, false
		}
		if o.start == u.start && len(src)-o.end == len(mutated)-u.end {
			return wrap(src, o), wrap(mutated, u), true
		}
		pre = min(o.start, u.start)
		post = min(len(src)-o.end, len(mutated)-u.end)
	}
	return nil, nil, false
}

func wrap(src []byte, at span) []byte {
	var b strings.Builder
	b.Write(src[:at.start])
	b.WriteString(probeClass + ".p(")
	b.Write(src[at.start:at.end])
	b.WriteString(")")
	b.Write(src[at.end:])
	b.WriteString(probeSource)
	return []byte(b.String())
}

// infectionEntry is one mutant's infection, computed once per source and mutant.
type infectionEntry struct {
	inf *agent.Infection // nil: the site could not be watched
}

// infection explores the probed original and mutant and counts, over the original's stable
// inputs, those that reached the site, infected it and changed an outcome. nil (and no error)
// when the site cannot be watched: no expression to wrap, or the wrapped code does not compile.
func (a *Agent) infection(ctx context.Context, s *agent.Subject, m mutants.Mutant, orig *original) (*agent.Infection, error) {
	key := sourceKey(s.Source) + "|infection|" + s.Method.BinaryClassName + "|" + s.Method.Signature + "|" + m.ID
	a.mu.Lock()
	if v, ok := a.cache.get(key); ok {
		a.mu.Unlock()
		return v.(infectionEntry).inf, nil
	}
	a.mu.Unlock()
	inf, err := a.watchSite(ctx, s, m, orig)
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	a.cache.put(key, infectionEntry{inf: inf}, int64(len(key))+64)
	a.mu.Unlock()
	return inf, nil
}

func (a *Agent) watchSite(ctx context.Context, s *agent.Subject, m mutants.Mutant, orig *original) (*agent.Infection, error) {
	start := time.Now()
	po, pm, ok := probedSources(s.Source, m)
	if !ok {
		a.log.Debug("offline: no expression to watch", zap.String("mutant", m.ID))
		return nil, nil
	}
	pkg := subjectPackage(s)
	junit := junitOf(s, a.pool)
	p := orig.params
	p.probe = probeClass
	if pkg != "" {
		p.probe = pkg + "." + probeClass
	}
	// one after the other: at once, on a loaded machine, their calls run past their bound
	var runs [2]*exploration
	for i, text := range [][]byte{po, pm} {
		e, err := a.explore(ctx, harness.Source{ClassName: s.Method.TopLevelClass, Text: string(text)}, pkg, junit, p)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			// the wrapped expression did not compile (a case label's constant, a void call)
			// or the run failed: the site is not watched, the plain evidence stands
			a.log.Debug("offline: the probed site cannot be explored", zap.String("mutant", m.ID), zap.Error(err))
			return nil, nil
		}
		runs[i] = e
	}
	inf := compareSites(orig, runs[0], runs[1])
	inf.Untried = untriedKinds(runs[0].kinds, s.Method)
	a.log.Debug("offline: infection", zap.String("mutant", m.ID), zap.Int("reached", inf.Reached),
		zap.Int("infected", inf.Infected), zap.Int("propagated", inf.Propagated), zap.Duration("took", time.Since(start)))
	return inf, nil
}

// compareSites counts, over the original's stable inputs that both probed runs made too, the
// inputs that reached the site in either, those whose site values differed, and those whose
// outcome on the mutant differed from the original's (as differences judges them).
func compareSites(orig *original, po, pm *exploration) *agent.Infection {
	ob, mb := po.byIndex(), pm.byIndex()
	inf := &agent.Infection{}
	for _, r := range orig.records {
		o, u := ob[r.I], mb[r.I]
		if o == nil || u == nil || o.key() != r.key() || u.key() != r.key() || o.Site == nil || u.Site == nil {
			continue
		}
		if o.Site.N == 0 && u.Site.N == 0 || bounded(o) || bounded(u) {
			// not reached; or a call past its bound, which the plain runs did not see (else
			// it would have been a difference): the load of the machine, not the code
			continue
		}
		inf.Reached++
		if !o.Site.same(u.Site) {
			inf.Infected++
		}
		if _, differ := outcomesDiffer(&r.outcome, &u.outcome); differ {
			inf.Propagated++
		}
	}
	return inf
}

func bounded(r *record) bool { return r.outcome.K == "timeout" || r.outcome.K == "bound" }
