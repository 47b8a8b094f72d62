package offline

import (
	"fmt"
	"sort"
	"strings"

	"github.com/advertest/advertest-lsp/loop/agent"
)

// scratchClass names a throwaway test class for one run of generated tests (what names the
// run: "Check", "Initial", "Compile"): the suite's name (agent.TestClassName, the project's one
// naming of a test class) with the purpose and a number, so that no two runs share a class.
// binary is the name with the package.
func (a *Agent) scratchClass(s *agent.Subject, pkg, purpose string) (simple, binary string) {
	simple = fmt.Sprintf("%s%s%d", agent.TestClassName(s.Method.TopLevelClass), purpose, a.runs.Add(1))
	if pkg == "" {
		return simple, simple
	}
	return simple, pkg + "." + simple
}

// testClass assembles a compilable test class from rendered tests.
func testClass(pkg, class string, tests []rendered) string {
	imports := map[string]bool{}
	for _, t := range tests {
		for _, i := range t.imports {
			imports[i] = true
		}
	}
	var plain, static []string
	for i := range imports {
		if strings.HasPrefix(i, "static ") {
			static = append(static, i)
		} else {
			plain = append(plain, i)
		}
	}
	sort.Strings(plain)
	sort.Strings(static)
	var b strings.Builder
	if pkg != "" {
		fmt.Fprintf(&b, "package %s;\n\n", pkg)
	}
	for _, i := range static {
		fmt.Fprintf(&b, "import %s;\n", i)
	}
	if len(static) > 0 {
		b.WriteString("\n")
	}
	for _, i := range plain {
		fmt.Fprintf(&b, "import %s;\n", i)
	}
	if len(plain) > 0 {
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "public class %s {\n", class)
	for i, t := range tests {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(t.source)
	}
	// the nested classes the tests need (a minimal subclass), each once
	written := map[string]bool{}
	for _, t := range tests {
		for _, m := range t.members {
			key := strings.Join(m.Names, ",")
			if !written[key] {
				written[key] = true
				b.WriteString("\n" + m.Source)
			}
		}
	}
	b.WriteString("}\n")
	return b.String()
}
