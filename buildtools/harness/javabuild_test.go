package harness

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

func TestVersionLess(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{"0.8.9", "0.8.10"},
		{"9.4", "9.10"},
		{"1.0", "1.0.1"},
		{"1.0-SNAPSHOT", "1.0"},
		{"1.0-M1", "1.0"},
		{"1.0-M1", "1.0-M2"},
		{"1.0-M1", "1.0.1"},
		{"2", "10"},
		{"5.9.2", "5.10.0"},
	} {
		if !versionLess(c.a, c.b) || versionLess(c.b, c.a) {
			t.Errorf("versionLess(%s, %s) = %v, versionLess(%[2]s, %[1]s) = %v", c.a, c.b, versionLess(c.a, c.b), versionLess(c.b, c.a))
		}
	}
	if versionLess("1.2.3", "1.2.3") {
		t.Error("a version is less than itself")
	}
}

func TestNewestJar(t *testing.T) {
	repo := "/m2/org/jacoco/org.jacoco.core/"
	got := newestJar([]string{
		repo + "0.8.10/org.jacoco.core-0.8.10.jar",
		repo + "0.8.9/org.jacoco.core-0.8.9.jar",
		repo + "0.8.11/org.jacoco.core-0.8.11-sources.jar",
		repo + "0.8.2/org.jacoco.core-0.8.2.jar",
	})
	if got != repo+"0.8.10/org.jacoco.core-0.8.10.jar" {
		t.Errorf("newestJar = %s, want 0.8.10 (sort.Strings would give 0.8.9)", got)
	}
	if newestJar([]string{repo + "1/x-1-javadoc.jar"}) != "" {
		t.Error("a javadoc jar was picked")
	}
}

func TestFindJarPicksNewestInMavenRepository(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, v := range []string{"0.8.9", "0.8.10", "0.8.8"} {
		f := filepath.Join(home, ".m2", "repository", "org", "advertest", "probe", v, "probe-"+v+".jar")
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := findJar("advertest-no-such-debian.jar", "org/advertest/probe/*/probe-*.jar")
	if filepath.Base(got) != "probe-0.8.10.jar" {
		t.Errorf("findJar = %s", got)
	}
}

var helloSources = fstest.MapFS{
	"demo/Hello.java": {Data: []byte("package demo;\npublic class Hello {\n  public static String hi() { return \"hi\"; }\n}\n")},
	"demo/README":     {Data: []byte("not Java: left alone")},
}

func TestBuildJavaCachesByContent(t *testing.T) {
	cache := t.TempDir()
	b := JavaBuild{Name: "demo", Sources: helloSources, CacheDir: cache}
	dir, built, err := BuildJava(context.Background(), b)
	if err != nil || !built {
		t.Fatalf("first build: %s %v %v", dir, built, err)
	}
	if !fileExists(filepath.Join(dir, "demo", "Hello.class")) {
		t.Errorf("no Hello.class under %s", dir)
	}
	again, built, err := BuildJava(context.Background(), b)
	if err != nil || built || again != dir {
		t.Errorf("second build: %s built=%v %v, want the cached %s", again, built, err, dir)
	}
	// Other sources, or another release, make another build.
	changed := fstest.MapFS{"demo/Hello.java": {Data: []byte("package demo;\npublic class Hello { }\n")}}
	other, built, err := BuildJava(context.Background(), JavaBuild{Name: "demo", Sources: changed, CacheDir: cache})
	if err != nil || !built || other == dir {
		t.Errorf("changed sources: %s built=%v %v", other, built, err)
	}
	rel17, built, err := BuildJava(context.Background(), JavaBuild{Name: "demo", Sources: helloSources, CacheDir: cache, Release: "17"})
	if err != nil || !built || rel17 == dir {
		t.Errorf("release 17: %s built=%v %v", rel17, built, err)
	}
	// A jar build.
	jar, _, err := BuildJava(context.Background(), JavaBuild{Name: "demo", Sources: helloSources, CacheDir: cache, Jar: true})
	if err != nil || filepath.Base(jar) != "demo.jar" || !onClasspath([]string{jar}, "demo/Hello.class") {
		t.Errorf("jar build: %s %v", jar, err)
	}
	// Sources under a folder of the FS, as embedded trees are.
	nested := fstest.MapFS{"java/demo/Hello.java": helloSources["demo/Hello.java"]}
	fromRoot, _, err := BuildJava(context.Background(), JavaBuild{Name: "nested", Sources: nested, Root: "java", CacheDir: cache})
	if err != nil || !fileExists(filepath.Join(fromRoot, "demo", "Hello.class")) {
		t.Errorf("Root: %s %v", fromRoot, err)
	}
	if left, _ := filepath.Glob(filepath.Join(cache, "demo", "build-*")); len(left) != 0 {
		t.Errorf("build folders left: %v", left)
	}
}

func TestBuildJavaRace(t *testing.T) {
	cache := t.TempDir()
	b := JavaBuild{Name: "demo", Sources: helloSources, CacheDir: cache}
	const n = 4
	var wg sync.WaitGroup
	dirs, errs := make([]string, n), make([]error, n)
	builds := 0
	var mu sync.Mutex
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			var built bool
			dirs[i], built, errs[i] = BuildJava(context.Background(), b)
			if built {
				mu.Lock()
				builds++
				mu.Unlock()
			}
		}(i)
	}
	wg.Wait()
	for i := 0; i < n; i++ {
		if errs[i] != nil || dirs[i] != dirs[0] || !fileExists(filepath.Join(dirs[i], "demo", "Hello.class")) {
			t.Errorf("racer %d: %s %v", i, dirs[i], errs[i])
		}
	}
	if builds < 1 {
		t.Error("no racer reported the build")
	}
	if left, _ := filepath.Glob(filepath.Join(cache, "demo", "build-*")); len(left) != 0 {
		t.Errorf("build folders left: %v", left)
	}
}

