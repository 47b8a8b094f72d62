package report

import (
	"errors"
	"fmt"
	"strings"
)

// NamedDocument is a report read from a file, with the name that errors use.
type NamedDocument struct {
	Name string
	Document
}

// ErrMerge marks every error of Merge: the shard reports do not make up one whole run.
var ErrMerge = errors.New("cannot merge")

// Merge joins the reports of the N shards of one run (`--shard I/N`, I = 1..N) into the report
// of the whole run: the same methods, mutants and verdicts as the unsharded run, in the same
// order, and the summary over all of them. It fails, naming the files, when a report is not a
// shard's, when the shards come from different splits or method sets, when a shard is given
// twice or is missing, when a method sits in a shard it does not belong to or in two shards,
// and when the shards' methods do not make up the method set they were cut from (a partial
// report of an interrupted run).
func Merge(docs []NamedDocument) (*Multi, error) {
	if len(docs) == 0 {
		return nil, fmt.Errorf("%w: no reports given", ErrMerge)
	}
	for _, d := range docs {
		switch {
		case d.Single != nil:
			return nil, fmt.Errorf("%w: %s is a single-method report, not a shard's: merge takes the reports of `--shard I/N` runs", ErrMerge, d.Name)
		case d.Multi == nil:
			return nil, fmt.Errorf("%w: %s holds no report", ErrMerge, d.Name)
		case d.Multi.Shard == nil:
			return nil, fmt.Errorf("%w: %s has no \"shard\": merge takes the reports of `--shard I/N` runs", ErrMerge, d.Name)
		}
	}
	first := docs[0]
	want := *first.Multi.Shard
	byIndex := map[int]string{}
	for _, d := range docs {
		s := *d.Multi.Shard
		if s.Count != want.Count {
			return nil, fmt.Errorf("%w: %s is shard %d/%d but %s is shard %d/%d: the shards come from different splits",
				ErrMerge, first.Name, want.Index, want.Count, d.Name, s.Index, s.Count)
		}
		if s.MethodSetHash != want.MethodSetHash {
			return nil, fmt.Errorf("%w: %s and %s come from different method sets (methodSetHash %s and %s): run every shard on the same commit with the same targets",
				ErrMerge, first.Name, d.Name, want.MethodSetHash, s.MethodSetHash)
		}
		if s.Index < 1 || s.Index > s.Count {
			return nil, fmt.Errorf("%w: %s is shard %d/%d, outside 1..%d", ErrMerge, d.Name, s.Index, s.Count, s.Count)
		}
		if prev, ok := byIndex[s.Index]; ok {
			return nil, fmt.Errorf("%w: shard %d/%d is given twice: %s and %s", ErrMerge, s.Index, s.Count, prev, d.Name)
		}
		byIndex[s.Index] = d.Name
	}
	var missing []string
	for i := 1; i <= want.Count; i++ {
		if _, ok := byIndex[i]; !ok {
			missing = append(missing, fmt.Sprint(i))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%w: shard %s of %d missing: merge needs the report of every shard", ErrMerge, strings.Join(missing, ", "), want.Count)
	}

	var methods []Report
	var failures []Failure
	var keys []string
	seen := map[string]string{}
	place := func(name string, s Shard, t Target) error {
		key := t.Key()
		if prev, ok := seen[key]; ok && prev == name {
			return fmt.Errorf("%w: method %s is twice in %s", ErrMerge, key, name)
		} else if ok {
			return fmt.Errorf("%w: method %s is in both %s and %s", ErrMerge, key, prev, name)
		}
		seen[key] = name
		if got := ShardOf(key, s.Count); got != s.Index {
			return fmt.Errorf("%w: %s (shard %d/%d) holds method %s, which belongs in shard %d: was it made with another --shard or another advertest version?",
				ErrMerge, name, s.Index, s.Count, key, got)
		}
		keys = append(keys, key)
		return nil
	}
	for _, d := range docs {
		s := *d.Multi.Shard
		for _, r := range d.Multi.Methods {
			if err := place(d.Name, s, r.Target); err != nil {
				return nil, err
			}
			methods = append(methods, r)
		}
		for _, f := range d.Multi.Failures {
			if err := place(d.Name, s, f.Target); err != nil {
				return nil, err
			}
			failures = append(failures, f)
		}
	}
	if got := MethodSetHash(keys); got != want.MethodSetHash {
		return nil, fmt.Errorf("%w: the shards' %d methods do not make up the method set they were cut from (methodSetHash %s, theirs %s): a shard's report is partial (an interrupted run?) or was edited",
			ErrMerge, len(keys), want.MethodSetHash, got)
	}
	return NewMulti(methods, failures, nil), nil
}

// MergeFiles reads the shard reports at paths and merges them (Merge).
func MergeFiles(paths []string) (*Multi, error) {
	docs := make([]NamedDocument, 0, len(paths))
	for _, p := range paths {
		d, err := ReadFile(p)
		if err != nil {
			return nil, err
		}
		docs = append(docs, NamedDocument{Name: p, Document: d})
	}
	return Merge(docs)
}
