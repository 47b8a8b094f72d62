package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/advertest/advertest-lsp/buildtools/buildtest"
)

// The CI recipes of examples/ci are run here as their CI would run them, on a copy of the
// Maven example: every job (each shard of the matrix or of `parallel:`), every step or script
// line, the artifacts passed from the shards to the merge. The steps that set up a runner are
// stood in for: actions/checkout copies the example, setup-java and the recipes' apt-get find
// what this machine has installed, `go install .../cmd/advertest@VERSION` installs the binary
// under test, the upload and download of artifacts copy files. Every advertest command runs as
// written, so a recipe cannot drift from the CLI.

// ciFakes are the stand-ins on the PATH of every step.
var ciFakes = map[string]string{
	// go installs the advertest binary under test, and nothing else.
	"go": `#!/bin/sh
case "$1 $2" in
"install github.com/advertest/advertest-lsp/cmd/advertest@"?*) ;;
*) echo "the CI test's go only installs advertest, not: go $*" >&2; exit 2 ;;
esac
bin="${GOBIN:-${GOPATH:?}/bin}"
mkdir -p "$bin" && cp "$ADVERTEST_TEST_BINARY" "$bin/advertest"
`,
	// apt-get checks that what a recipe installs is installed here.
	"apt-get": `#!/bin/sh
[ "$1" = update ] && exit 0
[ "$1" = install ] || { echo "the CI test's apt-get knows update and install, not: $*" >&2; exit 2; }
shift
for p in "$@"; do
  case "$p" in -*) continue ;; esac
  dpkg -s "$p" >/dev/null 2>&1 || { echo "$p is not installed on this machine" >&2; exit 1; }
done
`,
}

// ciRunner runs recipes' jobs on copies of a project.
type ciRunner struct {
	t         *testing.T
	project   string // the repository a checkout copies
	fakes     string // the folder of ciFakes
	gopath    string
	artifacts string // artifacts/<name>/...
	binary    string
}

func newCIRunner(t *testing.T, project string) *ciRunner {
	t.Helper()
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	r := &ciRunner{t: t, project: project, fakes: t.TempDir(), gopath: t.TempDir(), artifacts: t.TempDir(), binary: bin}
	for name, text := range ciFakes {
		if err := os.WriteFile(filepath.Join(r.fakes, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// workspace is a fresh folder for one job.
func (r *ciRunner) workspace(name string) string {
	dir := filepath.Join(r.t.TempDir(), strings.NewReplacer(":", "-", "/", "-").Replace(name))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		r.t.Fatal(err)
	}
	return dir
}

// checkout copies the project into dir.
func (r *ciRunner) checkout(dir string) {
	if err := buildtest.CopyProject(r.project, dir); err != nil {
		r.t.Fatal(err)
	}
}

// shell runs script with bash in dir; it returns the exit status and the output.
func (r *ciRunner) shell(dir, script string, env map[string]string, extraPath ...string) (int, string) {
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script)
	cmd.Dir = dir
	path := strings.Join(append(append([]string{r.fakes}, extraPath...), os.Getenv("PATH")), string(os.PathListSeparator))
	cmd.Env = append(os.Environ(), "PATH="+path, "GOPATH="+r.gopath, "ADVERTEST_TEST_BINARY="+r.binary, "CI=true")
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String()
	} else if err != nil {
		r.t.Fatalf("bash: %v", err)
	}
	return 0, out.String()
}

// keep copies the files matching the globs (relative to dir) into the artifact name; it
// returns how many it copied.
func (r *ciRunner) keep(name, dir string, globs []string) int {
	n := 0
	for _, g := range globs {
		matches, err := filepath.Glob(filepath.Join(dir, g))
		if err != nil {
			r.t.Fatalf("artifact path %q: %v", g, err)
		}
		for _, m := range matches {
			rel, _ := filepath.Rel(dir, m)
			r.copyFile(m, filepath.Join(r.artifacts, name, rel))
			n++
		}
	}
	return n
}

// fetch copies the artifacts whose names match pattern into dir.
func (r *ciRunner) fetch(pattern, dir string) int {
	names, _ := os.ReadDir(r.artifacts)
	n := 0
	for _, e := range names {
		if ok, _ := filepath.Match(pattern, e.Name()); !ok {
			continue
		}
		root := filepath.Join(r.artifacts, e.Name())
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(root, p)
				r.copyFile(p, filepath.Join(dir, rel))
				n++
			}
			return err
		})
	}
	return n
}

