package server

import (
	"bufio"
	"bytes"
	"context"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/segmentio/encoding/json"
	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"
)

// maxBodyBytes bounds one message body. The largest real message is a didOpen or
// didChange of a whole file, and no Java source comes near 64 MiB; a larger
// Content-Length is a corrupted header or an attack, and honouring it would make the
// server allocate (or wait for) that much. Such a frame is answered with an error when
// its request id is in the first bytes of its body, and its body is skipped as it
// streams past, never buffered whole, until the next Content-Length header.
const maxBodyBytes = 64 << 20

// contentLengthHeader is the one header LSP framing requires.
const contentLengthHeader = "content-length"

// Stream is a jsonrpc2.Stream with LSP base-protocol framing that survives bad
// input. The stock jsonrpc2.NewStream returns an error for any undecodable body,
// and jsonrpc2.Conn closes the connection on any read error; this one answers
// or skips the bad message instead and resynchronises on the next
// Content-Length header. Only a failure of the underlying reader ends Read.
//
// Read is called by one goroutine (the Conn's read loop); Write may be called
// concurrently with Read, and Read itself writes error replies, so every write
// to the underlying connection is serialised by writeMu.
type Stream struct {
	rwc    io.ReadWriteCloser
	logger *zap.Logger

	// in is replaced (wrapped) when a body turns out to hold the start of the
	// next frame, so that those bytes are read again as a header. Only Read
	// touches it.
	in *bufio.Reader

	writeMu sync.Mutex
}

var _ jsonrpc2.Stream = (*Stream)(nil)

// NewStream returns a framing stream over rwc. A nil logger logs nothing.
func NewStream(rwc io.ReadWriteCloser, logger *zap.Logger) *Stream {
	if logger == nil {
		logger = zap.NewNop()
	}
	return &Stream{rwc: rwc, logger: logger, in: bufio.NewReaderSize(rwc, 64<<10)}
}

// Read returns the next well-formed message. Malformed frames and bodies are
// logged, answered with a ParseError or InvalidRequest when their request id
// can be recovered, and skipped.
func (s *Stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	var total int64
	for {
		if err := ctx.Err(); err != nil {
			return nil, total, err
		}
		msg, n, err := s.readMessage()
		total += n
		if err != nil || msg != nil {
			return msg, total, err
		}
	}
}

// readMessage reads one frame: a message, or nil for a frame that was
// answered or skipped. A panic here would end the process (the Conn's read
// loop has no recover), so one is logged and the frame skipped.
func (s *Stream) readMessage() (msg jsonrpc2.Message, n int64, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.logger.Error("skipping a frame after a panic in the framing code", zap.String("panic", fmt.Sprint(p)))
			msg, err = nil, nil
		}
	}()
	body, n, err := s.readFrame()
	if err != nil {
		return nil, n, err
	}
	// A body whose declared length was too long holds the start of the next
	// frame after its JSON value: give those bytes back so that they are
	// read again as a header.
	if end := bytes.TrimRight(body, " \t\r\n"); len(end) > 0 && end[len(end)-1] != '}' {
		if i := indexContentLength(body); i > 0 {
			s.unread(body[i:])
			n -= int64(len(body) - i)
			body = body[:i]
		}
	}
	// The decoders recurse once per nesting level: a deep enough body would overflow the
	// stack, which no recover catches. Measure it first, without recursion.
	if shape := scanBody(body); shape.depth > maxNesting {
		s.refuse(shape, jsonrpc2.InvalidRequest, fmt.Sprintf("message nests JSON %d levels deep; the limit is %d", shape.depth, maxNesting),
			zap.Int("bytes", len(body)), zap.ByteString("start", body[:min(len(body), 120)]))
		return nil, n, nil
	}
	msg, err = jsonrpc2.DecodeMessage(body)
	if err != nil {
		s.rejectBody(body, err)
		return nil, n, nil
	}
	return msg, n, nil
}

// refuse answers a request that is not handled with an error, when shape says it is a
// request with an answerable id, and logs it either way.
func (s *Stream) refuse(shape bodyShape, code jsonrpc2.Code, message string, fields ...zap.Field) {
	fields = append(fields, zap.String("problem", message))
	id := answerableID(shape.id)
	if !shape.method || id == nil || !stdjson.Valid(id) {
		s.logger.Warn("skipping a message that cannot be handled, without a request id to answer", fields...)
		return
	}
	s.logger.Warn("answering a message that cannot be handled", append(fields, zap.ByteString("id", id))...)
	s.replyError(id, code, message)
}

