package harness

import (
	"context"
	"fmt"
	"strings"
	"time"

	"go.uber.org/zap"
)

// The warm-up: a worker's javac, and the digests of what it compiles, run on the client
// compiler (jvmFlags) and take about ten compiles to warm up: a mutant schema of 77 sites
// compiled and digested in about 150 ms on a worker's first compiles and 45 ms from the tenth
// (docs/worker-protocol.md, "Warm-up"). A server's workers are idle most of the time, so the
// pool spends a little of it compiling a schema-shaped class of its own on each worker. Each
// compile waits for every worker to have been idle for warmUpIdle, runs on one of them and
// keeps nothing there (compileRequest.WarmUp): a request that comes meanwhile takes another
// worker, or waits for one compile at most.

const warmUpIdle = 500 * time.Millisecond

type warmUpKey struct{}

// CompilersWarm is closed once the warm-up compiles are done (at once when the pool has none,
// Config.WarmUpCompiles), or the pool closes.
func (p *Pool) CompilersWarm() <-chan struct{} { return p.warmed }

func (p *Pool) startWarmUp() {
	p.warmed = make(chan struct{})
	if p.cfg.WarmUpCompiles <= 0 {
		close(p.warmed)
		return
	}
	p.lastUse.Store(time.Now().UnixNano())
	p.bg.Add(1)
	go func() {
		defer p.bg.Done()
		defer close(p.warmed)
		p.warmUp(context.WithValue(p.bgCtx, warmUpKey{}, true))
	}()
}

// warmUp gives each worker its compiles, in idle time only; a worker restarted since is cold
// again and gets its own, up to three times the pool's share in all.
func (p *Pool) warmUp(ctx context.Context) {
	per := p.cfg.WarmUpCompiles
	done := map[*worker]int{}
	warm := 0
	tick := time.NewTicker(warmUpIdle / 5)
	defer tick.Stop()
	for total := 0; warm < p.cfg.Workers && total < 3*per*p.cfg.Workers; {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if time.Since(time.Unix(0, p.lastUse.Load())) < warmUpIdle || len(p.idle) < p.cfg.Workers {
			continue
		}
		var by *worker
		var reply compileReply
		req := &compileRequest{Sources: wireSources([]Source{warmUpSource(total)}), WarmUp: true}
		if err := p.callVia(ctx, req, &reply, func(w *worker) { by = w }); err != nil {
			if ctx.Err() == nil {
				p.log.Debug("harness: a warm-up compile failed", zap.Error(err))
			}
			return
		}
		if reply.Compile == nil || !reply.Compile.OK {
			p.log.Warn("harness: the warm-up class does not compile; no warm-up", zap.Any("compile", reply.Compile))
			return
		}
		total++
		p.warmUps.Add(1)
		if done[by]++; done[by] == per {
			warm++
		}
	}
}

// warmUpSource is a class shaped like a mutant schema (as loop/mutants.BuildSchema writes them):
// binary searches whose conditions, arithmetic and assignments select their variant by the
// worker's switch, with the digests asked for. round makes each text new.
func warmUpSource(round int) Source {
	var b strings.Builder
	k := 0
	site := func(variants ...string) string {
		var s strings.Builder
		for _, v := range variants[1:] {
			k++
			fmt.Fprintf(&s, "advertest.worker.hook.Mutant.active == %d ? (%s) : ", k, v)
		}
		return s.String() + "(" + variants[0] + ")"
	}
	fmt.Fprintf(&b, "package advertest.warmup;\n\n// round %d\nfinal class Schema {\n", round)
	for m := 0; m < 6; m++ {
		fmt.Fprintf(&b, "    static int search%d(int[] a, int key) {\n", m)
		fmt.Fprintf(&b, "        int lo = (%s);\n", site("0", "1", "-1"))
		fmt.Fprintf(&b, "        int hi = (%s);\n", site("a.length - 1", "a.length", "a.length + 1", "a.length * 1"))
		fmt.Fprintf(&b, "        while ((%s)) {\n", site("lo <= hi", "lo < hi", "lo > hi", "lo != hi", "lo >= hi"))
		fmt.Fprintf(&b, "            int mid = (%s);\n", site("(lo + hi) >>> 1", "(lo - hi) >>> 1", "(lo + hi) >> 1", "(lo * hi) >>> 1", "(lo + hi) >>> 2"))
		fmt.Fprintf(&b, "            if ((%s)) {\n", site("a[mid] < key", "a[mid] <= key", "a[mid] > key", "true", "false"))
		k++
		fmt.Fprintf(&b, "                if (advertest.worker.hook.Mutant.active == %d) { lo = mid + 2; } else { lo = mid + 1; }\n", k)
		fmt.Fprintf(&b, "            } else if ((%s)) {\n", site("a[mid] > key", "a[mid] >= key", "a[mid] != key"))
		k++
		fmt.Fprintf(&b, "                if (advertest.worker.hook.Mutant.active == %d) { hi = mid; } else { hi = mid - 1; }\n", k)
		fmt.Fprintf(&b, "            } else {\n                return mid;\n            }\n        }\n")
		fmt.Fprintf(&b, "        return (%s);\n    }\n", site("-(lo + 1)", "-(lo - 1)", "lo + 1", "-(hi + 1)"))
	}
	b.WriteString("}\n")
	return Source{ClassName: "advertest.warmup.Schema", Text: b.String(), Digest: true}
}
