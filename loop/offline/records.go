package offline

import (
	"encoding/json"
	"strings"
	"time"
)

// The explorer's output, line by line (docs/explorer.md, "Lines" and "Keys"): the header, one
// record per input with its outcome, and what an exploration holds once parsed
// (parseExploration, explore.go).

// header is the explorer's first line: how the test names the types involved.
type header struct {
	Header       bool     `json:"header"`
	DeclTypes    []string `json:"declTypes"`
	ReturnType   string   `json:"returnType"`
	ReceiverType string   `json:"receiverType"`
	ClassRef     string   `json:"classRef"`
	Imports      []string `json:"imports"`
	// Overloaded says another method (or constructor) shares the method's name and number of
	// parameters: a test's null argument then carries a cast to its parameter's type.
	Overloaded bool `json:"overloaded"`
}

// record is one explored input and what the method did with it.
type record struct {
	I         int      `json:"i"`
	Args      []string `json:"args"`
	Tokens    []string `json:"tokens"`
	Recv      *string  `json:"recv"`
	Setup     []string `json:"setup"`
	RecvToken string   `json:"recvToken"`
	// Graph is the Arrange lines that build the input's linked nodes (a comment saying the
	// shape, one variable per node, the links), GraphToken the shape in a test's name.
	Graph      []string        `json:"graph"`
	GraphToken string          `json:"graphToken"`
	Out        json.RawMessage `json:"out"`
	Imports    []string        `json:"imports"`
	// Site is what the probe saw at the mutated expression (nil without a probe, infect.go).
	Site *siteValues `json:"site"`

	outcome outcome
}

// key identifies the input (not its outcome).
func (r *record) key() string {
	recv := ""
	if r.Recv != nil {
		recv = *r.Recv + strings.Join(r.Setup, ";")
	}
	return strings.Join(r.Graph, ";") + recv + "|" + strings.Join(r.Args, ",")
}

// outcome is what one call did: k is "ret", "throw", "timeout", "bound" (past its memory, or
// out of memory or stack), "arrange" (making the input failed) or "crash" (the explorer itself
// failed). The kinds and keys of the lines are docs/explorer.md's, declared in Output.java and
// checked against these structs by contract_test.go.
type outcome struct {
	K string `json:"k"`
	// Stopped says a timed-out call was stopped through the worker's hook (else abandoned).
	Stopped bool       `json:"stopped"`
	Ret     *value     `json:"ret"`
	X       string     `json:"x"`
	State   []observed `json:"state"`
	After   []argAfter `json:"after"`
}

// value is a rendered Java value: k is "null", "prim" (t the primitive type), "bool",
// "double", "float", "string" (via "toString" or "deep" when read through those), "enum",
// "array", "darray", "farray", "equals" (v an expression equal to it), "same" (v the variable
// of the input's graph node it is), "object" (obs its getters), "opaque", "throws" (x), "void".
type value struct {
	K   string     `json:"k"`
	V   string     `json:"v"`
	T   string     `json:"t"`
	Via string     `json:"via"`
	X   string     `json:"x"`
	Obs []observed `json:"obs"`
}

type observed struct {
	M  string `json:"m"`  // "getX()", or "field:x" for a field a test can read
	St string `json:"st"` // the observer's declared return type (a binary name)
	// D is the class that declares a field, as the test names it; Acc says a test in its
	// package can read the field directly (public, or not private in the test's package).
	D   string `json:"d"`
	Acc bool   `json:"acc"`
	R   value  `json:"r"`
}

type argAfter struct {
	A int   `json:"a"`
	R value `json:"r"`
}

// exploration is the parsed output of one explorer run.
type exploration struct {
	unsupported string
	minimal     string // with unsupported: the source of a minimal subclass that would do (abstract.go)
	header      header
	records     []*record
	kinds       []paramKinds  // per parameter, the kinds of value it can build and tried (infect.go)
	complete    bool          // the explorer reached its end line
	duration    time.Duration // the whole run: compile, load, explore
	testTime    time.Duration // the explorer's test alone
	seeds       *seedsLine    // the seeding pass's line (seeds.go)
}

// byIndex maps input index → record.
func (e *exploration) byIndex() map[int]*record {
	m := make(map[int]*record, len(e.records))
	for _, r := range e.records {
		m[r.I] = r
	}
	return m
}
