package harness

import (
	"context"
	"testing"
	"time"
)

// TestWarmUpCompilesInIdleTimeAndKeepsNothing: a pool with warm-up compiles gives each worker
// its share once idle, and they do not push a compile out of the worker's last compiles.
func TestWarmUpCompilesInIdleTimeAndKeepsNothing(t *testing.T) {
	cfg := fx.j4.config()
	cfg.Workers = 1
	cfg.WarmUpCompiles = 6 // more than the worker's four last compiles
	p := openPool(t, cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	src := []Source{{ClassName: "org.acme.Calc", Text: readSource(t, fx.j4, "org/acme/Calc.java")}}
	if cr, err := p.Compile(ctx, src); err != nil || !cr.OK || cr.Origin != "javac" {
		t.Fatalf("first compile: %v %+v", err, cr)
	}
	select {
	case <-p.CompilersWarm():
	case <-ctx.Done():
		t.Fatal("no warm-up in 2 minutes")
	}
	if n := p.warmUps.Load(); n != 6 {
		t.Errorf("%d warm-up compiles, want 6", n)
	}
	if cr, err := p.Compile(ctx, src); err != nil || !cr.OK || cr.Origin != "cache" {
		t.Errorf("the compile after the warm-up: %v, origin %q (want the cache's)", err, cr.Origin)
	}
	// A pool without warm-up compiles is warm at once.
	select {
	case <-openPool(t, fx.j4.config()).CompilersWarm():
	default:
		t.Error("a pool without warm-up compiles is not warm")
	}
}
