package offline

import (
	"regexp"
)

// A generated test calls only what a test in the class's package can call: never through
// reflection, which would reach private methods, constructors and fields a plain call cannot
// (and break silently when they are renamed). withoutReflection drops any rendered test that
// uses it, whatever wrote it; the renderer itself writes none (a receiver's private state is
// observed through its accessible methods and fields only, docs/explorer.md "Observations").

// reflectiveCode is any use of reflection in a test's line or import. A field is looked up only
// on a class literal (Ledger.class.getField): record.getField("name") is a plain API's call.
var reflectiveCode = regexp.MustCompile(`java\.lang\.reflect|java\.lang\.invoke|getDeclared|setAccessible|\.invoke\(|Class\.forName|\.getMethods?\(|\.getConstructors?\(|\.class\.getFields?\(|newInstance\(|MethodHandles`)

// usesReflection reports whether a test's source or imports use reflection.
func usesReflection(source string, imports []string) bool {
	for _, imp := range imports {
		if reflectiveCode.MatchString(imp) {
			return true
		}
	}
	return reflectiveCode.MatchString(source)
}

// withoutReflection drops the tests (and their candidates, which go in step) that use
// reflection.
func withoutReflection(tests []rendered, cands []candidate) ([]rendered, []candidate) {
	var ts []rendered
	var cs []candidate
	for i, t := range tests {
		if usesReflection(t.source, t.imports) {
			continue
		}
		ts = append(ts, t)
		cs = append(cs, cands[i])
	}
	return ts, cs
}
