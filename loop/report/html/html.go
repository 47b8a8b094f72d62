package html

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"path"
	"strings"

	"github.com/advertest/advertest-lsp/loop/report"
	"github.com/advertest/advertest-lsp/loop/report/mte"
	elements "github.com/advertest/advertest-lsp/third_party/mutation-testing-elements"
)

// Options say what the page cannot read from the reports.
type Options struct {
	// MTE are the options of the inlined mte report: above all ReadSource, so the page shows
	// each file's source.
	MTE mte.Options
	// Title names the page; empty: "AdverTest mutation report".
	Title string
}

// page is what the template fills in.
type page struct {
	Title string
	// Bundle and Report are inlined in <script> elements: the component's code and the mte
	// JSON (Go's JSON escapes <, > and &, so neither can close the element).
	Bundle, Report template.JS
	Version        string
	// OurScore is advertest's mutationScore over all methods ("62.5%", or "n/a"); MTEScore
	// the component's own figure, which counts timeouts as detected.
	OurScore, MTEScore string
	Timeouts           int
	Suites             []suite
	License            string
}

type suite struct {
	File, Method, Source string
	Tests, Failing       []string
}

// Write writes the self-contained HTML report of the methods to w: the
// mutation-testing-elements component with the mte report inlined, advertest's own score
// beside the component's, and a section with each generated test suite. It returns the mte
// report's warnings.
func Write(w io.Writer, methods []report.Report, opts Options) ([]string, error) {
	rep, warnings, err := mte.Build(methods, opts.MTE)
	if err != nil {
		return nil, err
	}
	data, err := rep.Marshal()
	if err != nil {
		return nil, err
	}
	if bytes.Contains(bytes.ToLower(data), []byte("</script")) {
		return nil, fmt.Errorf("HTML report: the mte JSON would close its <script> element")
	}
	p := page{
		Title:   opts.Title,
		Bundle:  template.JS(elements.Bundle),
		Report:  template.JS(data),
		Version: elements.Version,
		License: elements.License,
	}
	if p.Title == "" {
		p.Title = "AdverTest mutation report"
	}
	sum := report.Summarize(methods)
	p.OurScore, p.Timeouts = percent(sum.MutationScore, 1), sum.Timeout
	p.MTEScore = percent(mte.ComputeMetrics(rep).MutationScore, 0.01)
	for i := range methods {
		r := &methods[i]
		if strings.TrimSpace(r.Tests.Source) == "" {
			continue
		}
		s := suite{Method: r.Target.Class + "." + r.Target.Method, Source: r.Tests.Source, Tests: r.Tests.Methods, Failing: r.Tests.FailingOnOriginal}
		if r.Tests.File != nil && *r.Tests.File != "" {
			s.File = path.Join(r.ModuleDir, *r.Tests.File)
		}
		p.Suites = append(p.Suites, s)
	}
	var buf bytes.Buffer
	if err := pageTemplate.Execute(&buf, p); err != nil {
		return nil, fmt.Errorf("writing the HTML report: %w", err)
	}
	_, err = w.Write(buf.Bytes())
	return warnings, err
}

// WriteFile writes the HTML report to path atomically; it returns the mte report's warnings.
func WriteFile(path string, methods []report.Report, opts Options) ([]string, error) {
	var buf bytes.Buffer
	warnings, err := Write(&buf, methods, opts)
	if err != nil {
		return nil, err
	}
	return warnings, report.WriteFileAtomic(path, buf.Bytes())
}

// percent writes a score as a percentage with one decimal; scale turns the score into a
// fraction (1 for advertest's 0..1, 0.01 for mte's percent).
func percent(score *float64, scale float64) string {
	if score == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", *score*scale*100)
}

var pageTemplate = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<script data-component="mutation-testing-elements {{.Version}}, Apache-2.0: the licence is at the end of this page">
{{.Bundle}}
</script>
<style>
  body { margin: 0; font-family: system-ui, sans-serif; }
  .advertest { max-width: 1200px; margin: 0 auto; padding: 0.5rem 1rem; color: #1f2937; }
  .advertest-dark .advertest { color: #e5e7eb; }
  .advertest h2 { font-size: 1.2rem; }
  .advertest pre { background: rgba(127,127,127,0.12); padding: 0.75rem; overflow-x: auto; font-size: 0.85rem; }
  .advertest details { margin: 0.5rem 0; }
  .advertest .scores { font-size: 0.9rem; }
</style>
</head>
<body>
<div class="advertest">
<p class="scores" id="advertest-scores">AdverTest's mutation score (killed / (killed + survived)): <strong id="advertest-score">{{.OurScore}}</strong>.
The score the report below shows is mutation-testing-elements' own ({{.MTEScore}}): it counts timeouts as detected{{if .Timeouts}} ({{.Timeouts}} here){{end}}, where AdverTest leaves them out.</p>
</div>
<mutation-test-report-app title-postfix="AdverTest">
  Your browser does not support custom elements: open this report in a current Firefox, Chrome, Safari or Edge.
</mutation-test-report-app>
<div class="advertest" id="advertest-tests">
<h2>Generated tests</h2>
{{- if .Suites}}
{{- range .Suites}}
<details open>
<summary><strong>{{if .File}}{{.File}}{{else}}{{.Method}}{{end}}</strong> for {{.Method}}: {{len .Tests}} test(s){{if .Failing}}, {{len .Failing}} failing on the original code (possible bugs){{end}}</summary>
{{- if .Failing}}
<p>Failing on the original code: {{range $i, $t := .Failing}}{{if $i}}, {{end}}<code>{{$t}}</code>{{end}}</p>
{{- end}}
<pre><code>{{.Source}}</code></pre>
</details>
{{- end}}
{{- else}}
<p>None: this report comes from mutation analysis with the project's own tests (<code>advertest mutate</code>); <code>advertest run</code> generates tests.</p>
{{- end}}
<details>
<summary>Licence of mutation-testing-elements {{.Version}} (the report component in this page)</summary>
<pre>{{.License}}</pre>
</details>
</div>
<script>
  const app = document.querySelector('mutation-test-report-app');
  app.report = {{.Report}};
  function updateTheme() {
    document.body.style.backgroundColor = app.themeBackgroundColor || '';
    document.body.classList.toggle('advertest-dark', app.theme === 'dark');
  }
  app.addEventListener('theme-changed', updateTheme);
  updateTheme();
</script>
</body>
</html>
`))
