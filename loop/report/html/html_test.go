package html

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/advertest/advertest-lsp/loop/report"
	"github.com/advertest/advertest-lsp/loop/report/internal/reporttest"
	"github.com/advertest/advertest-lsp/loop/report/mte"
	elements "github.com/advertest/advertest-lsp/third_party/mutation-testing-elements"
)

func render(t *testing.T, methods []report.Report) string {
	t.Helper()
	var buf bytes.Buffer
	if _, err := Write(&buf, methods, Options{MTE: mte.Options{ReadSource: mte.SourcesUnder(reporttest.RepoRoot())}}); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestPageIsSelfContained(t *testing.T) {
	page := render(t, reporttest.WithRunReport(t))
	if !strings.Contains(page, elements.Bundle) {
		t.Fatal("the component's bundle is not inlined")
	}
	// Nothing is fetched: no external script, stylesheet, image or frame.
	if m := regexp.MustCompile(`(?i)<(script|link|img|iframe)[^>]*\s(src|href)=`).FindString(page); m != "" {
		t.Fatalf("the page loads %q", m)
	}
	want, _, err := mte.Build(reporttest.WithRunReport(t), mte.Options{ReadSource: mte.SourcesUnder(reporttest.RepoRoot())})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := want.Marshal()
	if !strings.Contains(page, "app.report = "+string(data)+";") {
		t.Fatal("the mte report is not inlined as built")
	}
	if !strings.Contains(page, "clampReturns0ForValue0Lo0Hi0") || !strings.Contains(page, "Generated tests") {
		t.Fatal("the generated suite is missing")
	}
	if !strings.Contains(page, "Apache License") {
		t.Fatal("the component's licence is missing")
	}
}

func TestHostileTestSourceStaysText(t *testing.T) {
	r := reporttest.RunReport(t)
	r.Tests.Source = strings.Replace(r.Tests.Source, "class PriceCalculatorAdverTest {",
		"class PriceCalculatorAdverTest { // </script><script>alert(1)</script> <!--", 1)
	page := render(t, []report.Report{r})
	if strings.Contains(page, "<script>alert(1)") {
		t.Fatal("a test's text became markup")
	}
	if n := strings.Count(strings.ToLower(page), "</script>"); n != 2 {
		t.Fatalf("%d </script> in the page, want the 2 of its own scripts", n)
	}
}

func TestPageWithoutGeneratedTests(t *testing.T) {
	page := render(t, reporttest.Reports(t)[:1])
	if !strings.Contains(page, "None: this report comes from mutation analysis") {
		t.Fatal("no note that there are no generated tests")
	}
}
