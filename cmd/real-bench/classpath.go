package main

import (
	"archive/zip"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// CheckClasspath fails when an entry of cp (a jar or a class folder) holds a class of one of
// packages or of their subpackages: Debian's Maven repository has built jars of several
// workbench libraries at the very versions under test (Commons Lang, Collections, Codec, Text,
// jsoup), and one of them on a class path (say through a test dependency's own dependencies)
// would let tests and mutants run against it instead of the library's own, laid-out classes.
func CheckClasspath(cp []string, packages []string) error {
	var prefixes []string
	for _, p := range packages {
		prefixes = append(prefixes, strings.ReplaceAll(strings.Trim(p, "."), ".", "/")+"/")
	}
	for _, entry := range cp {
		if entry == "" {
			continue
		}
		st, err := os.Stat(entry)
		if err != nil {
			if os.IsNotExist(err) {
				continue // the JVM ignores a missing entry too
			}
			return fmt.Errorf("checking the class path: %w", err)
		}
		var class string
		if st.IsDir() {
			class, err = dirClassIn(entry, prefixes)
		} else {
			class, err = jarClassIn(entry, prefixes)
		}
		if err != nil {
			return fmt.Errorf("checking the class path entry %s: %w", entry, err)
		}
		if class != "" {
			return &LeakError{Entry: entry, Class: class, Packages: packages}
		}
	}
	return nil
}

// LeakError is CheckClasspath's finding: a class path entry holding a class of the library
// under test.
type LeakError struct {
	// Entry is the jar or folder, Class the entry's name of the class in it.
	Entry, Class string
	// Packages are the library's packages.
	Packages []string
}

func (e *LeakError) Error() string {
	return fmt.Sprintf("the class path entry %s holds %s, a class of the library under test (%s): "+
		"its own built copy must not be on its class path", e.Entry, e.Class, strings.Join(e.Packages, ", "))
}

// multiRelease strips a multi-release jar's version folder from an entry's name.
var multiRelease = regexp.MustCompile(`^META-INF/versions/\d+/`)

// jarClassIn is the first .class entry of the jar under one of prefixes, "" when none.
func jarClassIn(jar string, prefixes []string) (string, error) {
	r, err := zip.OpenReader(jar)
	if err != nil {
		return "", err
	}
	defer r.Close()
	for _, f := range r.File {
		name := multiRelease.ReplaceAllString(f.Name, "")
		if strings.HasSuffix(name, ".class") && hasAnyPrefix(name, prefixes) {
			return f.Name, nil
		}
	}
	return "", nil
}

// dirClassIn is the first .class file of a class folder under one of prefixes, "" when none.
func dirClassIn(dir string, prefixes []string) (string, error) {
	for _, p := range prefixes {
		found := ""
		err := filepath.WalkDir(filepath.Join(dir, filepath.FromSlash(p)), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) {
					return filepath.SkipAll
				}
				return err
			}
			if !d.IsDir() && strings.HasSuffix(path, ".class") {
				found = path
				return filepath.SkipAll
			}
			return nil
		})
		if err != nil || found != "" {
			return found, err
		}
	}
	return "", nil
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// readClasspathFile reads the file `mvn dependency:build-classpath -Dmdep.outputFile=FILE`
// wrote (Maven's standard output carries colour codes and log lines; the file only the path).
func readClasspathFile(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var cp []string
	for _, e := range strings.Split(strings.TrimSpace(string(b)), string(os.PathListSeparator)) {
		if e = strings.TrimSpace(e); e != "" {
			cp = append(cp, e)
		}
	}
	return cp, nil
}
