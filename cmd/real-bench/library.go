package main

// The workbench's libraries: real, widely used open-source Java libraries, taken from Debian's
// source packages at run time (never committed: Fetch downloads them into a cache folder, and
// Prepare lays them out there as Maven projects that build offline with Debian's Maven
// repository, /usr/share/maven-repo).
//
// Each entry is one Debian source package, named as `apt-get source` takes it, with the facts
// its build needs, checked by hand on the upstream version the entry names (Build.Upstream; a
// different version from Debian fails the fetch instead of building on unchecked facts):
//
//   - Release and Encoding: what javac compiles its sources with. Release 8 builds every one of
//     them on Debian's JDK 17; Commons Lang's sources are ISO-8859-1, the others UTF-8.
//   - Deps: what its main sources need beyond the JDK (Joda-Convert's annotations for Joda-Time,
//     jsr305's javax.annotation for jsoup), from Debian's Maven repository.
//   - TestDeps: what its own tests need that Debian has (Hamcrest, EasyMock 5.1, Mockito 2.23,
//     Commons IO and Lang, Gson, Jetty 9.4); the library's JUnit comes from Library.JUnit.
//   - LeaveOutImports and LeaveOutFiles: the test sources left out of the suite layout before
//     anything is compiled, with why (they need what Debian lacks: junit-pioneer, JMH, H2,
//     opencsv, …; or the network, or files outside the project). Whatever still does not
//     compile is found and left out by Prepare itself, with javac's message.
//   - TestIncludes, TestExcludes and TestJVMArgs: the suite's Surefire patterns and argLine,
//     upstream's own (which files are test classes, so what a plain `mvn test` of the suite
//     runs, and how).
//
// The Debian packages the builds need are installed by .ci/install-deps. docs/real-bench.md
// says how to add a library.

// BuildFacts are what one library's Maven projects need to build offline (see the comment
// above Libraries).
type BuildFacts struct {
	// Upstream is the upstream version the facts were checked on ("3.12.0"): the Debian
	// version's upstream part must be this.
	Upstream string
	// Release is javac's --release and Encoding the sources' encoding.
	Release  int
	Encoding string
	// Deps are the main sources' dependencies (compile or provided scope).
	Deps []Dep `json:",omitempty"`
	// TestDeps are the library's own tests' dependencies beyond its JUnit.
	TestDeps []Dep `json:",omitempty"`
	// TestIncludes and TestExcludes are the suite's Surefire patterns ("**/*Test.java"),
	// relative to src/test/java.
	TestIncludes, TestExcludes []string
	// TestJVMArgs are the options upstream's build runs its tests with on the JDK here
	// (Surefire's argLine): Commons Lang opens java.base to its reflection tests.
	TestJVMArgs []string `json:",omitempty"`
	// LeaveOutImports maps a Java package or class prefix that a test source imports
	// ("org.junitpioneer") to why a test source importing it is left out.
	LeaveOutImports map[string]string `json:",omitempty"`
	// LeaveOutFiles maps a test source path relative to src/test/java to why it is left out.
	LeaveOutFiles map[string]string `json:",omitempty"`
	// JavaResources are patterns of non-Java files under src/main/java that the upstream build
	// packs as resources ("**/*.properties"); the layouts copy them to src/main/resources.
	JavaResources []string `json:",omitempty"`
	// TimeZoneData: the main build compiles Joda-Time's time-zone database (see tzdata.go).
	TimeZoneData bool `json:",omitempty"`
}

// Dep is one Maven dependency from Debian's repository.
type Dep struct {
	Group, Artifact, Version string
	// Scope is Maven's scope; "" is compile in Deps and test in TestDeps.
	Scope string `json:",omitempty"`
}

// Test dependencies several libraries share, at the versions Debian's repository has.
var (
	hamcrest = Dep{Group: "org.hamcrest", Artifact: "hamcrest", Version: "2.2"}
	easymock = Dep{Group: "org.easymock", Artifact: "easymock", Version: "5.1.0"}
	lang3    = Dep{Group: "org.apache.commons", Artifact: "commons-lang3", Version: "3.12.0"}
	jsr305   = Dep{Group: "com.google.code.findbugs", Artifact: "jsr305", Version: "debian"}
)

// Why test sources are left out, in the words of SuiteReport.LeftOut.
const (
	notInDebian = ", not in Debian's Maven repository"
)

