package javaparse

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/java"
)

// File is one Java compilation unit and its syntax tree. It is safe for
// concurrent use: every version of the text is an immutable snapshot, and
// ApplyEdits publishes the next one.
type File struct {
	// editMu serialises ApplyEdits and guards parser (a tree-sitter parser
	// is not goroutine-safe).
	editMu sync.Mutex
	parser *sitter.Parser

	// cur is the current snapshot; read without editMu.
	cur atomic.Pointer[snapshot]
}

// snapshot is one version of the text with its tree. src and the index are
// never modified after they are published.
type snapshot struct {
	src []byte

	// lines is built on first use, or from the previous version's when
	// that one was built.
	lines atomic.Pointer[LineMap]

	// index is built on first use, under treeMu, and then read without it.
	index atomic.Pointer[index]
	// base is the index of the version this one was edited from (or the
	// base of that version, if it was never indexed): building index
	// reuses what it found in the members the edits left alone. Dropped
	// once index is built.
	base atomic.Pointer[index]

	// treeMu guards tree: go-tree-sitter caches nodes in a Go map that even
	// reads write to; and lazy, the Methods MethodAt and MethodAtLine built
	// before the index, by StartByte (lazy.go).
	treeMu sync.Mutex
	tree   *sitter.Tree
	lazy   map[int]*Method
}

// Edit replaces the bytes [StartByte, OldEndByte) of the text with NewText.
type Edit struct {
	StartByte, OldEndByte int
	NewText               []byte
}

func newParser() *sitter.Parser {
	p := sitter.NewParser()
	p.SetLanguage(java.GetLanguage())
	return p
}

// Parse parses src (it is copied) into a File.
func Parse(src []byte) (*File, error) {
	f := &File{parser: newParser()}
	text := bytes.Clone(src)
	if text == nil {
		text = []byte{}
	}
	tree, err := f.parser.ParseCtx(context.Background(), nil, text)
	if err != nil {
		return nil, fmt.Errorf("javaparse: parsing %d bytes: %w", len(text), err)
	}
	if tree == nil {
		return nil, errors.New("javaparse: tree-sitter returned no tree")
	}
	f.cur.Store(&snapshot{src: text, tree: tree})
	return f, nil
}

// ApplyEdits applies edits in order, each against the text the previous one
// produced (as LSP content changes are), and re-parses incrementally after
// every edit. If an edit is out of range the File is left unchanged and an
// error says which one.
func (f *File) ApplyEdits(edits ...Edit) error {
	if len(edits) == 0 {
		return nil
	}
	f.editMu.Lock()
	defer f.editMu.Unlock()
	old := f.cur.Load()
	src := old.src
	// The published snapshot's tree is never edited: work on a copy
	// (tree-sitter copies are cheap and share subtrees copy-on-write).
	tree := old.tree.Copy()
	lines := old.lines.Load()
	for i, e := range edits {
		if e.StartByte < 0 || e.StartByte > e.OldEndByte || e.OldEndByte > len(src) {
			return fmt.Errorf("javaparse: edit %d of %d: range [%d,%d) outside a text of %d bytes",
				i+1, len(edits), e.StartByte, e.OldEndByte, len(src))
		}
		next := make([]byte, 0, len(src)-(e.OldEndByte-e.StartByte)+len(e.NewText))
		next = append(next, src[:e.StartByte]...)
		next = append(next, e.NewText...)
		next = append(next, src[e.OldEndByte:]...)
		newEnd := e.StartByte + len(e.NewText)
		if lines != nil {
			lines = lines.edited(next, e.StartByte, e.OldEndByte, newEnd)
		}
		// go-tree-sitter passes OldEndPoint where tree-sitter expects
		// NewEndPoint, so rows of the edited tree are off until the re-parse
		// right below; everything in this package looks nodes up by byte
		// offset and computes lines with its own LineMap.
		tree.Edit(sitter.EditInput{
			StartIndex:  uint32(e.StartByte),
			OldEndIndex: uint32(e.OldEndByte),
			NewEndIndex: uint32(newEnd),
			StartPoint:  pointAt(src, e.StartByte),
			OldEndPoint: pointAt(src, e.OldEndByte),
			NewEndPoint: pointAt(next, newEnd),
		})
		parsed, err := f.parser.ParseCtx(context.Background(), tree, next)
		// ParseCtx keeps only the C pointer of the old tree: without this,
		// the Go Tree can be collected during the parse and its finalizer
		// frees the C tree under the parser (SIGSEGV, seen in the benchmark).
		runtime.KeepAlive(tree)
		if err != nil {
			return fmt.Errorf("javaparse: re-parsing after edit %d of %d: %w", i+1, len(edits), err)
		}
		if parsed == nil {
			return errors.New("javaparse: tree-sitter returned no tree")
		}
		tree, src = parsed, next
	}
	ns := &snapshot{src: src, tree: tree}
	ns.lines.Store(lines)
	// base before index: getIndex stores the index before it drops the
	// base, so one of the two is seen.
	base := old.base.Load()
	if ix := old.index.Load(); ix != nil {
		base = ix
	}
	ns.base.Store(base)
	f.cur.Store(ns)
	return nil
}

