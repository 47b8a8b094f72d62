package reporttest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Compile reads the schema at path, with formats asserted (a "uri" must be a URI).
func Compile(path string) (*jsonschema.Schema, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("opening the schema: %w", err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		return nil, fmt.Errorf("reading the schema %s: %w", path, err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	loc := "file://" + filepath.ToSlash(abs)
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(loc, doc); err != nil {
		return nil, fmt.Errorf("adding the schema %s: %w", path, err)
	}
	s, err := c.Compile(loc)
	if err != nil {
		return nil, fmt.Errorf("compiling the schema %s: %w", path, err)
	}
	return s, nil
}

// Validate checks data against the schema; the error lists every violation.
func Validate(s *jsonschema.Schema, data []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("reading the document: %w", err)
	}
	return s.Validate(inst)
}