// Libraries is the workbench: one entry per Debian source package, in the order the benchmark
// reports them.
var Libraries = []Library{
	{
		Name: "lang3", Package: "libcommons-lang3-java", Kind: "text",
		Packages: []string{"org.apache.commons.lang3"}, JUnit: 5,
		Build: BuildFacts{
			Upstream: "3.12.0", Release: 8, Encoding: "ISO-8859-1",
			TestDeps:     []Dep{hamcrest, easymock, jsr305},
			TestIncludes: []string{"**/*Test.java"},
			// Upstream leaves it out on Java 15 and later (its profile java15+), and opens
			// java.base to reflection on Java 9 and later (its profile java9+, LANG-1265).
			TestExcludes: []string{"org/apache/commons/lang3/time/Java15BugFastDateParserTest.java"},
			TestJVMArgs: []string{"-Xmx512m", "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED",
				"--add-opens", "java.base/java.lang=ALL-UNNAMED"},
			LeaveOutImports: map[string]string{
				"org.junitpioneer": "needs junit-pioneer" + notInDebian,
				"org.openjdk.jmh":  "needs JMH" + notInDebian,
			},
		},
	},
	{
		Name: "collections4", Package: "libcommons-collections4-java", Kind: "collections",
		Packages: []string{"org.apache.commons.collections4"}, JUnit: 4,
		Build: BuildFacts{
			Upstream: "4.2", Release: 8, Encoding: "UTF-8",
			TestDeps:     []Dep{easymock, lang3},
			TestIncludes: []string{"**/*Test.java"},
			TestExcludes: []string{"**/*$*", "**/TestUtils.java", "**/Abstract*.java", "**/BulkTest.java"},
		},
	},
	{
		Name: "math3", Package: "libcommons-math3-java", Kind: "numbers",
		Packages: []string{"org.apache.commons.math3"}, JUnit: 4,
		Build: BuildFacts{
			Upstream: "3.6.1", Release: 8, Encoding: "UTF-8",
			TestIncludes: []string{"**/*Test.java", "**/*TestBinary.java", "**/*TestPermutations.java"},
			TestExcludes: []string{"**/*AbstractTest.java"},
		},
	},
	{
		Name: "jodatime", Package: "libjoda-time-java", Kind: "dates",
		Packages: []string{"org.joda.time"}, JUnit: 4, // JUnit 3 TestCases, run by JUnit 4
		Build: BuildFacts{
			Upstream: "2.10.14", Release: 8, Encoding: "UTF-8",
			Deps: []Dep{{Group: "org.joda", Artifact: "joda-convert", Version: "2.2.2"}},
			// Upstream runs one suite of suites (TestAllPackages); the layout runs the classes.
			TestIncludes:  []string{"**/Test*.java"},
			TestExcludes:  []string{"**/TestAll*.java"},
			JavaResources: []string{"**/*.properties"},
			TimeZoneData:  true,
		},
	},
	{
		Name: "csv", Package: "libcommons-csv-java", Kind: "parsing",
		Packages: []string{"org.apache.commons.csv"}, JUnit: 5,
		Build: BuildFacts{
			Upstream: "1.9.0", Release: 8, Encoding: "UTF-8",
			TestDeps: []Dep{hamcrest,
				{Group: "org.mockito", Artifact: "mockito-core", Version: "2.23.0"},
				{Group: "commons-io", Artifact: "commons-io", Version: "2.11.0"},
				lang3},
			TestIncludes: []string{"**/Test*.java", "**/*Test.java", "**/*Tests.java", "**/*TestCase.java"},
			TestExcludes: []string{"**/perf/PerformanceTest.java"},
			LeaveOutImports: map[string]string{
				"org.h2":                   "needs the H2 database" + notInDebian,
				"org.openjdk.jmh":          "needs JMH" + notInDebian,
				"com.opencsv":              "needs opencsv" + notInDebian,
				"org.supercsv":             "needs Super CSV" + notInDebian,
				"com.generationjava":       "needs generationjava's CsvReader" + notInDebian,
				"org.skife.csv":            "needs skife's CSV" + notInDebian,
				"org.apache.commons.lang.": "needs Commons Lang 2 (a benchmark's comparison)",
			},
		},
	},
	{
		Name: "jsoup", Package: "libjsoup-java", Kind: "parsing",
		Packages: []string{"org.jsoup"}, JUnit: 5,
		Build: BuildFacts{
			Upstream: "1.15.3", Release: 8, Encoding: "UTF-8",
			Deps: []Dep{withScope(jsr305, "provided")},
			TestDeps: []Dep{
				{Group: "com.google.code.gson", Artifact: "gson", Version: "2.10"},
				// The connection tests run Jetty in the test JVM on a loopback port of their
				// own (port 0): they need no network beyond the sandbox's own loopback.
				{Group: "org.eclipse.jetty", Artifact: "jetty-server", Version: "9.x"},
				{Group: "org.eclipse.jetty", Artifact: "jetty-servlet", Version: "9.x"},
			},
			TestIncludes: []string{"**/Test*.java", "**/*Test.java", "**/*Tests.java", "**/*TestCase.java"},
			// Upstream's: "smaller stack to find stack overflows".
			TestJVMArgs: []string{"-Xss256k"},
		},
	},
	{
		Name: "codec", Package: "libcommons-codec-java", Kind: "encoding",
		Packages: []string{"org.apache.commons.codec"}, JUnit: 4,
		Build: BuildFacts{
			Upstream: "1.15", Release: 8, Encoding: "UTF-8",
			TestDeps:     []Dep{lang3},
			TestIncludes: []string{"**/Test*.java", "**/*Test.java", "**/*Tests.java", "**/*TestCase.java"},
			TestExcludes: []string{"**/*AbstractTest.java", "**/*PerformanceTest.java"},
		},
	},
	{
		// Its orig tarball is missing from the registry this project reaches (404): kept so
		// that an unfetchable library is reported and skipped. Facts unchecked beyond its pom.
		Name: "text", Package: "libcommons-text-java", Kind: "text",
		Packages: []string{"org.apache.commons.text"}, JUnit: 5,
		Build: BuildFacts{
			Upstream: "1.10.0", Release: 8, Encoding: "UTF-8",
			Deps:         []Dep{lang3},
			TestDeps:     []Dep{hamcrest},
			TestIncludes: []string{"**/*Test.java"},
			LeaveOutImports: map[string]string{
				"org.junitpioneer":       "needs junit-pioneer" + notInDebian,
				"org.openjdk.jmh":        "needs JMH" + notInDebian,
				"org.assertj":            "needs AssertJ" + notInDebian,
				"org.apache.commons.rng": "needs Commons RNG" + notInDebian,
			},
		},
	},
}

func withScope(d Dep, scope string) Dep {
	d.Scope = scope
	return d
}

// LibraryByName is the workbench's library of that short name.
func LibraryByName(name string) (Library, bool) {
	for _, l := range Libraries {
		if l.Name == name {
			return l, true
		}
	}
	return Library{}, false
}
