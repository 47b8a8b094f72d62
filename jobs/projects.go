package jobs

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"go.uber.org/zap"

	"github.com/advertest/advertest-lsp/buildtools"
)

// OpenFunc opens the project of the module that owns javaFile.
type OpenFunc func(ctx context.Context, javaFile string) (*buildtools.Project, error)

// Warm is an open project and what lives as long as it: the extras (an offline test agent,
// say) are closed with it.
type Warm struct {
	Project *buildtools.Project
	// Extras are closed, in reverse order, before the project.
	extrasMu sync.Mutex
	extras   map[string]any
	closers  []func() error
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

func (w *Warm) close() error {
	w.extrasMu.Lock()
	closers := w.closers
	w.closers = nil
	w.extrasMu.Unlock()
	var errs []error
	for i := len(closers) - 1; i >= 0; i-- {
		errs = append(errs, closers[i]())
	}
	errs = append(errs, w.Project.Close())
	return errors.Join(errs...)
}

// Projects keeps one warm project per module root (and settings key), opened on first use.
// Opening runs on the background context, not a job's: a job cancelled while its project
// opens leaves the opening to finish for the next job.
type Projects struct {
	background context.Context
	open       OpenFunc
	logger     *zap.Logger

	mu     sync.Mutex
	closed bool
	byKey  map[string]*entry
}

type entry struct {
	ready chan struct{}
	warm  *Warm
	err   error
}

// NewProjects returns an empty cache; background bounds every opening.
func NewProjects(background context.Context, open OpenFunc, logger *zap.Logger) *Projects {
	if logger == nil {
		logger = zap.NewNop()
	}
	return &Projects{background: background, open: open, logger: logger, byKey: map[string]*entry{}}
}

// ErrClosed is returned after Close.
var ErrClosed = errors.New("the server is shutting down")

// Get returns the warm project of javaFile's module, under the given settings key; a project
// of the same module under another key is closed (its settings changed). It waits for an
// opening in progress; ctx ends only the wait.
func (p *Projects) Get(ctx context.Context, javaFile, settingsKey string) (*Warm, error) {
	root, _, err := buildtools.FindModuleRoot(javaFile)
	if err != nil {
		return nil, err
	}
	key := root + "\x00" + settingsKey
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, ErrClosed
	}
	e := p.byKey[key]
	if e == nil {
		var stale []*entry
		for k, old := range p.byKey {
			if len(k) > len(root) && k[:len(root)+1] == root+"\x00" {
				stale = append(stale, old)
				delete(p.byKey, k)
			}
		}
		e = &entry{ready: make(chan struct{})}
		p.byKey[key] = e
		go p.closeWhenReady(stale)
		go func() {
			proj, err := p.open(p.background, javaFile)
			p.mu.Lock()
			if err == nil {
				e.warm = &Warm{Project: proj}
				if p.closed {
					// Close ran while we opened: nobody else will close it.
					_ = proj.Close()
					e.warm, err = nil, ErrClosed
				}
			}
			if err != nil {
				e.err = fmt.Errorf("opening the project of %s: %w", javaFile, err)
				if p.byKey[key] == e {
					delete(p.byKey, key) // the next job tries again
				}
			}
			p.mu.Unlock()
			close(e.ready)
		}()
	}
	p.mu.Unlock()
	select {
	case <-e.ready:
		return e.warm, e.err
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// Ready reports whether javaFile's module has an open project under the settings key.
func (p *Projects) Ready(javaFile, settingsKey string) bool {
	root, _, err := buildtools.FindModuleRoot(javaFile)
	if err != nil {
		return false
	}
	p.mu.Lock()
	e := p.byKey[root+"\x00"+settingsKey]
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

func (p *Projects) closeWhenReady(entries []*entry) {
	for _, e := range entries {
		<-e.ready
		if e.warm != nil {
			if err := e.warm.close(); err != nil {
				p.logger.Warn("closing a project", zap.Error(err))
			}
		}
	}
}

// Close closes every project (its worker JVMs end) and makes Get fail from then on. It waits
// for openings in progress, up to ctx.
func (p *Projects) Close(ctx context.Context) error {
	p.mu.Lock()
	p.closed = true
	entries := make([]*entry, 0, len(p.byKey))
	for _, e := range p.byKey {
		entries = append(entries, e)
	}
	p.byKey = map[string]*entry{}
	p.mu.Unlock()
	var errs []error
	for _, e := range entries {
		select {
		case <-e.ready:
		case <-ctx.Done():
			return ctx.Err()
		}
		if e.warm != nil {
			errs = append(errs, e.warm.close())
		}
	}
	return errors.Join(errs...)
}
