// Package javatext reads Java source as text, token by token where it needs to: it tells code
// from comments and string, character and text-block literals, and identifiers from the rest.
// The generated suite's renaming (package loop) and the JUnit conversion rule (loop/llm) share
// it.
package javatext
