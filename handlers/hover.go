package handlers

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/advertest/advertest-lsp/loop/report"
)

// Hover shows the surviving mutants of the line under the cursor as a small diff, with the
// evidence of a likely equivalence and the tests that cover the line, and the mutants the user
// ignored there; null elsewhere.
func (h *Handler) Hover(_ context.Context, params *protocol.HoverParams) (*protocol.Hover, error) {
	uri := params.TextDocument.URI
	line := int(params.Position.Line) + 1
	var b strings.Builder
	var rng *protocol.Range
	for _, res := range h.results.forURI(uri) {
		if res.gone {
			continue
		}
		for _, m := range append(res.survivors, res.ignored...) {
			if m.Line != line || res.withdrawn[m.ID] {
				continue
			}
			if rng == nil {
				d := mutantDiagnostic(m, m.Original)
				rng = &d.Range
			}
			if b.Len() > 0 {
				b.WriteString("\n---\n\n")
			}
			if m.Status == report.Ignored {
				hoverIgnored(&b, m)
				continue
			}
			tests := res.covering[m.ID]
			if len(tests) == 0 {
				tests = m.CoveredBy
			}
			hoverSurvivor(&b, m, tests)
		}
	}
	if b.Len() == 0 {
		return nil, nil
	}
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: b.String()}, Range: rng}, nil
}

// hoverSurvivor describes a surviving mutant: the diff, the evidence of a likely equivalence,
// the tests that cover its line.
func hoverSurvivor(b *strings.Builder, m report.Mutant, tests []string) {
	fmt.Fprintf(b, "**AdverTest**: surviving mutant `%s` (%s, %s)\n\n", m.ID, m.Operator, m.Origin)
	fmt.Fprintf(b, "```diff\n- %s\n+ %s\n```\n\n", strings.TrimSpace(m.Original), strings.TrimSpace(m.Mutated))
	if m.LikelyEquivalent() {
		fmt.Fprintf(b, "Probably equivalent, says %s: %s. It still counts in the mutation score; *Mark as equivalent* leaves it out.\n\n",
			judgeName(m.Equivalence.By), evidenceOf(m.Equivalence))
	}
	if len(tests) == 0 {
		b.WriteString("No test executes this line.\n")
		return
	}
	b.WriteString("Covered by (they all pass on the mutant):\n")
	const limit = 8
	for i, t := range tests {
		if i == limit {
			fmt.Fprintf(b, "- … and %d more\n", len(tests)-limit)
			break
		}
		fmt.Fprintf(b, "- `%s`\n", t)
	}
}