func TestBuildJavaErrors(t *testing.T) {
	cache := t.TempDir()
	broken := fstest.MapFS{"demo/Broken.java": {Data: []byte("package demo;\npublic class Broken { int x = ; }\n")}}
	_, _, err := BuildJava(context.Background(), JavaBuild{Name: "demo", Sources: broken, CacheDir: cache})
	if err == nil || !strings.Contains(err.Error(), "harness: build demo") || !strings.Contains(err.Error(), "Broken.java:2") {
		t.Errorf("compile error: %v", err)
	}
	if entries, _ := os.ReadDir(filepath.Join(cache, "demo")); len(entries) != 0 {
		t.Errorf("a failed build left %d entries", len(entries))
	}
	for _, b := range []JavaBuild{
		{Name: "", Sources: helloSources, CacheDir: cache},
		{Name: "a/b", Sources: helloSources, CacheDir: cache},
		{Name: "demo", Sources: helloSources},
		{Name: "demo", Sources: fstest.MapFS{"x.txt": {}}, CacheDir: cache},
		{Name: "demo", Sources: helloSources, CacheDir: cache, Javac: "/no/such/javac"},
	} {
		if _, _, err := BuildJava(context.Background(), b); err == nil {
			t.Errorf("%+v: no error", b)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := BuildJava(ctx, JavaBuild{Name: "demo", Sources: helloSources, CacheDir: t.TempDir()}); err == nil {
		t.Error("a cancelled build succeeded")
	}
}

// TestJavacGetsTheAllowlist: BuildJava's javac (the worker's and the explorer's) runs with the
// workers' allowlist: the API key variable and other variables stay out.
func TestJavacGetsTheAllowlist(t *testing.T) {
	_, javac, err := FindJDK("")
	if err != nil {
		t.Skip(err)
	}
	record := filepath.Join(t.TempDir(), "javac.env")
	fake := filepath.Join(t.TempDir(), "javac")
	script := "#!/bin/sh\nenv > '" + record + "'\nexec '" + javac + "' \"$@\"\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("OPENAI_API_KEY", "sk-default-secret")
	t.Setenv("ADVERTEST_CANARY", "canary")
	if _, _, err := BuildJava(context.Background(), JavaBuild{Name: "demo", Sources: helloSources, CacheDir: t.TempDir(), Javac: fake}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(record)
	if err != nil {
		t.Fatalf("the fake javac did not run: %v", err)
	}
	for _, secret := range []string{"sk-default-secret", "ADVERTEST_CANARY"} {
		if strings.Contains(string(b), secret) {
			t.Errorf("javac got %s", secret)
		}
	}
	if !strings.Contains("\n"+string(b), "\nPATH=") {
		t.Errorf("javac lacks PATH:\n%s", b)
	}
}
