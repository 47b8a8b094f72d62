package buildtools

import (
	"bufio"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// pomModules is the part of a pom.xml this package reads itself: only the reactor structure.
// Everything else (source roots, language level, classpath) comes from Maven.
type pomModules struct {
	Modules  []string `xml:"modules>module"`
	Profiles []struct {
		Modules []string `xml:"modules>module"`
	} `xml:"profiles>profile"`
}

func readPomModules(pom string) ([]string, error) {
	b, err := os.ReadFile(pom)
	if err != nil {
		return nil, err
	}
	var p pomModules
	if err := xml.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("parse %s: %w", pom, err)
	}
	mods := p.Modules
	for _, pr := range p.Profiles {
		mods = append(mods, pr.Modules...)
	}
	return mods, nil
}

// mavenReactorRoot returns the topmost folder above root whose pom.xml lists the module chain
// down to root in <modules>, and root's path relative to it ("" when root is no reactor's module).
func mavenReactorRoot(root string) (reactor, rel string) {
	child := root
	for {
		parent := filepath.Dir(child)
		if parent == child {
			break
		}
		mods, err := readPomModules(filepath.Join(parent, "pom.xml"))
		if err != nil {
			break
		}
		listed := false
		for _, m := range mods {
			p := filepath.Clean(filepath.Join(parent, filepath.FromSlash(strings.TrimSpace(m))))
			if strings.HasSuffix(p, ".xml") {
				p = filepath.Dir(p)
			}
			if p == child {
				listed = true
				break
			}
		}
		if !listed {
			break
		}
		reactor, child = parent, parent
	}
	if reactor == "" {
		return "", ""
	}
	r, err := filepath.Rel(reactor, root)
	if err != nil {
		return "", ""
	}
	return reactor, filepath.ToSlash(r)
}

// mavenTopDir is where Maven looks for .mvn: the nearest folder at or above root that has one;
// root itself when none does.
func mavenTopDir(root string) string {
	dir := root
	for {
		if fi, err := os.Stat(filepath.Join(dir, ".mvn")); err == nil && fi.IsDir() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return root
		}
		dir = parent
	}
}