// readFrame scans for a header block with a valid Content-Length and returns
// the body that follows it. Lines that are not part of a header block are
// skipped.
func (s *Stream) readFrame() ([]byte, int64, error) {
	var total int64
	length := -1 // -1: no valid Content-Length seen in the current header block
	skipped := 0
	// oversized is the Content-Length of the current header block when it is over
	// maxBodyBytes; next is a line already read that the loop is to scan next.
	var oversized, next []byte
	for {
		line := next
		next = nil
		if line == nil {
			var err error
			line, err = s.readLine()
			total += int64(len(line))
			if err != nil {
				if skipped > 0 {
					s.logger.Warn("skipped bytes that are not an LSP frame", zap.Int("lines", skipped))
				}
				return nil, total, err
			}
		}
		text := strings.TrimRight(string(line), "\r\n")
		if text == "" {
			if length > 0 {
				break
			}
			if oversized != nil {
				// The body starts here. Answer from its first bytes, then let the scan
				// skip it like any garbage, up to the next header.
				next, total = s.refuseOversized(oversized, total)
				oversized = nil
			}
			continue // blank line outside a header block
		}
		// The rest of a body whose Content-Length was too short runs into
		// the next frame's header on the same line.
		if i := indexFoldASCII([]byte(text), contentLengthHeader+":"); i > 0 {
			skipped++
			length = -1
			text = text[i:]
		}
		name, value, ok := strings.Cut(text, ":")
		if !ok {
			skipped++
			length = -1
			continue
		}
		if strings.EqualFold(strings.TrimSpace(name), contentLengthHeader) {
			value = strings.TrimSpace(value)
			n, err := strconv.Atoi(value)
			if (err == nil && n > maxBodyBytes) || errors.Is(err, strconv.ErrRange) && value[0] != '-' {
				oversized = []byte(value)
				length = -1
				continue
			}
			if err != nil || n <= 0 {
				s.logger.Warn("skipping frame with invalid Content-Length", zap.String("value", value))
				length = -1
				continue
			}
			length = n
		}
		// Other headers (Content-Type) are ignored.
	}
	if skipped > 0 {
		s.logger.Warn("skipped bytes that are not an LSP frame", zap.Int("lines", skipped))
	}
	// The body grows as its bytes arrive: a Content-Length that lies costs only what
	// really comes.
	var body bytes.Buffer
	body.Grow(min(length, 1<<20))
	n, err := io.CopyN(&body, s.in, int64(length))
	total += n
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, total, fmt.Errorf("reading %d-byte message body: %w", length, err)
	}
	return body.Bytes(), total, nil
}

// refuseOversized answers a frame whose Content-Length is over maxBodyBytes, when the
// first piece of its body (read here, at most the reader's buffer) shows a request id, and
// returns that piece for the header scan to skip.
func (s *Stream) refuseOversized(length []byte, total int64) ([]byte, int64) {
	first, err := s.readLine()
	total += int64(len(first))
	message := fmt.Sprintf("message body of %s bytes is over the limit of %d MiB: skipped", length, maxBodyBytes>>20)
	s.refuse(scanBody(first), jsonrpc2.InvalidRequest, message)
	if err != nil && len(first) == 0 {
		return nil, total // the read error comes again on the next read
	}
	return first, total
}

// readLine reads one line; an overlong line is returned in pieces, which the
// header scan then skips as garbage.
func (s *Stream) readLine() ([]byte, error) {
	line, err := s.in.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		err = nil
	}
	return bytes.Clone(line), err
}

func (s *Stream) unread(b []byte) {
	s.in = bufio.NewReaderSize(io.MultiReader(bytes.NewReader(bytes.Clone(b)), s.in), 64<<10)
}

// indexContentLength finds a Content-Length header that starts a line inside
// body (or follows the end of a JSON value), or -1.
func indexContentLength(body []byte) int {
	for from := 0; from < len(body); {
		i := indexFoldASCII(body[from:], contentLengthHeader+":")
		if i < 0 {
			return -1
		}
		i += from
		if i > 0 && (body[i-1] == '\n' || body[i-1] == '\r' || body[i-1] == '}') {
			return i
		}
		from = i + 1
	}
	return -1
}

// indexFoldASCII is bytes.Index ignoring ASCII case; lower must be lower
// case. Unlike strings.ToLower it keeps byte offsets (invalid UTF-8 stays
// as it is).
func indexFoldASCII(s []byte, lower string) int {
	for i := 0; i+len(lower) <= len(s); i++ {
		j := 0
		for ; j < len(lower); j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != lower[j] {
				break
			}
		}
		if j == len(lower) {
			return i
		}
	}
	return -1
}

// idPattern recovers a request id from a body that is not valid JSON.
var idPattern = regexp.MustCompile(`"id"\s*:\s*(-?[0-9][0-9.eE+-]*|"(?:[^"\\]|\\.)*")`)

// rejectBody answers (or, without a recoverable request id, only logs) a body
// that jsonrpc2 could not decode.
func (s *Stream) rejectBody(body []byte, decodeErr error) {
	code, message, id := diagnoseBody(body)
	fields := []zap.Field{
		zap.Int("bytes", len(body)),
		zap.String("problem", message),
		zap.NamedError("decodeError", decodeErr),
		zap.ByteString("start", body[:min(len(body), 120)]),
	}
	if id == nil {
		s.logger.Warn("skipping malformed message without a request id", fields...)
		return
	}
	s.logger.Warn("answering malformed message", append(fields, zap.ByteString("id", id))...)
	s.replyError(id, code, message)
}

