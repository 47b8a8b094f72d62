package schema

import (
	"encoding/json"
	"reflect"
	"strings"
)

// ProjectKey is the values of the settings Table marks KeysProject, each with its name: two
// Values with the same key can share a warm project, and a change of any of those settings
// changes the key. The settings that key a project are that flag's, and no list besides it.
func ProjectKey(v Values) string {
	var b strings.Builder
	for i := range Table {
		s := &Table[i]
		if !s.KeysProject {
			continue
		}
		val, err := json.Marshal(reflect.ValueOf(s.field(&v)).Elem().Interface())
		if err != nil {
			// every field is a bool, a number, a string, a duration or a list of strings
			panic("schema: " + s.Name + " has a value JSON cannot write: " + err.Error())
		}
		b.WriteString(s.Name)
		b.WriteByte('=')
		b.Write(val)
		b.WriteByte('\n')
	}
	return b.String()
}
