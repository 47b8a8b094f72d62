package harness

import (
	"context"
	"strings"
	"testing"
)

// TestRecordComparesExcludesCoverage: a run that records comparisons adds instructions to the
// classes, which JaCoCo would count: Run refuses one that also asks for coverage, before it
// takes a worker.
func TestRecordComparesExcludesCoverage(t *testing.T) {
	var p *Pool // never reached: the spec is refused first
	_, err := p.Run(context.Background(), RunSpec{RecordCompares: true, Coverage: true})
	if err == nil || !strings.Contains(err.Error(), "RecordCompares and Coverage") {
		t.Fatalf("err %v", err)
	}
}
