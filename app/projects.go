package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/buildtools"
	"github.com/advertest/advertest-lsp/settings"
)

// Warm is an open project and what lives as long as it: the extras (the offline test agent,
// say) are closed with it.
type Warm struct {
	Project *buildtools.Project
	// closeProject closes Project (its worker JVMs end); tests replace it.
	closeProject func() error

	// extrasMu guards the extras and their closers, and openingTaken.
	extrasMu     sync.Mutex
	openingTaken bool
	extras       map[string]any
	closers      []func() error
}

// NewWarm wraps an open project.
func NewWarm(p *buildtools.Project) *Warm { return &Warm{Project: p, closeProject: p.Close} }

// TakeOpening is what opening the project cost, the first time it is asked; zero after: the
// fixed costs go into the report of the first run that waited for them.
func (w *Warm) TakeOpening() buildtools.OpenTiming {
	w.extrasMu.Lock()
	defer w.extrasMu.Unlock()
	if w.openingTaken || w.Project == nil {
		return buildtools.OpenTiming{}
	}
	w.openingTaken = true
	return w.Project.Opening
}

// Extra returns the value kept under name, making it with mk the first time.
func (w *Warm) Extra(name string, mk func() (any, func() error, error)) (any, error) {
	w.extrasMu.Lock()
	defer w.extrasMu.Unlock()
	if v, ok := w.extras[name]; ok {
		return v, nil
	}
	v, closeFn, err := mk()
	if err != nil {
		return nil, err
	}
	if w.extras == nil {
		w.extras = map[string]any{}
	}
	w.extras[name] = v
	if closeFn != nil {
		w.closers = append(w.closers, closeFn)
	}
	return v, nil
}

// close closes the extras, in reverse order, then the project.
func (w *Warm) close() error {
	w.extrasMu.Lock()
	closers := w.closers
	w.closers = nil
	w.extrasMu.Unlock()
	var errs []error
	for i := len(closers) - 1; i >= 0; i-- {
		errs = append(errs, closers[i]())
	}
	if w.closeProject != nil {
		errs = append(errs, w.closeProject())
	}
	return errors.Join(errs...)
}

// OpenFunc opens the project of the module that owns javaFile under the settings s.
type OpenFunc func(ctx context.Context, javaFile string, s settings.Settings) (*Warm, error)

// Projects keeps one warm project per module root and settings key (Settings.ProjectKey),
// opened on first use and leased to the work that uses it. When the settings that key a
// module's project change, the next Get opens a new one and the old one is closed once its
// last lease is released: a running job keeps its workers to the end. Opening runs on the
// background context, not the caller's: a job cancelled while its project opens leaves the
// opening to finish for the next one. Close cancels openings in progress (a Maven or Gradle
// process of a session that is ending must not outlive it).
type Projects struct {
	background context.Context
	// stopOpenings cancels background; Close calls it.
	stopOpenings context.CancelFunc
	open         OpenFunc
	logger       *zap.Logger

	// closing counts the projects being closed.
	closing sync.WaitGroup

	// mu guards closed, byKey, retiring and every entry's warm, leases and retired.
	mu     sync.Mutex
	closed bool
	byKey  map[string]*entry
	// retiring are the entries a newer key replaced whose project is not closed yet.
	retiring map[*entry]bool
}

type entry struct {
	ready chan struct{} // closed when the opening has ended
	warm  *Warm
	err   error
	// leases counts the Leases not released yet.
	leases int
	// retired is set once a newer key replaced the entry: it closes with its last lease.
	retired bool
}

// Lease is a warm project lent to one piece of work; Release gives it back.
type Lease struct {
	*Warm
	p    *Projects
	e    *entry
	once sync.Once
}

// Release gives the project back; the last release of a retired project closes it.
func (l *Lease) Release() { l.once.Do(func() { l.p.release(l.e) }) }

// NewProjects returns an empty cache; background bounds every opening.
func NewProjects(background context.Context, open OpenFunc, logger *zap.Logger) *Projects {
	if logger == nil {
		logger = zap.NewNop()
	}
	ctx, cancel := context.WithCancel(background)
	return &Projects{background: ctx, stopOpenings: cancel, open: open, logger: logger, byKey: map[string]*entry{}, retiring: map[*entry]bool{}}
}

// ErrClosed is the error of Get after Close.
var ErrClosed = errors.New("the server is shutting down")

func projectKey(root string, s settings.Settings) string { return root + "\x00" + s.ProjectKey() }

