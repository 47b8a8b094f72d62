package server

// maxNesting bounds how deeply one message's JSON may nest (the top-level object counts
// as 1). The decoders behind jsonrpc2 and protocol recurse once per level, and a Go stack
// overflow cannot be recovered: a 4 MB body of two million `[` ends the process. Real LSP
// messages from a client nest a dozen levels at most; 512 leaves room for any of them.
const maxNesting = 512

// bodyShape is what an iterative scan of a body learns without decoding it: how deeply
// it nests, and whether it is a request whose id can be answered.
type bodyShape struct {
	// depth is the deepest nesting seen; a truncated body counts what was seen.
	depth int
	// id is the raw JSON of the top-level "id" member when it is a string or a number
	// that the scanned bytes hold completely; else nil.
	id []byte
	// method is set when the top-level object has a "method" member (a request or a
	// notification, never a response).
	method bool
}

// scanBody scans body (a whole message or the first part of one) with no recursion, as
// encoding/json.Valid does: it tracks strings and nesting only, so any byte sequence is
// scanned in one pass.
func scanBody(body []byte) bodyShape {
	var (
		shape     bodyShape
		depth     int
		topObject bool   // the outermost value is an object
		expectKey bool   // at depth 1, the next string is a member name
		key       []byte // the last member name read at depth 1
	)
	for i := 0; i < len(body); i++ {
		switch c := body[i]; c {
		case '"':
			end := stringEnd(body, i)
			if depth == 1 && topObject && expectKey && end > i {
				key = body[i+1 : end]
				expectKey = false
			}
			if end < 0 {
				return shape // the string runs past the scanned bytes
			}
			i = end
		case '{', '[':
			if depth == 0 {
				topObject = c == '{'
				expectKey = topObject
			}
			depth++
			shape.depth = max(shape.depth, depth)
		case '}', ']':
			depth--
		case ',':
			if depth == 1 && topObject {
				expectKey = true
				key = nil
			}
		case ':':
			if depth == 1 && topObject {
				switch string(key) {
				case "id":
					shape.id = scalarAt(body, i+1)
				case "method":
					shape.method = true
				}
			}
		}
	}
	return shape
}

// stringEnd returns the index of the quote that closes the string opening at body[start],
// or -1 when the bytes end first.
func stringEnd(body []byte, start int) int {
	for j := start + 1; j < len(body); j++ {
		switch body[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return -1
}

// scalarAt returns the string or number that starts at body[from] (after blanks), or nil
// for any other value or one the bytes do not hold completely.
func scalarAt(body []byte, from int) []byte {
	i := from
	for i < len(body) && (body[i] == ' ' || body[i] == '\t' || body[i] == '\r' || body[i] == '\n') {
		i++
	}
	if i >= len(body) {
		return nil
	}
	if body[i] == '"' {
		if end := stringEnd(body, i); end > 0 {
			return body[i : end+1]
		}
		return nil
	}
	j := i
	for j < len(body) && (body[j] >= '0' && body[j] <= '9' || body[j] == '-' || body[j] == '+' || body[j] == '.' || body[j] == 'e' || body[j] == 'E') {
		j++
	}
	if j == i || j == len(body) {
		return nil // not a number, or one that may go on past the scanned bytes
	}
	return body[i:j]
}
