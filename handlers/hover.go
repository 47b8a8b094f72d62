package handlers

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"
)

// Hover shows the surviving mutants of the line under the cursor as a small diff, with the
// tests that cover the line; null elsewhere.
func (h *Handler) Hover(_ context.Context, params *protocol.HoverParams) (*protocol.Hover, error) {
	uri := params.TextDocument.URI
	line := int(params.Position.Line) + 1
	var b strings.Builder
	var rng *protocol.Range
	for _, res := range h.results.forURI(uri) {
		if res.gone {
			continue
		}
		for _, m := range res.survivors {
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
			fmt.Fprintf(&b, "**AdverTest**: surviving mutant `%s` (%s, %s)\n\n", m.ID, m.Operator, m.Origin)
			fmt.Fprintf(&b, "```diff\n- %s\n+ %s\n```\n\n", strings.TrimSpace(m.Original), strings.TrimSpace(m.Mutated))
			tests := res.covering[m.ID]
			switch {
			case len(tests) == 0:
				b.WriteString("No test executes this line.\n")
			default:
				b.WriteString("Covered by (they all pass on the mutant):\n")
				const limit = 8
				for i, t := range tests {
					if i == limit {
						fmt.Fprintf(&b, "- … and %d more\n", len(tests)-limit)
						break
					}
					fmt.Fprintf(&b, "- `%s`\n", t)
				}
			}
		}
	}
	if b.Len() == 0 {
		return nil, nil
	}
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: b.String()}, Range: rng}, nil
}
