// Package opnames holds the names of the rule-based M's mutation operators (codes and groups)
// and checks a mutants.operators value against them. It is a leaf on the standard library, so
// that settings/schema checks the setting without loop/mutants (which needs tree-sitter, and so
// cgo). loop/mutants' registry holds the operators themselves; its test
// TestRegistryMatchesOpnames keeps Records in step with it.
package opnames

import (
	"errors"
	"fmt"
	"strings"
)

// Group is an operator's stage in the rule-based M: its first move plays the default group,
// its later moves add the strong group on the lines of surviving mutants and on uncovered
// lines.
type Group string

const (
	Default Group = "default"
	Strong  Group = "strong"
)

// Record names one operator of the registry.
type Record struct {
	Code  string
	Group Group
}

// Name is "CODE/group", unique among the records: "ROR/default", "BND/strong".
func (r Record) Name() string { return r.Code + "/" + string(r.Group) }

// Records are the registry's operators, in its order (the default group first).
var Records = []Record{
	{"ROR", Default}, {"AOR", Default}, {"NEG", Default}, {"LCR", Default}, {"RET", Default}, {"MATH", Default},
	{"CHAR", Default}, {"VCR", Default}, {"WRAP", Default}, {"SWAP", Default}, {"LOOP", Default}, {"EXIT", Default},
	{"ROR", Strong}, {"AOR", Strong}, {"NEG", Strong}, {"LCR", Strong}, {"BND", Strong}, {"INC", Strong},
	{"CDR", Strong}, {"EXIT", Strong}, {"VAR", Strong}, {"ARG", Strong}, {"IDX", Strong},
}

// Groups are the groups' names.
func Groups() []string { return []string{string(Default), string(Strong)} }

// Codes are the records' distinct codes, in their order.
func Codes() []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range Records {
		if !seen[r.Code] {
			seen[r.Code] = true
			out = append(out, r.Code)
		}
	}
	return out
}

// Matches reports whether name (a group, a code or a record's Name, any case) selects r.
func Matches(name string, r Record) bool {
	name = strings.TrimSpace(name)
	return strings.EqualFold(name, string(r.Group)) || strings.EqualFold(name, r.Code) || strings.EqualFold(name, r.Name())
}

// Check returns an error for an empty list or a name that selects no record; the error lists
// the valid names.
func Check(names []string) error {
	if len(names) == 0 {
		return errors.New("no mutation operator selected: " + validNames())
	}
	for _, raw := range names {
		matched := false
		for _, r := range Records {
			if Matches(raw, r) {
				matched = true
				break
			}
		}
		if !matched {
			return fmt.Errorf("unknown mutation operator %q: %s", raw, validNames())
		}
	}
	return nil
}

func validNames() string {
	return fmt.Sprintf("valid are the groups %s, the codes %s, and CODE/group (ROR/strong)",
		strings.Join(Groups(), ", "), strings.Join(Codes(), ", "))
}
