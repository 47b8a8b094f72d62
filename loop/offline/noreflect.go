package offline

import (
	"regexp"
	"strings"
)

// A generated test calls only what a test in the class's package can call: never through
// reflection, which would reach private methods and constructors a plain call cannot (and
// break silently when they are renamed). withoutReflection drops any rendered test that uses
// it, whatever wrote it. The one reflective read allowed is the renderer's own assertion of a
// receiver's field when the receiver has no getters and no toString (asserts.go: a Field looked
// up by name, made accessible, read): it reads the state the explorer observed and calls
// nothing.

// reflectiveCode is any use of reflection in a test's line or import.
var reflectiveCode = regexp.MustCompile(`java\.lang\.reflect|java\.lang\.invoke|getDeclared|setAccessible|\.invoke\(|Class\.forName|\.getMethods?\(|\.getConstructors?\(|newInstance\(|MethodHandles`)

// fieldLookup and fieldOpened are the two lines asserts.go writes before reading a field.
var (
	fieldLookup = regexp.MustCompile(`^Field (\w+) = [\w.$]+\.class\.getDeclaredField\("[\w$]+"\);$`)
	fieldOpened = regexp.MustCompile(`^(\w+)\.setAccessible\(true\);$`)
)

// usesReflection reports whether a test's source or imports use reflection beyond the
// renderer's field reads.
func usesReflection(source string, imports []string) bool {
	for _, imp := range imports {
		if imp != "java.lang.reflect.Field" && reflectiveCode.MatchString(imp) {
			return true
		}
	}
	fields := map[string]bool{}
	for _, line := range strings.Split(source, "\n") {
		line = strings.TrimSpace(line)
		if m := fieldLookup.FindStringSubmatch(line); m != nil {
			fields[m[1]] = true
			continue
		}
		if m := fieldOpened.FindStringSubmatch(line); m != nil && fields[m[1]] {
			continue
		}
		if reflectiveCode.MatchString(line) {
			return true
		}
	}
	return false
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