func (r *ciRunner) copyFile(from, to string) {
	b, err := os.ReadFile(from)
	if err == nil {
		err = os.MkdirAll(filepath.Dir(to), 0o755)
	}
	if err == nil {
		err = os.WriteFile(to, b, 0o644)
	}
	if err != nil {
		r.t.Fatal(err)
	}
}

// stringMap turns a YAML mapping of scalars into strings.
func stringMap(m map[string]any) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = fmt.Sprint(v)
	}
	return out
}

// oneOrMany is a YAML value that is a string or a list of strings.
type oneOrMany []string

func (o *oneOrMany) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		*o = []string{n.Value}
		return nil
	}
	var list []string
	err := n.Decode(&list)
	*o = list
	return err
}

// GitHub Actions.

type ghWorkflow struct {
	Env  map[string]any    `yaml:"env"`
	Jobs map[string]*ghJob `yaml:"jobs"`
}

type ghJob struct {
	Needs    oneOrMany `yaml:"needs"`
	If       string    `yaml:"if"`
	Strategy struct {
		Matrix map[string][]any `yaml:"matrix"`
	} `yaml:"strategy"`
	Env   map[string]any `yaml:"env"`
	Steps []ghStep       `yaml:"steps"`
}

type ghStep struct {
	Name string         `yaml:"name"`
	Uses string         `yaml:"uses"`
	If   string         `yaml:"if"`
	Run  string         `yaml:"run"`
	With map[string]any `yaml:"with"`
	Env  map[string]any `yaml:"env"`
}

var ghExpr = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// ghStepResult is how a step ended: its status (-1: skipped).
type ghStepResult struct {
	name   string
	status int
}

// ghJobOrder is the workflow's jobs, each after those it needs.
func ghJobOrder(t *testing.T, w *ghWorkflow) []string {
	var order []string
	done := map[string]bool{}
	var visit func(name string, depth int)
	visit = func(name string, depth int) {
		if done[name] {
			return
		}
		j := w.Jobs[name]
		if j == nil || depth > len(w.Jobs) {
			t.Fatalf("job %q is needed but not defined (or needs itself)", name)
		}
		for _, n := range j.Needs {
			visit(n, depth+1)
		}
		done[name] = true
		order = append(order, name)
	}
	names := make([]string, 0, len(w.Jobs))
	for n := range w.Jobs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		visit(n, 0)
	}
	return order
}

// ghMatrix is the job's matrix combinations (one empty one without a matrix).
func ghMatrix(j *ghJob) []map[string]string {
	combos := []map[string]string{{}}
	keys := make([]string, 0, len(j.Strategy.Matrix))
	for k := range j.Strategy.Matrix {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		var next []map[string]string
		for _, c := range combos {
			for _, v := range j.Strategy.Matrix[k] {
				m := map[string]string{k: fmt.Sprint(v)}
				for ck, cv := range c {
					m[ck] = cv
				}
				next = append(next, m)
			}
		}
		combos = next
	}
	return combos
}

