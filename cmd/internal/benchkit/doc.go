// Package benchkit holds what the project's benchmark commands (cmd/fault-bench,
// cmd/real-bench) share: running the real `advertest` CLI with a time limit, compiling and
// running generated tests outside the tool with javac and the JUnit console launcher (so a
// detection does not depend on AdverTest's own test runner), and the small figures helpers
// (median, load average). It is a developer tool's library, not part of the product.
package benchkit
