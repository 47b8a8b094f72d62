package report

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// shardReports cuts the methods into n shard reports, as n `--shard I/n` runs would write them.
func shardReports(t *testing.T, methods []Report, failures []Failure, n int) []*Multi {
	t.Helper()
	type item struct {
		r *Report
		f *Failure
	}
	var items []item
	for i := range methods {
		items = append(items, item{r: &methods[i]})
	}
	for i := range failures {
		items = append(items, item{f: &failures[i]})
	}
	key := func(it item) string {
		if it.r != nil {
			return it.r.Target.Key()
		}
		return it.f.Target.Key()
	}
	var out []*Multi
	for i := 1; i <= n; i++ {
		part, sh, err := SelectShard(items, key, i, n)
		if err != nil {
			t.Fatal(err)
		}
		var rs []Report
		var fs []Failure
		for _, it := range part {
			if it.r != nil {
				rs = append(rs, *it.r)
			} else {
				fs = append(fs, *it.f)
			}
		}
		out = append(out, NewMulti(rs, fs, &sh))
	}
	return out
}

func writeShards(t *testing.T, shards []*Multi) []string {
	dir := t.TempDir()
	var paths []string
	for i, s := range shards {
		p := filepath.Join(dir, fmt.Sprintf("shard-%d.json", i+1))
		if err := s.WriteFile(p); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

func TestMergeOfShardsEqualsTheUnshardedRun(t *testing.T) {
	methods := loadTestReports(t)
	failures := []Failure{{Target: Target{File: "src/main/java/org/acme/Broken.java", Class: "org.acme.Broken", Method: "f", Signature: "int f()"}, Error: "does not compile"}}
	whole, err := NewMulti(methods, failures, nil).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 2, 3, 5} {
		shards := shardReports(t, methods, failures, n)
		nonEmpty := 0
		for _, s := range shards {
			if len(s.Methods) > 0 {
				nonEmpty++
			}
		}
		if n > 1 && nonEmpty < 2 {
			t.Fatalf("%d shards: only %d hold methods; the test data cannot show a merge", n, nonEmpty)
		}
		paths := writeShards(t, shards)
		// Any order of the files gives the same report.
		for i, j := 0, len(paths)-1; i < j; i, j = i+1, j-1 {
			paths[i], paths[j] = paths[j], paths[i]
		}
		merged, err := MergeFiles(paths)
		if err != nil {
			t.Fatalf("%d shards: %v", n, err)
		}
		got, _ := merged.Marshal()
		if !bytes.Equal(got, whole) {
			t.Fatalf("%d shards: the merged report differs from the unsharded one", n)
		}
	}
}

func TestMergeErrors(t *testing.T) {
	methods := loadTestReports(t)
	three := func() []*Multi { return shardReports(t, methods, nil, 3) }
	docs := func(ms ...*Multi) []NamedDocument {
		var out []NamedDocument
		for i, m := range ms {
			out = append(out, NamedDocument{Name: fmt.Sprintf("s%d.json", i+1), Document: Document{Multi: m}})
		}
		return out
	}
	s := three()
	other := shardReports(t, methods[1:], nil, 3)
	four := shardReports(t, methods, nil, 4)
	partial := three()
	for _, p := range partial {
		if len(p.Methods) > 0 {
			p.Methods = p.Methods[1:]
			break
		}
	}
	moved := three()
	var from, to int
	for i, p := range moved {
		if len(p.Methods) > 0 {
			from, to = i, (i+1)%3
			moved[to].Methods = append(moved[to].Methods, p.Methods[0])
			moved[from].Methods = p.Methods[1:]
			break
		}
	}
	twice := three()
	for i, p := range twice {
		if len(p.Methods) > 0 {
			twice[i].Methods = append(p.Methods, p.Methods[0])
			break
		}
	}
	single := methods[0]
	cases := []struct {
		name string
		docs []NamedDocument
		want string
	}{
		{"none", nil, "no reports given"},
		{"single", []NamedDocument{{Name: "one.json", Document: Document{Single: &single}}}, "one.json is a single-method report"},
		{"unsharded", docs(NewMulti(methods, nil, nil)), `s1.json has no "shard"`},
		{"missing", docs(s[0], s[2]), "shard 2 of 3 missing"},
		{"overlap", docs(s[0], s[1], s[1], s[2]), "shard 2/3 is given twice: s2.json and s3.json"},
		{"splits", docs(s[0], four[1], s[2]), "s1.json is shard 1/3 but s2.json is shard 2/4"},
		{"method sets", docs(s[0], other[1], s[2]), "s1.json and s2.json come from different method sets"},
		{"partial", docs(partial...), "do not make up the method set"},
		{"wrong shard", docs(moved...), "which belongs in shard"},
		{"twice", docs(twice...), "is twice in"},
	}
	for _, c := range cases {
		_, err := Merge(c.docs)
		if err == nil || !errors.Is(err, ErrMerge) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an ErrMerge with %q", c.name, err, c.want)
		}
	}
}

func TestMergeFilesNamesAnUnreadableFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "nope.json")
	if _, err := MergeFiles([]string{p}); err == nil || !strings.Contains(err.Error(), "nope.json") {
		t.Fatalf("got %v", err)
	}
}
