package buildtools

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseMojoConfigs(t *testing.T) {
	log := strings.Join([]string{
		"[DEBUG] Configuring mojo 'org.apache.maven.plugins:maven-compiler-plugin:3.10.1:compile' with basic configurator -->",
		"[DEBUG]   (f) compileSourceRoots = [/p/src/main/java, /p/gen]",
		"[DEBUG]   (f) outputDirectory = /p/target/classes",
		"[DEBUG]   (s) release = 17",
		"[DEBUG]   (f) remoteRepositories = [      id: central",
		"      url: https://repo.maven.apache.org/maven2",
		"]",
		"[DEBUG] -- end configuration --",
		"[DEBUG]   (f) outputDirectory = /elsewhere",
		"[DEBUG] Configuring mojo 'org.apache.maven.plugins:maven-compiler-plugin:3.10.1:testCompile' with basic configurator -->",
		"[DEBUG]   (f) compilerArgs = [-Xlint:all, -Werror]",
		"[DEBUG]   (f) parameters = true",
		"[DEBUG]   (f) source = 1.8",
		"[DEBUG] -- end configuration --",
	}, "\n")
	cfg := parseMojoConfigs(log)
	if got := parseList(cfg["compile"]["compileSourceRoots"]); !slices.Equal(got, []string{"/p/src/main/java", "/p/gen"}) {
		t.Errorf("compileSourceRoots = %v", got)
	}
	if cfg["compile"]["outputDirectory"] != "/p/target/classes" || mavenRelease(cfg["compile"]) != "17" {
		t.Errorf("compile = %v", cfg["compile"])
	}
	if got := mavenCompilerArgs(cfg["testCompile"]); !slices.Equal(got, []string{"-parameters", "-Xlint:all", "-Werror"}) {
		t.Errorf("compilerArgs = %v", got)
	}
	if r := mavenRelease(cfg["testCompile"]); r != "8" {
		t.Errorf("release from source 1.8 = %q", r)
	}
}

func TestNormalizeRelease(t *testing.T) {
	for in, want := range map[string]string{"1.8": "8", "11": "11", "1.7": "8", "VERSION_17": "17", "VERSION_1_8": "8", "": "", "21": "21"} {
		if got := normalizeRelease(in); got != want {
			t.Errorf("normalizeRelease(%q) = %q; want %q", in, got, want)
		}
	}
}

func TestDetectFromClasspath(t *testing.T) {
	j5 := []string{"/r/org/junit/jupiter/junit-jupiter-api/5.9.2/junit-jupiter-api-5.9.2.jar", "/r/junit/junit/4.13.2/junit-4.13.2.jar"}
	if v := JUnitVersionOf(j5); v != 5 {
		t.Errorf("Jupiter and JUnit 4: %d; want 5", v)
	}
	if v := JUnitVersionOf(j5[1:]); v != 4 {
		t.Errorf("JUnit 4: %d", v)
	}
	if v := JUnitVersionOf([]string{"/usr/share/java/junit4.jar"}); v != 4 {
		t.Errorf("junit4.jar: %d", v)
	}
	if v := JUnitVersionOf([]string{"/x/commons-lang3.jar"}); v != 0 {
		t.Errorf("no JUnit: %d", v)
	}
	if v := MockitoVersionOf([]string{"/r/org/mockito/mockito-core/4.11.0/mockito-core-4.11.0.jar"}); v != "4.11.0" {
		t.Errorf("mockito from the name: %q", v)
	}
	if fileExists("/usr/share/java/mockito-core.jar") {
		// Debian's unversioned name links to the versioned jar.
		if v := MockitoVersionOf([]string{"/usr/share/java/mockito-core.jar"}); v != "2.23.0" {
			t.Errorf("Debian's mockito-core.jar: %q; want 2.23.0", v)
		}
	}
	if v := MockitoVersionOf(j5); v != "" {
		t.Errorf("no Mockito: %q", v)
	}
}

func TestBuildErrorSummary(t *testing.T) {
	e := &BuildError{Tool: "/usr/bin/mvn", Dir: "/p", Purpose: "compile", ExitCode: 1, Output: strings.Join([]string{
		"[INFO] Building x",
		"[ERROR] COMPILATION ERROR : ",
		"[ERROR] /p/A.java:[3,9] cannot find symbol",
		"[ERROR] Failed to execute goal ...: Compilation failure",
		"[ERROR] /p/A.java:[3,9] cannot find symbol",
		"[ERROR] -> [Help 1]",
		"[ERROR] ",
		"[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.",
	}, "\n")}
	got := e.Error()
	if strings.Count(got, "cannot find symbol") != 1 || !strings.Contains(got, "mvn could not compile in /p (exit status 1)") || strings.Contains(got, "Help 1") {
		t.Errorf("Error() =\n%s", got)
	}
}

func TestWrappersArePreferred(t *testing.T) {
	top := t.TempDir()
	sub := filepath.Join(top, "lib")
	os.MkdirAll(filepath.Join(sub, "src"), 0o755)
	os.WriteFile(filepath.Join(top, "settings.gradle"), []byte("include 'lib'\n"), 0o644)
	os.WriteFile(filepath.Join(sub, "build.gradle"), []byte("apply plugin: 'java'\n"), 0o644)
	os.WriteFile(filepath.Join(top, "gradlew"), []byte("#!/bin/sh\n"), 0o755)
	if got, err := gradleExecutable(sub); err != nil || got != filepath.Join(top, "gradlew") {
		t.Errorf("gradleExecutable = %q, %v; want the build's gradlew", got, err)
	}
	os.MkdirAll(filepath.Join(top, ".mvn"), 0o755)
	os.WriteFile(filepath.Join(top, "mvnw"), []byte("#!/bin/sh\n"), 0o755)
	if got, err := mavenExecutable(sub); err != nil || got != filepath.Join(top, "mvnw") {
		t.Errorf("mavenExecutable = %q, %v; want the build's mvnw", got, err)
	}
	// A wrapper that is not executable does not count.
	os.Chmod(filepath.Join(top, "mvnw"), 0o644)
	if got, _ := mavenExecutable(sub); got == filepath.Join(top, "mvnw") {
		t.Errorf("a non-executable mvnw was used")
	}
}