// runGitHubJob runs every instance of one job (its matrix) and returns each instance's step
// results. override replaces workflow env values.
func (r *ciRunner) runGitHubJob(w *ghWorkflow, name string, override map[string]string) [][]ghStepResult {
	t := r.t
	j := w.Jobs[name]
	var all [][]ghStepResult
	for i, matrix := range ghMatrix(j) {
		ws := r.workspace(fmt.Sprintf("gh-%s-%d", name, i))
		env := stringMap(w.Env)
		for k, v := range stringMap(j.Env) {
			env[k] = v
		}
		for k, v := range override {
			env[k] = v
		}
		expand := func(s string) string {
			return ghExpr.ReplaceAllStringFunc(s, func(e string) string {
				expr := ghExpr.FindStringSubmatch(e)[1]
				if k, ok := strings.CutPrefix(expr, "matrix."); ok {
					if v, ok := matrix[k]; ok {
						return v
					}
				}
				if k, ok := strings.CutPrefix(expr, "env."); ok {
					if v, ok := env[k]; ok {
						return v
					}
				}
				t.Fatalf("job %s: the test cannot evaluate %s", name, e)
				return ""
			})
		}
		var extraPath []string
		var results []ghStepResult
		failed := false
		for _, st := range j.Steps {
			label := expand(st.Name)
			if label == "" {
				label = st.Uses
			}
			switch st.If {
			case "":
				if failed {
					results = append(results, ghStepResult{label, -1})
					continue
				}
			case "always()":
			default:
				t.Fatalf("job %s, step %s: the test cannot evaluate if: %s", name, label, st.If)
			}
			with := map[string]string{}
			for k, v := range stringMap(st.With) {
				with[k] = expand(v)
			}
			status := 0
			action, _, _ := strings.Cut(st.Uses, "@")
			switch {
			case st.Run != "":
				stepEnv := map[string]string{}
				for k, v := range env {
					stepEnv[k] = v
				}
				for k, v := range stringMap(st.Env) {
					stepEnv[k] = expand(v)
				}
				var out string
				status, out = r.shell(ws, expand(st.Run), stepEnv, extraPath...)
				t.Logf("job %s %v, step %q: status %d\n%s", name, matrix, label, status, out)
			case action == "actions/checkout":
				r.checkout(ws)
			case action == "actions/setup-java":
			case action == "actions/setup-go":
				extraPath = append(extraPath, filepath.Join(r.gopath, "bin"))
			case action == "actions/upload-artifact":
				n := r.keep(with["name"], ws, strings.Fields(with["path"]))
				if n == 0 && with["if-no-files-found"] == "error" {
					status = 1
					t.Logf("job %s %v: no file for the artifact %s (%q)", name, matrix, with["name"], with["path"])
				}
			case action == "actions/download-artifact":
				if with["merge-multiple"] != "true" || r.fetch(with["pattern"], ws) == 0 {
					t.Fatalf("job %s: download-artifact %v fetched nothing", name, with)
				}
			case action == "github/codeql-action/upload-sarif":
				status = checkSARIF(t, filepath.Join(ws, with["sarif_file"]))
			default:
				t.Fatalf("job %s: the test cannot run the action %s: teach ci_test.go what it does", name, st.Uses)
			}
			results = append(results, ghStepResult{label, status})
			if status != 0 {
				failed = true
			}
		}
		all = append(all, results)
	}
	return all
}

// checkSARIF returns 0 when path is a SARIF 2.1.0 log of AdverTest, 1 otherwise.
func checkSARIF(t *testing.T, path string) int {
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name string `json:"name"`
				} `json:"driver"`
			} `json:"tool"`
		} `json:"runs"`
	}
	b, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(b, &log)
	}
	if err != nil || log.Version != "2.1.0" || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Name != "AdverTest" {
		t.Logf("upload-sarif %s: %v, %+v", path, err, log)
		return 1
	}
	return 0
}

// GitLab CI.

type glJob struct {
	Extends      oneOrMany      `yaml:"extends"`
	Stage        string         `yaml:"stage"`
	Image        string         `yaml:"image"`
	Parallel     int            `yaml:"parallel"`
	Needs        oneOrMany      `yaml:"needs"`
	When         string         `yaml:"when"`
	Variables    map[string]any `yaml:"variables"`
	BeforeScript []string       `yaml:"before_script"`
	Script       []string       `yaml:"script"`
	Artifacts    struct {
		When     string   `yaml:"when"`
		Paths    []string `yaml:"paths"`
		ExposeAs string   `yaml:"expose_as"`
	} `yaml:"artifacts"`
}

type glPipeline struct {
	variables map[string]string
	stages    []string
	jobs      map[string]*glJob // the visible jobs, with extends applied
}

// parseGitLab reads a .gitlab-ci.yml: its global variables, stages and jobs.
func parseGitLab(t *testing.T, data []byte) *glPipeline {
	var top map[string]yaml.Node
	if err := yaml.Unmarshal(data, &top); err != nil {
		t.Fatal(err)
	}
	p := &glPipeline{jobs: map[string]*glJob{}}
	all := map[string]*glJob{}
	for key, node := range top {
		switch key {
		case "variables":
			var v map[string]any
			if err := node.Decode(&v); err != nil {
				t.Fatal(err)
			}
			p.variables = stringMap(v)
		case "stages":
			if err := node.Decode(&p.stages); err != nil {
				t.Fatal(err)
			}
		case "default", "include", "workflow", "image", "services", "cache", "before_script", "after_script":
			t.Fatalf("the test does not handle the top-level key %q", key)
		default:
			var j glJob
			if err := node.Decode(&j); err != nil {
				t.Fatalf("job %s: %v", key, err)
			}
			all[key] = &j
		}
	}
	for name, j := range all {
		if strings.HasPrefix(name, ".") {
			continue
		}
		merged := *j
		for _, base := range j.Extends {
			b := all[base]
			if b == nil {
				t.Fatalf("job %s extends the unknown %s", name, base)
			}
			vars := stringMap(b.Variables)
			for k, v := range stringMap(j.Variables) {
				vars[k] = v
			}
			merged.Variables = map[string]any{}
			for k, v := range vars {
				merged.Variables[k] = v
			}
			if merged.BeforeScript == nil {
				merged.BeforeScript = b.BeforeScript
			}
			if merged.Script == nil {
				merged.Script = b.Script
			}
			if merged.Image == "" {
				merged.Image = b.Image
			}
		}
		p.jobs[name] = &merged
	}
	return p
}

