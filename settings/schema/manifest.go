package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Section is the settings' section: the VS Code prefix and the workspace/configuration
// section the server asks for.
const Section = "advertest"

// UpdateManifest returns the VS Code extension's package.json with
// contributes.configuration.properties rewritten from Table: the client-only settings first,
// as they are, then every setting of Table in its order. Everything else stays byte for byte.
func UpdateManifest(pkg []byte) ([]byte, error) {
	start, end, indent, err := valueSpan(pkg, "contributes", "configuration", "properties")
	if err != nil {
		return nil, fmt.Errorf("package.json: %w", err)
	}
	old, err := members(pkg[start:end])
	if err != nil {
		return nil, fmt.Errorf("package.json: contributes.configuration.properties: %w", err)
	}
	var props orderedObject
	for _, name := range ClientOnly {
		key := Section + "." + name
		raw, ok := old.get(key)
		if !ok {
			return nil, fmt.Errorf("package.json: the client setting %s is missing", key)
		}
		props = append(props, member{key, raw})
	}
	for i := range Table {
		raw, err := Table[i].manifestProperty()
		if err != nil {
			return nil, err
		}
		props = append(props, member{Section + "." + Table[i].Name, raw})
	}
	compact, err := props.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, compact, indent, "  "); err != nil {
		return nil, err
	}
	out := append([]byte{}, pkg[:start]...)
	out = append(out, pretty.Bytes()...)
	return append(out, pkg[end:]...), nil
}

// manifestProperty is s as a contributes.configuration property. A default that comes from
// the environment is "" there: the extension leaves empty values out, so that the server
// applies the environment's.
func (s *Setting) manifestProperty() (json.RawMessage, error) {
	var p orderedObject
	add := func(key string, v any) {
		if raw, err := marshal(v); err == nil {
			p = append(p, member{key, raw})
		}
	}
	switch s.Type {
	case Boolean:
		add("type", "boolean")
	case Integer:
		add("type", "integer")
	case Number:
		add("type", "number")
	case String:
		add("type", "string")
	case Enum:
		add("type", "string")
		descs := make([]string, len(s.Choices))
		for i, c := range s.Choices {
			descs[i] = c.Description
		}
		add("enum", s.choiceValues())
		add("enumDescriptions", descs)
	case StringList:
		add("type", "array")
		items := orderedObject{{"type", json.RawMessage(`"string"`)}}
		if s.NonEmpty {
			items = append(items, member{"minLength", json.RawMessage(`1`)})
		}
		if s.EnvNames {
			raw, _ := marshal(envName.String())
			items = append(items, member{"pattern", raw})
		}
		raw, _ := items.MarshalJSON()
		p = append(p, member{"items", raw})
		if s.NonEmpty {
			add("minItems", 1)
		}
	}
	def := s.Default
	if s.Env != "" {
		def = ""
	}
	add("default", def)
	if s.Type == Integer || s.Type == Number {
		add("minimum", s.Min)
		if s.Max != unbounded {
			add("maximum", s.Max)
		}
	}
	add("scope", string(s.Scope))
	add("markdownDescription", s.Description)
	return p.MarshalJSON()
}

// member is one key of a JSON object, with its value's JSON.
type member struct {
	key string
	raw json.RawMessage
}

// orderedObject is a JSON object that keeps its keys' order.
type orderedObject []member

func (o orderedObject) get(key string) (json.RawMessage, bool) {
	for _, m := range o {
		if m.key == key {
			return m.raw, true
		}
	}
	return nil, false
}

func (o orderedObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		key, err := marshal(m.key)
		if err != nil {
			return nil, err
		}
		b.Write(key)
		b.WriteByte(':')
		if err := json.Compact(&b, m.raw); err != nil {
			return nil, fmt.Errorf("%s: %w", m.key, err)
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal is json.Marshal without HTML escaping (descriptions carry < and >, as JSON.stringify
// writes them).
func marshal(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// members reads a JSON object's members in order.
func members(obj []byte) (orderedObject, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("not an object")
	}
	var out orderedObject
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		out = append(out, member{tok.(string), raw})
	}
	return out, nil
}

// valueSpan finds the value at path (object keys) in doc: its byte range, and the
// indentation of the line its key is on.
func valueSpan(doc []byte, path ...string) (start, end int, indent string, err error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	for depth, key := range path {
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			return 0, 0, "", fmt.Errorf("%v is not an object", path[:depth])
		}
		for {
			if !dec.More() {
				return 0, 0, "", fmt.Errorf("no %v", path[:depth+1])
			}
			tok, err := dec.Token()
			if err != nil {
				return 0, 0, "", err
			}
			if tok == key {
				break
			}
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return 0, 0, "", err
			}
		}
	}
	keyEnd := int(dec.InputOffset())
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return 0, 0, "", err
	}
	end = int(dec.InputOffset())
	start = end - len(raw)
	lineStart := bytes.LastIndexByte(doc[:keyEnd], '\n') + 1
	line := doc[lineStart:keyEnd]
	indent = string(line[:len(line)-len(bytes.TrimLeft(line, " \t"))])
	return start, end, indent, nil
}
