package mutants

import sitter "github.com/smacker/go-tree-sitter"

// charClassNeighbours are the CHAR replacements of each Character predicate: the class a
// slip most likely confuses it with. Each replacement takes the same argument (a char or an
// int code point: every predicate here has both overloads, isAlphabetic only the int one,
// which a char widens to), so the mutant compiles wherever the original does.
var charClassNeighbours = map[string][]string{
	"isLetter":              {"isLetterOrDigit"},
	"isDigit":               {"isLetterOrDigit"},
	"isLetterOrDigit":       {"isLetter", "isDigit"},
	"isAlphabetic":          {"isLetterOrDigit"},
	"isUpperCase":           {"isLowerCase"},
	"isLowerCase":           {"isUpperCase"},
	"isWhitespace":          {"isSpaceChar"},
	"isSpaceChar":           {"isWhitespace"},
	"isJavaIdentifierStart": {"isJavaIdentifierPart"},
	"isJavaIdentifierPart":  {"isJavaIdentifierStart"},
}

// swapCharClass is CHAR/default: a Character predicate replaced by its neighbouring class,
// Character.isLetter(c) → Character.isLetterOrDigit(c) (a name that may start with a digit),
// isUpperCase ↔ isLowerCase, isWhitespace ↔ isSpaceChar. The classes a parser or validator
// tests its input against decide which inputs it accepts; the test that tells two classes
// apart feeds a character of one and not the other, which no operator on the condition
// around the call asks for.
func swapCharClass(g *generator, n *sitter.Node) {
	obj, name := n.ChildByFieldName("object"), n.ChildByFieldName("name")
	if obj == nil || name == nil {
		return
	}
	switch g.text(obj) {
	case "Character", "java.lang.Character":
	default:
		return
	}
	for _, repl := range charClassNeighbours[g.text(name)] {
		g.add(name, repl, n)
	}
}