// glRun is how one GitLab job instance ended.
type glRun struct {
	job    string
	index  int
	status int
}

// runGitLabJob runs every instance of one job (parallel: N), the artifacts of those it needs
// (or of every earlier job) in its workspace. override replaces pipeline variables.
func (r *ciRunner) runGitLabJob(p *glPipeline, name string, from []string, override map[string]string) []glRun {
	t := r.t
	j := p.jobs[name]
	n := max(1, j.Parallel)
	var runs []glRun
	for i := 1; i <= n; i++ {
		ws := r.workspace(fmt.Sprintf("gl-%s-%d", name, i))
		r.checkout(ws)
		for _, f := range from {
			r.fetch(f+"*", ws)
		}
		vars := map[string]string{"CI_PROJECT_DIR": ws, "CI_NODE_TOTAL": fmt.Sprint(n), "CI_JOB_NAME": name}
		if j.Parallel > 0 {
			vars["CI_NODE_INDEX"] = fmt.Sprint(i)
		}
		for _, layer := range []map[string]string{p.variables, stringMap(j.Variables), override} {
			keys := make([]string, 0, len(layer))
			for k := range layer {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				vars[k] = os.Expand(layer[k], func(v string) string { return vars[v] })
			}
		}
		script := strings.Join(append(append([]string{}, j.BeforeScript...), j.Script...), "\n")
		status, out := r.shell(ws, script, vars)
		t.Logf("job %s %d/%d: status %d\n%s", name, i, n, status, out)
		if status == 0 || j.Artifacts.When == "always" {
			globs := make([]string, len(j.Artifacts.Paths))
			for k, g := range j.Artifacts.Paths {
				globs[k] = os.Expand(g, func(v string) string { return vars[v] })
			}
			r.keep(fmt.Sprintf("%s-%d", name, i), ws, globs)
		}
		runs = append(runs, glRun{name, i, status})
	}
	return runs
}

// runGitLab runs the pipeline stage by stage and returns every job instance's end.
func (r *ciRunner) runGitLab(p *glPipeline) []glRun {
	var runs []glRun
	failed := false
	var earlier []string
	for _, stage := range p.stages {
		var names []string
		for name, j := range p.jobs {
			if j.Stage == stage {
				names = append(names, name)
			}
		}
		sort.Strings(names)
		var ran []string
		for _, name := range names {
			j := p.jobs[name]
			if failed && j.When != "always" {
				continue
			}
			from := earlier
			if j.Needs != nil {
				from = j.Needs
			}
			for _, run := range r.runGitLabJob(p, name, from, nil) {
				runs = append(runs, run)
				failed = failed || run.status != 0
			}
			ran = append(ran, name)
		}
		earlier = append(earlier, ran...)
	}
	return runs
}

