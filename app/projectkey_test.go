package app

import (
	"fmt"
	"reflect"
	"strconv"
	"testing"

	"github.com/advertest/advertest-lsp/settings"
	"github.com/advertest/advertest-lsp/settings/schema"
)

// TestProjectOptionsReadOnlyKeyedSettings: what a warm project is opened with changes with no
// setting the table leaves out of the project key (else a job would lease a project opened
// under other settings), and the key (Settings.ProjectKey) changes exactly with the settings the
// table marks KeysProject.
func TestProjectOptionsReadOnlyKeyedSettings(t *testing.T) {
	base := settings.Default(func(string) string { return "" })
	baseLoader, baseProj := projectOptions(base)
	for _, s := range schema.Table {
		changed := false
		for _, text := range otherSettingValues(s) {
			v := base.Values
			if err := schema.Set(&v, s.Name, text); err != nil || reflect.DeepEqual(v, base.Values) {
				continue
			}
			changed = true
			loader, proj := projectOptions(settings.Settings{Values: v})
			differs := !reflect.DeepEqual(loader, baseLoader) || !reflect.DeepEqual(proj, baseProj)
			if differs && !s.KeysProject {
				t.Errorf("%s = %s changes the project's options, but the table does not mark it KeysProject", s.Name, text)
			}
			if keyChanged := (settings.Settings{Values: v}).ProjectKey() != base.ProjectKey(); keyChanged != s.KeysProject {
				t.Errorf("%s = %s: the project key changes: %t; the table's KeysProject: %t", s.Name, text, keyChanged, s.KeysProject)
			}
			break
		}
		if !changed {
			t.Errorf("%s: the test has no other valid value to try", s.Name)
		}
	}
}

// otherSettingValues are texts for --set that differ from s's default, tried in turn until one
// is valid.
func otherSettingValues(s schema.Setting) []string {
	switch s.Type {
	case schema.Boolean:
		return []string{fmt.Sprint(s.Default != true)}
	case schema.Integer, schema.Number:
		n, _ := strconv.ParseFloat(fmt.Sprint(s.Default), 64)
		return []string{fmt.Sprint(n + 1), fmt.Sprint(n - 1), fmt.Sprint(n + 0.5), fmt.Sprint(n - 0.5)}
	case schema.Enum:
		var out []string
		for _, c := range s.Choices {
			if c.Value != s.Default {
				out = append(out, c.Value)
			}
		}
		return out
	case schema.StringList:
		return []string{`["HOME"]`, `["ROR"]`, `["-q"]`, `[]`}
	}
	return []string{"OTHER_NAME", "http://127.0.0.1:9/v1", "/tmp/other.jar"}
}
