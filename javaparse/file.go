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

	linesOnce sync.Once
	lines     *LineMap

	// index is built on first use, under treeMu, and then read without it.
	index atomic.Pointer[index]

	// treeMu guards tree: go-tree-sitter caches nodes in a Go map that even
	// reads write to.
	treeMu sync.Mutex
	tree   *sitter.Tree
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
	f.cur.Store(&snapshot{src: src, tree: tree})
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
	s.linesOnce.Do(func() { s.lines = NewLineMap(s.src) })
	return s.lines
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
	if ix := s.index.Load(); ix != nil {
		ns.index.Store(ix)
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
	if ix := s.index.Load(); ix != nil {
		return ix
	}
	ix := buildIndex(s.tree.RootNode(), s.src, s.lineMap())
	s.index.Store(ix)
	return ix
}
