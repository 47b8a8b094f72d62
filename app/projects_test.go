package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/advertest/advertest-lsp/buildtools"
	"github.com/advertest/advertest-lsp/settings"
)

// fakeModule is a module folder with a build file and a source file in it.
func fakeModule(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "pom.xml"), []byte("<project/>"), 0o644); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, "src", "main", "java", "A.java")
}

// countingOpen opens fake projects whose closing is counted.
func countingOpen(opened, closed *atomic.Int32) OpenFunc {
	return func(context.Context, string, settings.Settings) (*Warm, error) {
		opened.Add(1)
		return &Warm{closeProject: func() error { closed.Add(1); return nil }}, nil
	}
}

// eventually waits for cond, failing after a generous limit (the closing runs on its own
// goroutine).
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
	}
}

// TestCloseStopsAnOpening: Close cancels a project's opening in progress (the build tool it
// runs gets the cancelled context and is killed) instead of waiting for it to end.
func TestCloseStopsAnOpening(t *testing.T) {
	file := fakeModule(t)
	started, stopped := make(chan struct{}), make(chan struct{})
	open := func(ctx context.Context, _ string, _ settings.Settings) (*Warm, error) {
		close(started)
		<-ctx.Done() // a build tool that would run for ever
		close(stopped)
		return nil, ctx.Err()
	}
	p := NewProjects(context.Background(), open, nil)
	getErr := make(chan error, 1)
	go func() {
		_, err := p.Get(context.Background(), file, settings.Default(noEnv))
		getErr <- err
	}()
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := p.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	select {
	case <-stopped:
	default:
		t.Fatal("Close returned while the opening still ran")
	}
	if err := <-getErr; err == nil {
		t.Fatal("a Get waiting on a cancelled opening got a project")
	}
}

// TestProjectsAreLeased: a project whose settings changed is not closed under a job that
// holds it; it closes when that job releases it. Close closes every project.
func TestProjectsAreLeased(t *testing.T) {
	file := fakeModule(t)
	var opened, closed atomic.Int32
	p := NewProjects(context.Background(), countingOpen(&opened, &closed), nil)
	ctx := context.Background()
	s := settings.Default(noEnv)
	running, err := p.Get(ctx, file, s)
	if err != nil {
		t.Fatal(err)
	}
	again, err := p.Get(ctx, file, s)
	if err != nil || again.Warm != running.Warm || opened.Load() != 1 {
		t.Fatalf("a second job on the same settings: %v, opened %d", err, opened.Load())
	}
	again.Release()
	s.Workers = 7 // a setting that keys the project
	next, err := p.Get(ctx, file, s)
	if err != nil || next.Warm == running.Warm || opened.Load() != 2 {
		t.Fatalf("new settings: %v, opened %d", err, opened.Load())
	}
	if closed.Load() != 0 {
		t.Fatal("the old project was closed under the job that holds it")
	}
	running.Release()
	running.Release() // a second release does nothing
	eventually(t, "the old project closes with its last lease", func() bool { return closed.Load() == 1 })
	if err := p.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if closed.Load() != 2 {
		t.Errorf("%d projects closed after Close, want 2 (the leased one too)", closed.Load())
	}
	if _, err := p.Get(ctx, file, s); !errors.Is(err, ErrClosed) {
		t.Errorf("Get after Close: %v", err)
	}
}

// TestProjectsRetryAFailedOpening: an opening that fails is not kept: the next Get tries again.
func TestProjectsRetryAFailedOpening(t *testing.T) {
	file := fakeModule(t)
	var calls atomic.Int32
	p := NewProjects(context.Background(), func(context.Context, string, settings.Settings) (*Warm, error) {
		if calls.Add(1) == 1 {
			return nil, errors.New("mvn failed")
		}
		return &Warm{}, nil
	}, nil)
	s := settings.Default(noEnv)
	if _, err := p.Get(context.Background(), file, s); err == nil {
		t.Fatal("the failed opening gave a project")
	}
	l, err := p.Get(context.Background(), file, s)
	if err != nil || calls.Load() != 2 {
		t.Fatalf("the retry: %v after %d openings", err, calls.Load())
	}
	l.Release()
}

// The fixed costs of opening a project go into the first report that waited for them only.
func TestOpeningIsTakenOnce(t *testing.T) {
	opening := buildtools.OpenTiming{Model: 3 * time.Second, Compile: 2 * time.Second, Workers: time.Second}
	w := &Warm{Project: &buildtools.Project{Opening: opening}}
	if got := w.TakeOpening(); got != opening {
		t.Fatalf("first TakeOpening = %+v, want %+v", got, opening)
	}
	if got := w.TakeOpening(); got != (buildtools.OpenTiming{}) {
		t.Errorf("second TakeOpening = %+v, want zero: the project is warm now", got)
	}
}