// replyError writes an error response for the request id (raw JSON).
func (s *Stream) replyError(id stdjson.RawMessage, code jsonrpc2.Code, message string) {
	reply := struct {
		JSONRPC string             `json:"jsonrpc"`
		ID      stdjson.RawMessage `json:"id"`
		Error   *jsonrpc2.Error    `json:"error"`
	}{"2.0", id, jsonrpc2.NewError(code, message)}
	data, err := stdjson.Marshal(reply)
	if err != nil {
		s.logger.Error("marshaling error reply", zap.Error(err))
		return
	}
	if _, err := s.writeFrame(data); err != nil {
		s.logger.Warn("writing error reply", zap.Error(err))
	}
}

// diagnoseBody says what is wrong with a body and returns the request id to
// answer, or nil when there is none (a response, a notification, no id).
func diagnoseBody(body []byte) (jsonrpc2.Code, string, stdjson.RawMessage) {
	if !stdjson.Valid(body) {
		var id stdjson.RawMessage
		if bytes.Contains(body, []byte(`"method"`)) {
			if m := idPattern.FindSubmatch(body); m != nil && stdjson.Valid(m[1]) {
				id = stdjson.RawMessage(m[1])
			}
		}
		return jsonrpc2.ParseError, "message body is not valid JSON", id
	}
	var probe struct {
		JSONRPC *stdjson.RawMessage `json:"jsonrpc"`
		ID      stdjson.RawMessage  `json:"id"`
		Method  stdjson.RawMessage  `json:"method"`
		Result  stdjson.RawMessage  `json:"result"`
		Error   stdjson.RawMessage  `json:"error"`
	}
	if err := stdjson.Unmarshal(body, &probe); err != nil {
		return jsonrpc2.InvalidRequest, "message is not a JSON object (batches are not supported)", nil
	}
	id := answerableID(probe.ID)
	if probe.Method == nil {
		// A response (or nonsense): never answered.
		return jsonrpc2.InvalidRequest, "message has neither a method nor a valid response id", nil
	}
	var method string
	if err := stdjson.Unmarshal(probe.Method, &method); err != nil {
		return jsonrpc2.InvalidRequest, fmt.Sprintf(`"method" must be a string, got %s`, probe.Method), id
	}
	if probe.JSONRPC != nil {
		var v string
		if err := stdjson.Unmarshal(*probe.JSONRPC, &v); err != nil || v != jsonrpc2.Version {
			return jsonrpc2.InvalidRequest, fmt.Sprintf(`unsupported "jsonrpc" version %s: want "2.0"`, *probe.JSONRPC), id
		}
	}
	if probe.ID != nil && !isInt32(probe.ID) && !isString(probe.ID) {
		return jsonrpc2.InvalidRequest, fmt.Sprintf("request id %s is neither a string nor a 32-bit integer", probe.ID), id
	}
	return jsonrpc2.InvalidRequest, "message is not a valid JSON-RPC 2.0 request", id
}

// answerableID returns raw when it is an id a reply can carry (a number or a
// string), else nil.
func answerableID(raw stdjson.RawMessage) stdjson.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	if isString(raw) {
		return raw
	}
	var n stdjson.Number
	if err := stdjson.Unmarshal(raw, &n); err == nil {
		return raw
	}
	return nil
}

func isString(raw stdjson.RawMessage) bool {
	var s string
	return stdjson.Unmarshal(raw, &s) == nil && len(bytes.TrimSpace(raw)) > 0 && bytes.TrimSpace(raw)[0] == '"'
}

func isInt32(raw stdjson.RawMessage) bool {
	var f float64
	if err := stdjson.Unmarshal(raw, &f); err != nil {
		return false
	}
	return f == math.Trunc(f) && f >= math.MinInt32 && f <= math.MaxInt32
}

// Write implements jsonrpc2.Stream.
func (s *Stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	data, err := json.Marshal(msg)
	if err != nil {
		return 0, fmt.Errorf("marshaling %T: %w", msg, err)
	}
	return s.writeFrame(data)
}

func (s *Stream) writeFrame(body []byte) (int64, error) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	var frame bytes.Buffer
	frame.Grow(len(body) + 32)
	fmt.Fprintf(&frame, "Content-Length: %d\r\n\r\n", len(body))
	frame.Write(body)
	n, err := s.rwc.Write(frame.Bytes())
	if err != nil {
		return int64(n), fmt.Errorf("writing %d-byte frame: %w", frame.Len(), err)
	}
	return int64(n), nil
}

// Close implements jsonrpc2.Stream.
func (s *Stream) Close() error {
	return s.rwc.Close()
}
