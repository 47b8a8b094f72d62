package buildtools

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// go test ./buildtools/ -run '^$' -bench . -benchtime 3x

func BenchmarkLoadModuleMavenCold(b *testing.B) {
	benchLoad(b, "../examples/maven-calculator", "src/main/java/org/acme/PriceCalculator.java", Options{CacheDir: "-"}, false)
}

func BenchmarkLoadModuleMavenCached(b *testing.B) {
	benchLoad(b, "../examples/maven-calculator", "src/main/java/org/acme/PriceCalculator.java", Options{CacheDir: "-"}, true)
}

func BenchmarkLoadModuleMavenDiskCache(b *testing.B) {
	dir := b.TempDir()
	root := copyProject(b, "../examples/maven-calculator")
	file := filepath.Join(root, "src/main/java/org/acme/PriceCalculator.java")
	if _, err := LoadModule(context.Background(), file, Options{CacheDir: dir}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := LoadModule(context.Background(), file, Options{CacheDir: dir}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoadModuleGradleCold(b *testing.B) {
	benchLoad(b, "../examples/gradle-inventory", "src/main/java/org/acme/inventory/Inventory.java", Options{CacheDir: "-", GradleArgs: gradleTestArgs}, false)
}

func benchLoad(b *testing.B, project, file string, opts Options, reuse bool) {
	requireTool(b, map[bool]string{true: "gradle", false: "mvn"}[opts.GradleArgs != nil])
	root := copyProject(b, project)
	path := filepath.Join(root, file)
	l := NewLoader(opts)
	if reuse {
		if _, err := l.Load(context.Background(), path); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if !reuse {
			l = NewLoader(opts)
		}
		if _, err := l.Load(context.Background(), path); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEnsureCompiledMavenFresh compiles a fresh copy (no target/) every iteration.
func BenchmarkEnsureCompiledMavenFresh(b *testing.B) {
	requireTool(b, "mvn")
	root := copyProject(b, "../examples/maven-calculator")
	m, err := LoadModule(context.Background(), filepath.Join(root, "pom.xml"), Options{CacheDir: "-"})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		os.RemoveAll(filepath.Join(root, "target"))
		b.StartTimer()
		if err := m.EnsureCompiled(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEnsureCompiledUpToDate is the check alone, when nothing changed.
func BenchmarkEnsureCompiledUpToDate(b *testing.B) {
	requireTool(b, "mvn")
	root := copyProject(b, "../examples/maven-calculator")
	m, err := LoadModule(context.Background(), filepath.Join(root, "pom.xml"), Options{CacheDir: "-"})
	if err != nil {
		b.Fatal(err)
	}
	if err := m.EnsureCompiled(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := m.EnsureCompiled(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEnsureCompiledGradleFresh compiles a fresh Gradle copy (no build/) every iteration.
func BenchmarkEnsureCompiledGradleFresh(b *testing.B) {
	requireTool(b, "gradle")
	root := copyProject(b, "../examples/gradle-inventory")
	m, err := LoadModule(context.Background(), filepath.Join(root, "build.gradle"), Options{CacheDir: "-", GradleArgs: gradleTestArgs})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		os.RemoveAll(filepath.Join(root, "build"))
		b.StartTimer()
		if err := m.EnsureCompiled(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