// Get leases the warm project of javaFile's module under the settings s, opening it the
// first time; a project of the same module under other settings is retired. It waits for an
// opening in progress; ctx ends only the wait.
func (p *Projects) Get(ctx context.Context, javaFile string, s settings.Settings) (*Lease, error) {
	root, err := ModuleRoot(javaFile)
	if err != nil {
		return nil, err
	}
	key := projectKey(root, s)
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, ErrClosed
	}
	e := p.byKey[key]
	if e == nil {
		e = &entry{ready: make(chan struct{})}
		for k, old := range p.byKey {
			if len(k) > len(root) && k[:len(root)+1] == root+"\x00" {
				delete(p.byKey, k)
				p.retireLocked(old)
			}
		}
		p.byKey[key] = e
		go p.opening(e, key, javaFile, s)
	}
	// The lease is taken before the wait, so that a retirement meanwhile cannot close the
	// project under this caller.
	e.leases++
	p.mu.Unlock()
	lease := &Lease{p: p, e: e}
	select {
	case <-e.ready:
	case <-ctx.Done():
		lease.Release()
		return nil, context.Cause(ctx)
	}
	p.mu.Lock()
	err, lease.Warm = e.err, e.warm
	p.mu.Unlock()
	if err == nil && lease.Warm == nil {
		err = ErrClosed // closed since it opened
	}
	if err != nil {
		lease.Release()
		return nil, err
	}
	return lease, nil
}

func (p *Projects) opening(e *entry, key, javaFile string, s settings.Settings) {
	warm, err := p.open(p.background, javaFile, s)
	p.mu.Lock()
	switch {
	case err != nil:
	case p.closed:
		// Close ran while this one opened: nobody else will close it.
		p.closeLater(warm)
		err = ErrClosed
	default:
		e.warm = warm
	}
	if err != nil {
		e.err = fmt.Errorf("opening the project of %s: %w", javaFile, err)
		if p.byKey[key] == e {
			delete(p.byKey, key) // the next Get tries again
		}
	}
	p.closeIfDoneLocked(e)
	p.mu.Unlock()
	close(e.ready)
}

// retireLocked marks an entry replaced by a newer key: it closes once it is open and nobody
// holds it.
func (p *Projects) retireLocked(e *entry) {
	e.retired = true
	p.retiring[e] = true
	p.closeIfDoneLocked(e)
}

func (p *Projects) release(e *entry) {
	p.mu.Lock()
	e.leases--
	p.closeIfDoneLocked(e)
	p.mu.Unlock()
}

// closeIfDoneLocked closes a retired entry's project once it is open and has no lease left.
func (p *Projects) closeIfDoneLocked(e *entry) {
	if !e.retired || e.leases > 0 || e.warm == nil {
		return
	}
	w := e.warm
	e.warm = nil
	delete(p.retiring, e)
	p.closeLater(w)
}

// closeLater closes a project on its own goroutine (closing waits for its worker JVMs); Close
// waits for it.
func (p *Projects) closeLater(w *Warm) {
	p.closing.Add(1)
	go func() {
		defer p.closing.Done()
		if err := w.close(); err != nil {
			p.logger.Warn("closing a project", zap.Error(err))
		}
	}()
}

// Ready reports whether javaFile's module has an open project under the settings s.
func (p *Projects) Ready(javaFile string, s settings.Settings) bool {
	root, err := ModuleRoot(javaFile)
	if err != nil {
		return false
	}
	p.mu.Lock()
	e := p.byKey[projectKey(root, s)]
	p.mu.Unlock()
	if e == nil {
		return false
	}
	select {
	case <-e.ready:
		return e.err == nil
	default:
		return false
	}
}

// testRoots are the test source roots of the module at root, from an open project of it; nil
// when none is open.
func (p *Projects) testRoots(root string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	for k, e := range p.byKey {
		if strings.HasPrefix(k, root+"\x00") && e.warm != nil && e.warm.Project != nil && e.warm.Project.Module != nil {
			return append([]string(nil), e.warm.Project.Module.TestSourceRoots...)
		}
	}
	return nil
}

// Close closes every project, leased or not (the session is ending: its worker JVMs end with
// it), and makes Get fail from then on. It waits for openings in progress and for the closing
// of retired projects, up to ctx.
func (p *Projects) Close(ctx context.Context) error {
	p.stopOpenings()
	p.mu.Lock()
	p.closed = true
	var entries []*entry
	for _, e := range p.byKey {
		entries = append(entries, e)
	}
	for e := range p.retiring {
		entries = append(entries, e)
	}
	p.byKey = map[string]*entry{}
	p.retiring = map[*entry]bool{}
	p.mu.Unlock()
	var errs []error
	for _, e := range entries {
		select {
		case <-e.ready:
		case <-ctx.Done():
			return ctx.Err()
		}
		p.mu.Lock()
		w := e.warm
		e.warm = nil // closed here, not by a later release
		p.mu.Unlock()
		if w != nil {
			errs = append(errs, w.close())
		}
	}
	done := make(chan struct{})
	go func() { p.closing.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		return ctx.Err()
	}
	return errors.Join(errs...)
}
