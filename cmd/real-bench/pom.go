package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"text/template"
)

// The Maven plugins' versions: those Debian packages, so that the layouts build offline (the
// same as examples/fault-bench/pom.xml).
var pinnedPlugins = []Dep{
	{Group: "org.apache.maven.plugins", Artifact: "maven-compiler-plugin", Version: "3.10.1"},
	{Group: "org.apache.maven.plugins", Artifact: "maven-surefire-plugin", Version: "2.22.3"},
	{Group: "org.apache.maven.plugins", Artifact: "maven-resources-plugin", Version: "3.3.0"},
	{Group: "org.apache.maven.plugins", Artifact: "maven-jar-plugin", Version: "3.3.0"},
	{Group: "org.apache.maven.plugins", Artifact: "maven-install-plugin", Version: "3.1.0"},
	{Group: "org.apache.maven.plugins", Artifact: "maven-dependency-plugin", Version: "3.5.0"},
	{Group: "org.apache.maven.plugins", Artifact: "maven-clean-plugin", Version: "3.2.0"},
}

// junitDeps are the test dependencies of a library's JUnit, at Debian's versions. The suite
// also gets JUnit 5's parameterized tests.
func junitDeps(junit int, suite bool) []Dep {
	if junit != 5 {
		return []Dep{{Group: "junit", Artifact: "junit", Version: "4.13.2", Scope: "test"}}
	}
	deps := []Dep{
		{Group: "org.junit.jupiter", Artifact: "junit-jupiter-api", Version: "5.9.2", Scope: "test"},
		{Group: "org.junit.jupiter", Artifact: "junit-jupiter-engine", Version: "5.9.2", Scope: "test"},
	}
	if suite {
		deps = append(deps, Dep{Group: "org.junit.jupiter", Artifact: "junit-jupiter-params", Version: "5.9.2", Scope: "test"})
	}
	return deps
}

// pomData is what pomTemplate fills in.
type pomData struct {
	Lib                        Library
	Variant, Version, Encoding string
	Release                    int
	Deps, Plugins              []Dep
	// Includes, Excludes and ArgLine are Surefire's (the suite's only).
	Includes, Excludes []string
	ArgLine            string
}

var pomTemplate = template.Must(template.New("pom").Parse(`<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by cmd/real-bench: {{.Lib.Name}} ({{.Lib.Package}} {{.Version}}), {{.Variant}} layout. -->
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 http://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>

  <groupId>realbench.{{.Lib.Name}}</groupId>
  <artifactId>{{.Lib.Name}}-{{.Variant}}</artifactId>
  <version>{{.Lib.Build.Upstream}}</version>
  <packaging>jar</packaging>
  <name>{{.Lib.Name}} {{.Lib.Build.Upstream}} ({{.Variant}})</name>

  <properties>
    <project.build.sourceEncoding>{{.Encoding}}</project.build.sourceEncoding>
    <project.reporting.outputEncoding>UTF-8</project.reporting.outputEncoding>
    <maven.compiler.release>{{.Release}}</maven.compiler.release>
  </properties>

  <dependencies>
{{- range .Deps}}
    <dependency>
      <groupId>{{.Group}}</groupId>
      <artifactId>{{.Artifact}}</artifactId>
      <version>{{.Version}}</version>
{{- if .Scope}}
      <scope>{{.Scope}}</scope>
{{- end}}
    </dependency>
{{- end}}
  </dependencies>

  <build>
    <!-- Pinned to the plugin versions Debian packages, so the build works offline. -->
    <pluginManagement>
      <plugins>
{{- range .Plugins}}
        <plugin>
          <groupId>{{.Group}}</groupId>
          <artifactId>{{.Artifact}}</artifactId>
          <version>{{.Version}}</version>
        </plugin>
{{- end}}
      </plugins>
    </pluginManagement>
{{- if .Includes}}
    <plugins>
      <plugin>
        <!-- Every error of every test source, so that one round leaves out all that fail. -->
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-compiler-plugin</artifactId>
        <configuration>
          <compilerArgs>
            <arg>-Xmaxerrs</arg>
            <arg>100000</arg>
          </compilerArgs>
        </configuration>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-surefire-plugin</artifactId>
        <configuration>
          <includes>
{{- range .Includes}}
            <include>{{.}}</include>
{{- end}}
          </includes>
{{- if .Excludes}}
          <excludes>
{{- range .Excludes}}
            <exclude>{{.}}</exclude>
{{- end}}
          </excludes>
{{- end}}
{{- if .ArgLine}}
          <argLine>{{.ArgLine}}</argLine>
{{- end}}
        </configuration>
      </plugin>
    </plugins>
{{- end}}
  </build>
</project>
`))

// mavenConfig makes every mvn run in a layout offline, on Debian's repository.
const mavenConfig = "-s /etc/maven/settings-debian.xml\n-o\n"

// writePom writes a layout's pom.xml and .mvn/maven.config: variant "main" (main sources, the
// library's JUnit as the only test dependency) or "suite" (with the test dependencies and
// Surefire's patterns).
func writePom(dir string, lib Library, version, variant string) error {
	suite := variant == "suite"
	d := pomData{Lib: lib, Variant: variant, Version: version, Encoding: lib.Build.Encoding,
		Release: lib.Build.Release, Plugins: pinnedPlugins}
	for _, dep := range lib.Build.Deps {
		if dep.Scope == "" {
			dep.Scope = "compile"
		}
		d.Deps = append(d.Deps, dep)
	}
	d.Deps = append(d.Deps, junitDeps(lib.JUnit, suite)...)
	if suite {
		for _, dep := range lib.Build.TestDeps {
			if dep.Scope == "" {
				dep.Scope = "test"
			}
			d.Deps = append(d.Deps, dep)
		}
		d.Includes, d.Excludes = lib.Build.TestIncludes, lib.Build.TestExcludes
		d.ArgLine = strings.Join(lib.Build.TestJVMArgs, " ")
	}
	var b bytes.Buffer
	if err := pomTemplate.Execute(&b, d); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dir, ".mvn"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, ".mvn", "maven.config"), []byte(mavenConfig), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "pom.xml"), b.Bytes(), 0o644)
}
