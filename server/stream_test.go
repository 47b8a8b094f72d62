package server_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"

	"go.lsp.dev/jsonrpc2"

	"github.com/advertest/advertest-lsp/server"
)

// bufferRWC reads from a fixed input and collects what is written.
type bufferRWC struct {
	in  io.Reader
	out bytes.Buffer
}

func (b *bufferRWC) Read(p []byte) (int, error)  { return b.in.Read(p) }
func (b *bufferRWC) Write(p []byte) (int, error) { return b.out.Write(p) }
func (b *bufferRWC) Close() error                { return nil }

const validFrame = "Content-Length: 46\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}"

// FuzzStream: whatever comes in, Read never panics, fails only at the end of
// the input, and writes back nothing but well-formed frames.
func FuzzStream(f *testing.F) {
	for _, seed := range []string{
		"", "Content-Length: 5\r\n\r\nhello", "Content-Length: -1\r\n\r\n", "Content-Length: 99999999999\r\n\r\n",
		`Content-Length: 40` + "\r\n\r\n" + `{"jsonrpc":"2.0","id":1e99,"method":"x"}`,
		"Content-Length: 30\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"x\"}Content-Length: 2\r\n\r\n{}",
		"\r\n\r\n\n\n::::\r\nContent-Type: x\r\n\r\n", "Content-Length: 3\r\n\r\n[1]",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rwc := &bufferRWC{in: io.MultiReader(bytes.NewReader(data), bytes.NewReader([]byte("\r\n\r\n"+validFrame)))}
		s := server.NewStream(rwc, nil)
		for {
			_, _, err := s.Read(context.Background())
			if err != nil {
				if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Fatalf("Read failed before the end of input: %v", err)
				}
				break
			}
		}
		if rwc.out.Len() > 0 {
			if _, err := readFrames(rwc.out.Bytes()); err != nil {
				t.Fatalf("wrote something other than frames: %v\n%q", err, rwc.out.Bytes())
			}
		}
	})
}

func TestStreamRecoversAfterGarbage(t *testing.T) {
	input := "junk line\r\nContent-Length: abc\r\n\r\nContent-Length: 9\r\n\r\nnot json!" +
		`Content-Length: 45` + "\r\n\r\n" + `{"jsonrpc":"2.0","id":"a","method":"x","p":{` + "\r\n" + validFrame
	rwc := &bufferRWC{in: bytes.NewReader([]byte(input))}
	s := server.NewStream(rwc, nil)
	msg, _, err := s.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if call, ok := msg.(*jsonrpc2.Call); !ok || call.Method() != "initialize" {
		t.Fatalf("first message read = %#v, want the initialize call", msg)
	}
	frames, err := readFrames(rwc.out.Bytes())
	if err != nil || len(frames) != 1 || !bytes.Contains(frames[0], []byte(`"id":"a"`)) || !bytes.Contains(frames[0], []byte(`-32700`)) {
		t.Fatalf("error replies = %q, %v; want one ParseError for id \"a\"", rwc.out.Bytes(), err)
	}
	if _, _, err := s.Read(context.Background()); !errors.Is(err, io.EOF) {
		t.Fatalf("Read at the end = %v, want EOF", err)
	}
}
