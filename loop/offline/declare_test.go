package offline

import (
	"strings"
	"testing"
)

// A batch that does not compile for an unreported checked exception (an argument's constructor
// throws IOException) gets `throws Exception` on each test that lacks it; other errors do not.
func TestDeclareThrows(t *testing.T) {
	tests := []rendered{
		{name: "csvRecordIsCreated", source: "    @Test\n    void csvRecordIsCreated() {\n        // Act\n        new CSVRecord(new CSVParser(r, f), v);\n    }\n"},
		{name: "readsFields", source: "    @Test\n    public void readsFields() throws Exception {\n        x();\n    }\n"},
	}
	second := tests[1].source
	if !declareThrows(tests, &testsCompileError{msgs: []string{"13: unreported exception java.io.IOException; must be caught or declared to be thrown"}}) {
		t.Fatal("declareThrows: not ok on an unreported exception")
	}
	if !strings.Contains(tests[0].source, "void csvRecordIsCreated() throws Exception {\n") {
		t.Errorf("first test (the caller's, changed in place):\n%s", tests[0].source)
	}
	if tests[1].source != second {
		t.Errorf("a test that declared it already changed:\n%s", tests[1].source)
	}
	if declareThrows(tests, &testsCompileError{msgs: []string{"13: cannot find symbol"}}) {
		t.Error("declareThrows answered another error")
	}
	if declareThrows(tests, &testsCompileError{msgs: []string{"13: unreported exception X"}}) {
		t.Error("declareThrows answered tests that all declare it already")
	}
}
