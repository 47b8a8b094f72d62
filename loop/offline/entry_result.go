package offline

import (
	"slices"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/advertest/advertest-lsp/javaparse"
)

// Entry through a factory's result: a method of a class a test cannot name (private, inner,
// anonymous) that overrides or implements a method of an accessible supertype S is usually run
// by calling S's method on what an accessible method returns (CSVParser.iterator() returns
// its inner CSVRecordIterator as an Iterator<CSVRecord>; GJChronology's field getters return
// its private CutoverField as a DateTimeField). Such an entry point's exploration calls the
// target's name on those results: the explorer (Results.java) finds S by reflection, among the
// return types of the accessible methods of the target's file (its enclosing classes and their
// nameable nested classes, static or on a receiver it makes), and the tests declare the result
// as S. The entry probe counts the calls that entered the target, as for the other entry points.

// resultEntries is the entry through a result for target when one may reach it: an instance
// method with a body, not private (a private method overrides nothing), of a class a test
// cannot name. It comes before the file's entry points: those call what makes the object, and
// rarely the method on it.
func resultEntries(f *javaparse.File, target *javaparse.Method, probeAt int) []*entryPoint {
	if probeAt < 0 || target.Kind != javaparse.KindMethod || target.Static || target.BodyStartByte < 0 ||
		slices.Contains(target.Modifiers, "private") || slices.Contains(target.Modifiers, "static") {
		return nil
	}
	classes := fileClasses(f)
	if !unnameable(target.ClassPath, classes) {
		return nil
	}
	// a named class that extends and implements nothing overrides only Object's methods, which
	// no result is called for (an anonymous class always has a supertype)
	if fc, ok := classes[strings.Join(target.ClassPath, "$")]; ok && !hasSupertype(f, fc) {
		return nil
	}
	return []*entryPoint{{target: target, entry: target, probeAt: probeAt, result: true}}
}

// hasSupertype reports whether the class declared at fc names a superclass or interfaces.
func hasSupertype(f *javaparse.File, fc fileClass) bool {
	found := false
	f.WithTree(func(root *sitter.Node, _ []byte) {
		javaparse.Walk(root, func(n *sitter.Node) bool {
			if int(n.StartByte()) == fc.start && int(n.EndByte()) == fc.end && strings.HasSuffix(n.Type(), "_declaration") {
				found = javaparse.FirstChildOfType(n, "superclass", "super_interfaces", "extends_interfaces") != nil
				return false
			}
			return int(n.StartByte()) <= fc.start && fc.end <= int(n.EndByte())
		})
	})
	return found
}

// unnameable reports whether a test cannot name the class at path: it or a class around it is
// private, anonymous or local, or an inner class of an instance.
func unnameable(path []string, classes map[string]fileClass) bool {
	if anonymousPath(path) {
		return true
	}
	for i := range path {
		fc, ok := classes[strings.Join(path[:i+1], "$")]
		if !ok || fc.private || i > 0 && !fc.static {
			return true
		}
	}
	return false
}

// name names the entry point as the failures list it.
func (e *entryPoint) name() string {
	if e.result {
		return "calling " + e.target.Name + " on what an accessible method returns"
	}
	return entryName(e.entry)
}
