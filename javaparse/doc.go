// Package javaparse owns everything the project knows about Java source text:
// parsing with tree-sitter's Java grammar, incremental re-parsing after edits,
// the line map between byte offsets and LSP positions (UTF-16 columns, lines
// broken on \n, \r\n and \r), the methods and constructors of a file with their
// javac binary class names, the method at an offset, lookups by name, the class
// context of a method (package, imports, fields, constructors, signatures), and
// syntax errors.
//
// It speaks in its own types: no LSP types, no build or JVM details. Line
// numbers are 1-based and byte offsets 0-based unless a comment says otherwise.
//
// A File is safe for concurrent use. Each version of the text is an immutable
// snapshot; ApplyEdits publishes a new one. Tree-sitter trees are not
// goroutine-safe even for reads (go-tree-sitter caches nodes in a Go map), so
// raw tree access goes through WithTree, which holds the snapshot's lock.
//
// A keystroke must stay cheap on big files: an edited version's index replays
// what the previous one found in the members tree-sitter reused unchanged
// (incremental.go), its line map is moved rather than rebuilt, and MethodAt and
// MethodAtLine answer from the tree before any index is built (lazy.go). Each
// answer is the one a full index of the same tree gives.
package javaparse