// mavenBuildFiles lists the files whose content decides the Maven model of the module at root:
// its pom.xml, the poms of the folders above it (parents and aggregators), .mvn's configuration
// and the user's settings.xml.
func mavenBuildFiles(root string) []string {
	files := []string{filepath.Join(root, "pom.xml")}
	for dir := filepath.Dir(root); ; dir = filepath.Dir(dir) {
		p := filepath.Join(dir, "pom.xml")
		if !fileExists(p) {
			break
		}
		files = append(files, p)
		if filepath.Dir(dir) == dir {
			break
		}
	}
	top := mavenTopDir(root)
	for _, name := range []string{"maven.config", "jvm.config", "extensions.xml"} {
		if p := filepath.Join(top, ".mvn", name); fileExists(p) {
			files = append(files, p)
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		if p := filepath.Join(home, ".m2", "settings.xml"); fileExists(p) {
			files = append(files, p)
		}
	}
	return files
}

// mavenExecutable returns the Maven wrapper of the build (mvnw at or above root, up to the .mvn
// folder) or mvn on PATH.
func mavenExecutable(root string) (string, error) {
	return buildExecutable(root, "mvnw", mavenTopDir(root), "mvn")
}

// buildExecutable returns the build's wrapper script (at or above root, up to top) or tool on
// PATH; a *ToolMissingError when neither is there.
func buildExecutable(root, wrapper, top, tool string) (string, error) {
	if w := findWrapper(wrapper, root, top); w != "" {
		return w, nil
	}
	p, err := exec.LookPath(tool)
	if err != nil {
		return "", &ToolMissingError{Tool: tool, Module: root}
	}
	return p, nil
}

// mavenModelGoals ask Maven, in one run, for the test classpath (written to a file) and for the
// compiler plugin's effective configuration (printed by -X while the two skipped compile goals
// are configured; nothing is compiled).
var mavenModelGoals = []string{
	"dependency:build-classpath",
	"compiler:compile",
	"compiler:testCompile",
}

// loadMaven asks Maven for the model of the module at root.
func (l *Loader) loadMaven(ctx context.Context, root string) (*Module, error) {
	tool, err := mavenExecutable(root)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "advertest-maven-")
	if err != nil {
		return nil, fmt.Errorf("read Maven model of %s: %w", root, err)
	}
	defer os.RemoveAll(tmp)
	cpFile := filepath.Join(tmp, "classpath.txt")
	logFile := filepath.Join(tmp, "maven.log")
	common := []string{"-B", "-X", "-l", logFile,
		"-Dmaven.main.skip=true", "-Dmaven.test.skip=true",
		"-Dmdep.outputFile=" + cpFile, "-Dmdep.includeScope=test"}

	run := toolRun{tool: tool, dir: root, purpose: "read the project model", logFile: logFile,
		args: concat(l.opts.MavenArgs, common, []string{"-N"}, mavenModelGoals)}
	l.noteRun(run)
	output, err := run.run(ctx, l.log, l.opts.APIKeyEnv)
	var reactor, rel string
	if err != nil {
		var be *BuildError
		// A module that depends on its siblings cannot resolve them alone: ask the reactor,
		// which resolves them to their class folders once they are compiled.
		if errors.As(err, &be) && strings.Contains(be.Output, "Could not resolve dependencies") {
			if reactor, rel = mavenReactorRoot(root); reactor != "" {
				_ = os.Remove(logFile)
				run = toolRun{tool: tool, dir: reactor, purpose: "read the project model", logFile: logFile,
					args: concat(l.opts.MavenArgs, common, []string{"-pl", rel, "-am", "compile"}, mavenModelGoals)}
				run.args = replaceArg(run.args, "-Dmaven.main.skip=true", "-Dmaven.main.skip=false")
				l.noteRun(run)
				output, err = run.run(ctx, l.log, l.opts.APIKeyEnv)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	cp, err := os.ReadFile(cpFile)
	if err != nil {
		return nil, &BuildError{Tool: tool, Args: run.args, Dir: run.dir, Purpose: "read the project model",
			ExitCode: 0, Output: output, Err: fmt.Errorf("Maven wrote no classpath file: %w", err)}
	}
	mojos := parseMojoConfigs(output)
	main := mojos["compile"]
	test := mojos["testCompile"]
	if main == nil || test == nil {
		return nil, &BuildError{Tool: tool, Args: run.args, Dir: run.dir, Purpose: "read the project model",
			Output: output, Err: errors.New("Maven printed no compiler configuration")}
	}
	m := &Module{
		Root:            root,
		BuildSystem:     Maven,
		MainSourceRoots: existingOrAll(parseList(main["compileSourceRoots"])),
		TestSourceRoots: existingOrAll(parseList(test["compileSourceRoots"])),
		MainOutput:      main["outputDirectory"],
		TestOutput:      test["outputDirectory"],
		ReactorRoot:     reactor,
		ReactorModule:   rel,
	}
	m.Release = mavenRelease(test)
	m.CompilerArgs = mavenCompilerArgs(test)
	for _, p := range strings.Split(strings.TrimSpace(string(cp)), string(os.PathListSeparator)) {
		if p = strings.TrimSpace(p); p != "" {
			m.TestClasspath = append(m.TestClasspath, p)
		}
	}
	if m.MainOutput == "" || m.TestOutput == "" {
		return nil, fmt.Errorf("read Maven model of %s: no output folders in Maven's compiler configuration", root)
	}
	return m, nil
}

// mavenCompileArgs is the Maven command that compiles the module's main and test classes.
func (m *Module) mavenCompile(ctx context.Context, l *Loader) error {
	tool, err := mavenExecutable(m.Root)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "advertest-maven-")
	if err != nil {
		return fmt.Errorf("compile %s: %w", m.Root, err)
	}
	defer os.RemoveAll(tmp)
	logFile := filepath.Join(tmp, "maven.log")
	run := toolRun{tool: tool, dir: m.Root, purpose: "compile", logFile: logFile,
		args: concat(m.opts.MavenArgs, []string{"-B", "-l", logFile, "-N", "test-compile"})}
	if m.ReactorRoot != "" {
		run.dir = m.ReactorRoot
		run.args = concat(m.opts.MavenArgs, []string{"-B", "-l", logFile, "-pl", m.ReactorModule, "-am", "test-compile"})
	}
	l.noteRun(run)
	_, err = run.run(ctx, l.log, l.opts.APIKeyEnv)
	return err
}

var mojoHeader = regexp.MustCompile(`Configuring mojo '([^']+)' with`)
var mojoParam = regexp.MustCompile(`^\[DEBUG\]\s+\([fs]\)\s+([\w.]+)\s+=\s?(.*)$`)

// parseMojoConfigs reads the "(f) name = value" lines Maven's -X prints while configuring each
// mojo, keyed by goal ("compile", "testCompile", "build-classpath"). When a goal ran for several
// projects (a reactor run), the last one (the requested module, built last) wins.
func parseMojoConfigs(log string) map[string]map[string]string {
	out := map[string]map[string]string{}
	var cur map[string]string
	sc := bufio.NewScanner(strings.NewReader(log))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		if mm := mojoHeader.FindStringSubmatch(line); mm != nil {
			parts := strings.Split(mm[1], ":")
			cur = map[string]string{}
			out[parts[len(parts)-1]] = cur
			continue
		}
		if cur == nil {
			continue
		}
		if strings.Contains(line, "-- end configuration --") {
			cur = nil
			continue
		}
		if mm := mojoParam.FindStringSubmatch(line); mm != nil {
			cur[mm[1]] = strings.TrimSpace(mm[2])
		}
	}
	return out
}

// parseList reads Maven's "[a, b, c]" rendering of a list parameter.
func parseList(v string) []string {
	v = strings.TrimSpace(v)
	if !strings.HasPrefix(v, "[") || !strings.HasSuffix(v, "]") {
		if v == "" {
			return nil
		}
		return []string{v}
	}
	v = strings.TrimSpace(v[1 : len(v)-1])
	if v == "" {
		return nil
	}
	var out []string
	for _, p := range strings.Split(v, ", ") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// mavenRelease returns the test compile's language level: testRelease, release, testSource or
// source, as javac's --release wants it ("1.8" → "8"). Levels below 8 (the plugin's default 1.7)
// are raised to 8, the lowest current JDKs still compile for.
func mavenRelease(cfg map[string]string) string {
	for _, k := range []string{"testRelease", "release", "testSource", "source"} {
		if v := strings.TrimSpace(cfg[k]); v != "" && v != "null" {
			return normalizeRelease(v)
		}
	}
	return ""
}

// normalizeRelease turns "1.8" into "8" and raises levels below 8 to 8.
func normalizeRelease(v string) string {
	v = strings.TrimPrefix(strings.TrimSpace(v), "VERSION_")
	v = strings.ReplaceAll(v, "_", ".")
	v = strings.TrimPrefix(v, "1.")
	switch v {
	case "", "0", "1", "2", "3", "4", "5", "6", "7":
		if v == "" {
			return ""
		}
		return "8"
	}
	return v
}

// mavenCompilerArgs returns the extra javac flags of a compiler mojo configuration.
func mavenCompilerArgs(cfg map[string]string) []string {
	var args []string
	if cfg["parameters"] == "true" {
		args = append(args, "-parameters")
	}
	if cfg["enablePreview"] == "true" {
		args = append(args, "--enable-preview")
	}
	for _, a := range parseList(cfg["compilerArgs"]) {
		if a != "null" {
			args = append(args, a)
		}
	}
	if a := strings.TrimSpace(cfg["compilerArgument"]); a != "" && a != "null" {
		args = append(args, strings.Fields(a)...)
	}
	return args
}

// existingOrAll keeps the folders that exist; when none does, all of them (a fresh project whose
// test folder is yet to be created still has its conventional root).
func existingOrAll(dirs []string) []string {
	var out []string
	for _, d := range dirs {
		if fileExists(d) {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return dirs
	}
	return out
}

func concat(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func replaceArg(args []string, old, repl string) []string {
	out := append([]string(nil), args...)
	for i, a := range out {
		if a == old {
			out[i] = repl
		}
	}
	return out
}