// ciProject is a copy of the Maven example with SortedLookup alone (two methods), so that a
// recipe's shards run in a minute. Both methods fall in shard 2 of 2: shard 1's report is the
// empty one, which the recipes must pass to the merge all the same.
func ciProject(t *testing.T) string {
	t.Helper()
	dir := exampleCopy(t)
	for _, f := range []string{"src/main/java/org/acme/PriceCalculator.java", "src/test/java/org/acme/PriceCalculatorTest.java"} {
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(f))); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// checkMerged checks the merge's report in the artifact folder: both shards' methods, no
// shard of its own, the HTML and SARIF beside it.
func checkMerged(t *testing.T, artifacts string, shardGlob string, reportArtifact string) {
	t.Helper()
	shards, _ := filepath.Glob(filepath.Join(artifacts, shardGlob))
	if len(shards) != 2 {
		t.Fatalf("shard reports %q; want two", shards)
	}
	var keys []string
	for _, s := range shards {
		m := readMulti(t, s)
		if m.Shard == nil || m.Shard.Count != 2 {
			t.Errorf("%s: shard %+v", s, m.Shard)
		}
		keys = append(keys, methodKeys(m.Methods)...)
	}
	merged := readMulti(t, filepath.Join(artifacts, reportArtifact, "advertest.json"))
	got := methodKeys(merged.Methods)
	slices.Sort(keys)
	slices.Sort(got)
	want := []string{"org.acme.SortedLookup#SortedLookup()", "org.acme.SortedLookup#indexOf(int[],int)"}
	if !slices.Equal(got, keys) || !slices.Equal(got, want) || merged.Shard != nil {
		t.Errorf("merged %q, shards %q; want %q", got, keys, want)
	}
	if fi, err := os.Stat(filepath.Join(artifacts, reportArtifact, "advertest.html")); err != nil || fi.Size() == 0 {
		t.Errorf("the HTML report: %v", err)
	}
}

// TestCIRecipes runs examples/ci/github-actions.yml and examples/ci/gitlab-ci.yml: two shards,
// the merge with its formats and --fail-under (which passes with the recipes' FAIL_UNDER, and
// fails the merge with status 3 at 99, the reports still written and uploaded).
func TestCIRecipes(t *testing.T) {
	project := ciProject(t)
	recipes := filepath.Join("..", "..", "examples", "ci")

	t.Run("github", func(t *testing.T) {
		data, err := os.ReadFile(filepath.Join(recipes, "github-actions.yml"))
		if err != nil {
			t.Fatal(err)
		}
		var w ghWorkflow
		if err := yaml.Unmarshal(data, &w); err != nil {
			t.Fatal(err)
		}
		r := newCIRunner(t, project)
		order := ghJobOrder(t, &w)
		if !slices.Equal(order, []string{"mutate", "report"}) || len(ghMatrix(w.Jobs["mutate"])) != 2 {
			t.Fatalf("jobs %q, %d shards; want mutate (2 shards), then report", order, len(ghMatrix(w.Jobs["mutate"])))
		}
		for _, name := range order {
			for _, steps := range r.runGitHubJob(&w, name, nil) {
				for _, s := range steps {
					if s.status != 0 {
						t.Errorf("job %s, step %q: status %d", name, s.name, s.status)
					}
				}
			}
		}
		checkMerged(t, r.artifacts, "advertest-shard-*/shard-*.json", "advertest-report")

		// Below the threshold the merge fails with 3; the reports are uploaded all the same.
		steps := r.runGitHubJob(&w, "report", map[string]string{"FAIL_UNDER": "99"})[0]
		statuses := map[string]int{}
		for _, s := range steps {
			statuses[s.name] = s.status
		}
		if statuses["Merge the shards"] != exitBelow || statuses["github/codeql-action/upload-sarif@v3"] != 0 || statuses["actions/upload-artifact@v4"] != 0 {
			t.Errorf("FAIL_UNDER 99: steps %v; want the merge 3, the uploads 0", statuses)
		}
	})

	t.Run("gitlab", func(t *testing.T) {
		data, err := os.ReadFile(filepath.Join(recipes, "gitlab-ci.yml"))
		if err != nil {
			t.Fatal(err)
		}
		p := parseGitLab(t, data)
		r := newCIRunner(t, project)
		runs := r.runGitLab(p)
		if len(runs) != 3 {
			t.Fatalf("runs %+v; want two shards and the merge", runs)
		}
		for _, run := range runs {
			if run.status != 0 {
				t.Errorf("job %s %d: status %d", run.job, run.index, run.status)
			}
		}
		checkMerged(t, r.artifacts, "advertest:mutate-*/shard-*.json", "advertest:report-1")

		for _, f := range []string{"advertest.json", "advertest.html", "advertest.sarif"} {
			os.Remove(filepath.Join(r.artifacts, "advertest:report-1", f))
		}
		again := r.runGitLabJob(p, "advertest:report", p.jobs["advertest:report"].Needs, map[string]string{"FAIL_UNDER": "99"})
		if len(again) != 1 || again[0].status != exitBelow || checkSARIF(t, filepath.Join(r.artifacts, "advertest:report-1", "advertest.sarif")) != 0 {
			t.Errorf("FAIL_UNDER 99: %+v; want the merge job to fail with 3 and keep its artifacts", again)
		}
	})
}
