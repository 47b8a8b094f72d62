package javaparse

import (
	"fmt"
	"slices"
	"sort"
	"unicode/utf8"
)

// LineMap converts between byte offsets and LSP positions for one text.
// Lines break on \n, \r\n and \r, as LSP and javac count them; columns are
// UTF-16 code units (a character outside the BMP counts 2). Invalid UTF-8
// bytes count one unit each, in both directions.
type LineMap struct {
	src []byte
	// starts[i] is the byte offset where line i (0-based) begins.
	starts []int
	// ends[i] is the byte offset where line i's terminator begins (or len(src)).
	ends []int
}

// NewLineMap indexes src. It keeps src (the caller must not modify it).
func NewLineMap(src []byte) *LineMap {
	m := &LineMap{src: src, starts: []int{0}}
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			m.ends = append(m.ends, i)
			m.starts = append(m.starts, i+1)
		case '\r':
			m.ends = append(m.ends, i)
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			m.starts = append(m.starts, i+1)
		}
	}
	m.ends = append(m.ends, len(src))
	return m
}

// LineCount is the number of lines; a text ending in a line break has an empty
// last line after it, as LSP counts.
func (m *LineMap) LineCount() int { return len(m.starts) }

// Offset returns the byte offset of an LSP position: line 0-based, column in
// UTF-16 units. A column past the end of the line clamps to the line's end
// (before its terminator), as LSP specifies; a column inside a surrogate pair
// maps to the start of that character. A line past the end is an error, except
// (LineCount, 0), which some clients send as the end of the document and which
// maps to len(src).
func (m *LineMap) Offset(line, utf16Col int) (int, error) {
	if line < 0 || utf16Col < 0 {
		return 0, fmt.Errorf("javaparse: negative position %d:%d", line, utf16Col)
	}
	if line >= len(m.starts) {
		if line == len(m.starts) && utf16Col == 0 {
			return len(m.src), nil
		}
		return 0, fmt.Errorf("javaparse: line %d out of range (the text has %d lines)", line, len(m.starts))
	}
	off, end := m.starts[line], m.ends[line]
	for col := 0; off < end; {
		r, size := utf8.DecodeRune(m.src[off:end])
		units := 1
		if r >= 0x10000 && size > 1 {
			units = 2
		}
		if col+units > utf16Col {
			break
		}
		col += units
		off += size
	}
	return off, nil
}

// Position returns the LSP position (line 0-based, UTF-16 column) of a byte
// offset. Offsets outside the text are clamped to it; an offset inside a
// character or inside a \r\n pair maps to the position before it.
func (m *LineMap) Position(offset int) (line, utf16Col int) {
	offset = max(0, min(offset, len(m.src)))
	line = m.lineOf(offset)
	end := min(offset, m.ends[line])
	for off := m.starts[line]; off < end; {
		r, size := utf8.DecodeRune(m.src[off:m.ends[line]])
		if off+size > end {
			break
		}
		if r >= 0x10000 && size > 1 {
			utf16Col += 2
		} else {
			utf16Col++
		}
		off += size
	}
	return line, utf16Col
}

// lineOf is the 0-based line holding offset (clamped to the text).
func (m *LineMap) lineOf(offset int) int {
	return sort.Search(len(m.starts), func(i int) bool { return m.starts[i] > offset }) - 1
}

// Line returns the 1-based line number of a byte offset (clamped to the text).
func (m *LineMap) Line(offset int) int {
	return m.lineOf(max(0, min(offset, len(m.src)))) + 1
}

// LineStart returns the byte offset where the 1-based line begins; -1 if there
// is no such line.
func (m *LineMap) LineStart(line1 int) int {
	if line1 < 1 || line1 > len(m.starts) {
		return -1
	}
	return m.starts[line1-1]
}

// LineEnd returns the byte offset where the 1-based line's terminator begins
// (len(src) for the last line); -1 if there is no such line.
func (m *LineMap) LineEnd(line1 int) int {
	if line1 < 1 || line1 > len(m.starts) {
		return -1
	}
	return m.ends[line1-1]
}

// LineText returns the 1-based line without its terminator; "" if there is no
// such line.
func (m *LineMap) LineText(line1 int) string {
	if line1 < 1 || line1 > len(m.starts) {
		return ""
	}
	return string(m.src[m.starts[line1-1]:m.ends[line1-1]])
}

// Column returns the 1-based byte column of offset within its line.
func (m *LineMap) Column(offset int) int {
	offset = max(0, min(offset, len(m.src)))
	return offset - m.starts[m.lineOf(offset)] + 1
}

// edited returns the line map of next, the text that m's text becomes when
// its bytes [start, oldEnd) are replaced by next[start:newEnd]. It rescans
// only from the line before the edit to the first line break that lies wholly
// in the unchanged tail (beyond the byte after the edit, whose \r or \n may
// pair with one before it); the breaks after that are m's, moved.
func (m *LineMap) edited(next []byte, start, oldEnd, newEnd int) *LineMap {
	delta := newEnd - oldEnd
	// The line holding the byte before the edit: its start, and every break
	// before it, depend only on unchanged bytes before start.
	line := m.lineOf(max(0, start-1))
	out := &LineMap{src: next}
	out.starts = append(make([]int, 0, len(m.starts)+8), m.starts[:line+1]...)
	out.ends = append(make([]int, 0, len(m.ends)+8), m.ends[:line]...)
	for i := m.starts[line]; i < len(next); i++ {
		if next[i] != '\n' && next[i] != '\r' {
			continue
		}
		at := i
		if next[i] == '\r' && i+1 < len(next) && next[i+1] == '\n' {
			i++
		}
		if at > newEnd {
			// next[at-1:] is m's text from at-1-delta on, and m's scan
			// found this break there too (at-1 was not a \r, or this
			// break would have begun there).
			if j, ok := slices.BinarySearch(m.ends, at-delta); ok {
				for _, e := range m.ends[j:] {
					out.ends = append(out.ends, e+delta)
				}
				for _, s := range m.starts[j+1:] {
					out.starts = append(out.starts, s+delta)
				}
				return out
			}
		}
		out.ends = append(out.ends, at)
		out.starts = append(out.starts, i+1)
	}
	out.ends = append(out.ends, len(next))
	return out
}
