package server_test

import (
	"context"
	"testing"

	"github.com/advertest/advertest-lsp/server"
)

func TestSessionGo(t *testing.T) {
	s := server.NewSession(context.Background(), nil, nil)
	started := make(chan struct{})
	ended := false
	if !s.Go("waits for cancel", func(ctx context.Context) {
		close(started)
		<-ctx.Done()
		ended = true
	}) {
		t.Fatal("Go refused work on an open session")
	}
	s.Go("panics", func(context.Context) { panic("background panic") })
	<-started
	s.Close() // cancels the context and waits for both
	if !ended {
		t.Fatal("Close returned before the background work ended")
	}
	if s.Go("late", func(context.Context) { t.Error("work ran after Close") }) {
		t.Fatal("Go accepted work after Close")
	}
}
