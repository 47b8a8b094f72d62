package indent

import "strings"

// Java lays out one member of a class (a method, a field, a nested class) at prefix, one unit
// per nesting level, whatever indentation it came with: each line's level is its depth in the
// member's braces (a line that starts with `}` closes its level first), a statement continued
// on the next line, or an argument list across lines, sits two units deeper, and the statements
// after a `case …:` label one unit deeper than the label. Comments are indented like the code
// around them (a block comment's inner lines one space past its opening `/*`); the lines of a
// text block keep their own text, moved as far as its first line moved. Blank lines inside stay
// (empty), those at the edges go; every line ends with a newline.
func Java(text, prefix, unit string) string {
	lines := strings.Split(strings.Trim(text, "\n"), "\n")
	var (
		b          strings.Builder
		sc         javaScanner
		contexts   []braceContext // open braces, innermost last
		continued  bool           // the previous code line left a statement open
		shift      int            // how far a text block's or comment's first line moved (bytes; may be negative)
		openIndent string         // the new indentation of the line that opened a block comment
	)
	for i, line := range lines {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" {
			if i > 0 && i < len(lines)-1 {
				b.WriteString("\n")
			}
			sc.scanLine(line + "\n")
			continue
		}
		switch {
		case sc.inTextBlock:
			// Keep the text block's own layout, moved with its first line.
			own := leading(line)
			n := max(0, len(own)+shift)
			b.WriteString(strings.Repeat(" ", n) + strings.TrimLeft(strings.TrimRight(line, " \t"), " \t") + "\n")
		case sc.inComment:
			if strings.HasPrefix(trimmed, "*") {
				b.WriteString(openIndent + " " + trimmed + "\n")
			} else {
				own := leading(line)
				b.WriteString(strings.Repeat(" ", max(0, len(own)+shift)) + trimmed + "\n")
			}
		default:
			level := 0
			for _, c := range contexts {
				level += c.depth()
			}
			if n := len(contexts); n > 0 {
				switch inner := contexts[n-1]; {
				case strings.HasPrefix(trimmed, "}"):
					level -= inner.depth()
				case inner.isSwitch && inner.inCase && isCaseLabel(trimmed):
					level--
				}
			}
			extra := ""
			if continued || sc.parens > 0 {
				extra = unit + unit
			}
			ind := prefix + strings.Repeat(unit, level) + extra
			shift = len(ind) - len(leading(line))
			openIndent = ind
			b.WriteString(ind + strings.TrimRight(trimmed, " \t") + "\n")
			if isCaseLabel(trimmed) {
				if n := len(contexts); n > 0 && contexts[n-1].isSwitch {
					// `case 1 -> …` and `case 1: {` bring their own level.
					contexts[n-1].inCase = !strings.Contains(trimmed, "->") && !strings.HasSuffix(strings.TrimSpace(sc.lastCodeOf(line)), "{")
				}
			}
		}
		wasCode := !sc.inComment && !sc.inTextBlock
		opened, closed := sc.scanLine(line + "\n")
		for range closed {
			if len(contexts) > 0 {
				contexts = contexts[:len(contexts)-1]
			}
		}
		for _, o := range opened {
			contexts = append(contexts, braceContext{isSwitch: o})
		}
		if wasCode && !sc.inComment && !sc.inTextBlock {
			continued = leavesStatementOpen(sc.lastCode)
		}
	}
	return b.String()
}

// braceContext is one open brace of a member.
type braceContext struct {
	isSwitch bool // the body of a switch
	inCase   bool // after a `case …:` label (the statements under it are one level deeper)
}

// depth is how many levels the brace adds to the lines inside it.
func (c braceContext) depth() int {
	if c.isSwitch && c.inCase {
		return 2
	}
	return 1
}

func leading(l string) string { return l[:len(l)-len(strings.TrimLeft(l, " \t"))] }

func isCaseLabel(trimmed string) bool {
	return strings.HasPrefix(trimmed, "case ") || strings.HasPrefix(trimmed, "default:") || strings.HasPrefix(trimmed, "default ->") ||
		trimmed == "default" || strings.HasPrefix(trimmed, "default->")
}

