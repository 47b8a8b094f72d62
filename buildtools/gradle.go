package buildtools

import (
	"bufio"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// gradleInitScript adds the task advertestModel, which writes each project's source sets, output
// folders, test runtime classpath and language level to the file named by -Dadvertest.out.
//
//go:embed model-init.gradle
var gradleInitScript []byte

// gradleModelTask is the task the init script adds.
const gradleModelTask = "advertestModel"

// gradleSettingsDir returns the nearest folder at or above root with a settings.gradle(.kts): the
// build's root project; root itself when there is none.
func gradleSettingsDir(root string) string {
	for dir := root; ; dir = filepath.Dir(dir) {
		if fileExists(filepath.Join(dir, "settings.gradle")) || fileExists(filepath.Join(dir, "settings.gradle.kts")) {
			return dir
		}
		if filepath.Dir(dir) == dir {
			return root
		}
	}
}

// gradleBuildFiles lists the files whose content decides the Gradle model of the module at root.
func gradleBuildFiles(root string) []string {
	top := gradleSettingsDir(root)
	var files []string
	add := func(p string) {
		if fileExists(p) {
			for _, f := range files {
				if f == p {
					return
				}
			}
			files = append(files, p)
		}
	}
	for _, dir := range []string{root, top} {
		for _, name := range []string{"build.gradle", "build.gradle.kts", "settings.gradle",
			"settings.gradle.kts", "gradle.properties"} {
			add(filepath.Join(dir, name))
		}
	}
	add(filepath.Join(top, "gradle", "libs.versions.toml"))
	add(filepath.Join(top, "gradle", "wrapper", "gradle-wrapper.properties"))
	return files
}

// gradleExecutable returns the build's ./gradlew (at or above root, up to the settings folder)
// or gradle on PATH.
func gradleExecutable(root string) (string, error) {
	return buildExecutable(root, "gradlew", gradleSettingsDir(root), "gradle")
}

// loadGradle asks Gradle, through the init script, for the model of the module at root.
func (l *Loader) loadGradle(ctx context.Context, root string) (*Module, error) {
	tool, err := gradleExecutable(root)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "advertest-gradle-")
	if err != nil {
		return nil, fmt.Errorf("read Gradle model of %s: %w", root, err)
	}
	defer os.RemoveAll(tmp)
	script := filepath.Join(tmp, "advertest-init.gradle")
	if err := os.WriteFile(script, gradleInitScript, 0o644); err != nil {
		return nil, fmt.Errorf("read Gradle model of %s: %w", root, err)
	}
	outFile := filepath.Join(tmp, "model.tsv")
	run := toolRun{tool: tool, dir: root, purpose: "read the project model",
		args: concat(l.opts.GradleArgs, []string{"-q", "-I", script, "-Dadvertest.out=" + outFile, gradleModelTask})}
	l.noteRun(run)
	output, err := run.run(ctx, l.log, l.opts.APIKeyEnv)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(outFile)
	if err != nil {
		return nil, &BuildError{Tool: tool, Args: run.args, Dir: root, Purpose: "read the project model",
			Output: output, Err: fmt.Errorf("the init script wrote no model: %w", err)}
	}
	m := &Module{Root: root, BuildSystem: Gradle}
	var mainOuts, testOuts []string
	var sourceCompat, release string
	found := false
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		dir, rest, ok := strings.Cut(sc.Text(), "\t")
		if !ok || filepath.Clean(dir) != filepath.Clean(root) {
			continue
		}
		key, val, _ := strings.Cut(rest, "\t")
		found = true
		switch key {
		case "mainSource":
			m.MainSourceRoots = append(m.MainSourceRoots, val)
		case "testSource":
			m.TestSourceRoots = append(m.TestSourceRoots, val)
		case "mainOutput":
			mainOuts = append(mainOuts, val)
		case "testOutput":
			testOuts = append(testOuts, val)
		case "classpath":
			m.TestClasspath = append(m.TestClasspath, val)
		case "sourceCompatibility":
			sourceCompat = val
		case "release":
			release = val
		case "compilerArg":
			m.CompilerArgs = append(m.CompilerArgs, val)
		}
	}
	if !found {
		return nil, &BuildError{Tool: tool, Args: run.args, Dir: root, Purpose: "read the project model",
			Output: output, Err: errors.New("Gradle reported no project at the module folder")}
	}
	if len(mainOuts) == 0 || len(testOuts) == 0 {
		return nil, &BuildError{Tool: tool, Args: run.args, Dir: root, Purpose: "read the project model",
			Output: output, Err: errors.New("the project applies no Java plugin (no main/test source sets)")}
	}
	m.MainSourceRoots = existingOrAll(m.MainSourceRoots)
	m.TestSourceRoots = existingOrAll(m.TestSourceRoots)
	m.MainOutput = javaClassesDir(mainOuts)
	m.TestOutput = javaClassesDir(testOuts)
	if release != "" && release != "null" {
		m.Release = normalizeRelease(release)
	} else {
		m.Release = normalizeRelease(sourceCompat)
	}
	// The test runtime classpath holds the module's own outputs only through the source set,
	// never through the configuration; drop them anyway should a build add them.
	m.TestClasspath = without(m.TestClasspath, append(mainOuts, testOuts...))
	return m, nil
}

// gradleCompile runs the build's testClasses task for the module.
func (m *Module) gradleCompile(ctx context.Context, l *Loader) error {
	tool, err := gradleExecutable(m.Root)
	if err != nil {
		return err
	}
	run := toolRun{tool: tool, dir: m.Root, purpose: "compile",
		args: concat(m.opts.GradleArgs, []string{"-q", "testClasses"})}
	l.noteRun(run)
	_, err = run.run(ctx, l.log, l.opts.APIKeyEnv)
	return err
}

// javaClassesDir picks the Java compiler's output among a source set's class folders.
func javaClassesDir(dirs []string) string {
	for _, d := range dirs {
		if strings.Contains(filepath.ToSlash(d), "/classes/java/") {
			return d
		}
	}
	return dirs[0]
}

func without(list, drop []string) []string {
	var out []string
outer:
	for _, p := range list {
		for _, d := range drop {
			if filepath.Clean(p) == filepath.Clean(d) {
				continue outer
			}
		}
		out = append(out, p)
	}
	return out
}