// pointAt is tree-sitter's point for a byte offset: row counted on \n only,
// column in bytes.
func pointAt(src []byte, offset int) sitter.Point {
	before := src[:offset]
	row := bytes.Count(before, []byte{'\n'})
	col := offset - (bytes.LastIndexByte(before, '\n') + 1)
	return sitter.Point{Row: uint32(row), Column: uint32(col)}
}

// Source returns a copy of the current text.
func (f *File) Source() []byte { return bytes.Clone(f.cur.Load().src) }

// Lines returns the line map of the current text.
func (f *File) Lines() *LineMap { return f.cur.Load().lineMap() }

func (s *snapshot) lineMap() *LineMap {
	if l := s.lines.Load(); l != nil {
		return l
	}
	// Two callers may both build it; one map is published.
	s.lines.CompareAndSwap(nil, NewLineMap(s.src))
	return s.lines.Load()
}

// WithTree calls fn with the current tree's root and text while holding the
// tree's lock. fn must not modify src nor keep root, src or any node after it
// returns. Other File methods may be called from fn (they do not take this
// lock); the root stays that of the version fn started with even if fn
// applies edits.
func (f *File) WithTree(fn func(root *sitter.Node, src []byte)) {
	s := f.cur.Load()
	s.getIndex() // built first: fn may call Methods, which needs it
	s.treeMu.Lock()
	defer s.treeMu.Unlock()
	fn(s.tree.RootNode(), s.src)
}

// Clone returns an independent File with the current text and tree; edits to
// one do not affect the other.
func (f *File) Clone() *File {
	s := f.cur.Load()
	c := &File{parser: newParser()}
	// Tree.Copy only touches the C tree (ref counts are atomic), not the Go
	// node cache, so it needs no lock.
	ns := &snapshot{src: s.src, tree: s.tree.Copy()}
	ns.lines.Store(s.lines.Load())
	base := s.base.Load()
	if ix := s.index.Load(); ix != nil {
		ns.index.Store(ix)
	} else {
		ns.base.Store(base)
	}
	c.cur.Store(ns)
	return c
}

// getIndex returns the snapshot's methods, classes and errors, building them on
// first use.
func (s *snapshot) getIndex() *index {
	if ix := s.index.Load(); ix != nil {
		return ix
	}
	s.treeMu.Lock()
	defer s.treeMu.Unlock()
	return s.indexLocked()
}

// indexLocked is getIndex with s.treeMu held.
func (s *snapshot) indexLocked() *index {
	if ix := s.index.Load(); ix != nil {
		return ix
	}
	ix := buildIndex(s.tree, s.src, s.lineMap(), s.base.Load())
	s.adoptLazy(ix)
	s.index.Store(ix)
	s.base.Store(nil)
	return ix
}