// leavesStatementOpen reports whether a code line (its code alone, comments and literals
// blanked) leaves its statement open: it does not end with ; { } or a label's colon, and it is
// not an annotation.
func leavesStatementOpen(code string) bool {
	c := strings.TrimSpace(code)
	if c == "" || annotationsOnly(c) {
		return false
	}
	switch c[len(c)-1] {
	case ';', '{', '}', ':', ',':
		return false
	}
	return true
}

// annotationsOnly reports whether a code line holds annotations and nothing else
// (`@Test(expected = IllegalStateException.class)`, `@Override @Deprecated`): the declaration
// they annotate, on the next line, starts no continuation. An annotation's arguments may hold
// '=', which on any other line would leave a statement open.
func annotationsOnly(c string) bool {
	for c != "" {
		if c[0] != '@' {
			return false
		}
		i := 1
		for i < len(c) && (isIdent(c[i]) || c[i] == '.') {
			i++
		}
		if i == 1 {
			return false
		}
		rest := strings.TrimLeft(c[i:], " \t")
		if strings.HasPrefix(rest, "(") {
			depth, j := 0, 0
			for j = 0; j < len(rest); j++ {
				if rest[j] == '(' {
					depth++
				} else if rest[j] == ')' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			if depth != 0 {
				return true // arguments across lines: the open parenthesis indents them
			}
			rest = rest[j+1:]
		}
		c = strings.TrimLeft(rest, " \t")
	}
	return true
}

// javaScanner follows Java text line by line, telling code from comments and literals.
type javaScanner struct {
	inComment   bool // inside /* … */
	inTextBlock bool // inside """ … """
	parens      int  // open ( and [ at the end of the last line
	// lastCode is the last scanned line's code with comments dropped and literals blanked.
	lastCode string
	// pending is the code since the last brace or semicolon, to tell a switch's brace.
	pending strings.Builder
}

// scanLine scans one line (with its newline); opened lists, for each { it opened, whether it
// is a switch's; closed counts the } it closed.
func (s *javaScanner) scanLine(line string) (opened []bool, closed int) {
	var code strings.Builder
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case s.inComment:
			if c == '*' && i+1 < len(line) && line[i+1] == '/' {
				s.inComment = false
				i++
			}
		case s.inTextBlock:
			if c == '\\' {
				i++
			} else if strings.HasPrefix(line[i:], `"""`) {
				s.inTextBlock = false
				i += 2
				code.WriteString(`""`)
			}
		case c == '/' && i+1 < len(line) && line[i+1] == '/':
			i = len(line)
		case c == '/' && i+1 < len(line) && line[i+1] == '*':
			s.inComment = true
			i++
		case strings.HasPrefix(line[i:], `"""`):
			s.inTextBlock = true
			i += 2
			code.WriteString(`""`)
		case c == '"' || c == '\'':
			q := c
			for i++; i < len(line) && line[i] != q && line[i] != '\n'; i++ {
				if line[i] == '\\' {
					i++
				}
			}
			code.WriteByte(q)
			code.WriteByte(q)
		default:
			code.WriteByte(c)
			s.pending.WriteByte(c)
			switch c {
			case '(', '[':
				s.parens++
			case ')', ']':
				s.parens = max(0, s.parens-1)
			case '{':
				opened = append(opened, isSwitchHead(s.pending.String()))
				s.pending.Reset()
			case '}':
				if len(opened) > 0 {
					opened = opened[:len(opened)-1]
				} else {
					closed++
				}
				s.pending.Reset()
			case ';':
				s.pending.Reset()
			}
		}
	}
	if !s.inComment && !s.inTextBlock {
		s.lastCode = code.String()
	} else if t := strings.TrimSpace(code.String()); t != "" {
		s.lastCode = t
	}
	return opened, closed
}

// lastCodeOf is line's code (comments dropped, literals blanked) without changing the
// scanner's state.
func (s *javaScanner) lastCodeOf(line string) string {
	probe := javaScanner{inComment: s.inComment, inTextBlock: s.inTextBlock}
	probe.scanLine(line + "\n")
	return probe.lastCode
}

// isSwitchHead reports whether the code before a { is a switch's head.
func isSwitchHead(code string) bool {
	t := strings.TrimSpace(code)
	i := strings.LastIndex(t, "switch")
	if i < 0 || (i > 0 && isIdent(t[i-1])) || (i+6 < len(t) && isIdent(t[i+6])) {
		return false
	}
	return true
}

func isIdent(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
