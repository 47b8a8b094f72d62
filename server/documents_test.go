package server_test

import (
	"errors"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/advertest/advertest-lsp/javaparse"
	"github.com/advertest/advertest-lsp/server"
)

func rng(l1, c1, l2, c2 uint32) *protocol.Range {
	return &protocol.Range{Start: protocol.Position{Line: l1, Character: c1}, End: protocol.Position{Line: l2, Character: c2}}
}

func change(docs *server.Documents, uri string, version int32, changes ...server.ContentChange) error {
	return docs.Change(&server.DidChangeParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: protocol.DocumentURI(uri)}, Version: version},
		ContentChanges: changes,
	})
}

func TestDocumentsPlainText(t *testing.T) {
	docs := server.NewDocuments(nil)
	doc := docs.Open("file:///a.txt", "plaintext", 1, "one\r\ntwo 😀 x\rthree")
	// Several changes in one notification apply in order; columns are UTF-16
	// and \r\n and \r both end lines.
	err := change(docs, "file:///a.txt", 2,
		server.ContentChange{Range: rng(1, 7, 1, 8), Text: "y"},     // x → y after the 2-unit emoji
		server.ContentChange{Range: rng(2, 0, 2, 5), Text: "THREE"}, // on the line after a lone \r
		server.ContentChange{Range: rng(0, 3, 0, 3), Text: "!"},
	)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(doc.Text()), "one!\r\ntwo 😀 y\rTHREE"; got != want || doc.Version() != 2 {
		t.Fatalf("text %q version %d, want %q version 2", got, doc.Version(), want)
	}
	if err := change(docs, "file:///a.txt", 3, server.ContentChange{Text: "all new"}); err != nil || string(doc.Text()) != "all new" {
		t.Fatalf("full-text change: %q, %v", doc.Text(), err)
	}
	// A range outside the text is refused and leaves text and version alone.
	if err := change(docs, "file:///a.txt", 4, server.ContentChange{Range: rng(7, 0, 7, 1), Text: "z"}); err == nil {
		t.Fatal("change outside the text accepted")
	}
	if string(doc.Text()) != "all new" || doc.Version() != 3 {
		t.Fatalf("after a refused change: %q version %d", doc.Text(), doc.Version())
	}
	if err := change(docs, "file:///missing.txt", 2, server.ContentChange{Text: "x"}); !errors.Is(err, server.ErrDocumentNotOpen) {
		t.Fatalf("change of a document not open: %v", err)
	}
	if err := docs.Close("file:///a.txt"); err != nil {
		t.Fatal(err)
	}
	if _, ok := docs.Get("file:///a.txt"); ok {
		t.Fatal("closed document still open")
	}
}

func TestDocumentsJavaIncremental(t *testing.T) {
	docs := server.NewDocuments(nil)
	doc := docs.Open("file:///w/A.java", "java", 1, "class A {\n    int f() { return 1; }\n}\n")
	if err := change(docs, "file:///w/A.java", 2, server.ContentChange{Range: rng(1, 8, 1, 9), Text: "gee"}); err != nil {
		t.Fatal(err)
	}
	var names []string
	doc.WithFile(func(f *javaparse.File, version int32) {
		for _, m := range f.Methods() {
			names = append(names, m.Name)
		}
	})
	if len(names) != 1 || names[0] != "gee" {
		t.Fatalf("methods after the edit = %q, want [gee]", names)
	}
	snap, v := doc.Snapshot()
	if err := change(docs, "file:///w/A.java", 3, server.ContentChange{Text: "class B {}"}); err != nil {
		t.Fatal(err)
	}
	if v != 2 || len(snap.Methods()) != 1 || string(doc.Text()) != "class B {}" {
		t.Fatalf("snapshot changed with the document: version %d, %d methods", v, len(snap.Methods()))
	}
}

// TestDocumentsChangeAllOrNothing: a didChange whose second of three ranges lies outside the
// text applies none of them (plain text and Java), keeps the version, and leaves the document
// out of step: later ranged changes are not applied to the wrong text, while a full-text
// change, Resync (a save with the text) or a new didOpen bring it back in step.
func TestDocumentsChangeAllOrNothing(t *testing.T) {
	for _, lang := range []string{"plaintext", "java"} {
		t.Run(lang, func(t *testing.T) {
			docs := server.NewDocuments(nil)
			uri := "file:///w/A." + map[string]string{"plaintext": "txt", "java": "java"}[lang]
			text := "class A {\n    int f() { return 1; }\n}\n"
			doc := docs.Open(protocol.DocumentURI(uri), lang, 1, text)
			err := change(docs, uri, 2,
				server.ContentChange{Range: rng(0, 0, 0, 0), Text: "// first\n"},
				server.ContentChange{Range: rng(9, 0, 9, 1), Text: "x"},
				server.ContentChange{Range: rng(2, 8, 2, 9), Text: "g"})
			var oos *server.OutOfStepError
			if !errors.As(err, &oos) || !strings.Contains(err.Error(), "change 2 of 3") || doc.OutOfStep() == nil {
				t.Fatalf("error %v, out of step %v", err, doc.OutOfStep())
			}
			if string(doc.Text()) != text || doc.Version() != 1 {
				t.Fatalf("after a refused change: %q version %d", doc.Text(), doc.Version())
			}
			if err := change(docs, uri, 3, server.ContentChange{Range: rng(1, 8, 1, 9), Text: "g"}); !errors.As(err, &oos) || string(doc.Text()) != text {
				t.Fatalf("a ranged change out of step: %v, text %q", err, doc.Text())
			}
			if err := docs.Resync(protocol.DocumentURI(uri), "class B {}\n"); err != nil || doc.OutOfStep() != nil || string(doc.Text()) != "class B {}\n" {
				t.Fatalf("resync: %v, out of step %v, text %q", err, doc.OutOfStep(), doc.Text())
			}
			// Several edits that apply: each range is the text's after the edits before it.
			if err := change(docs, uri, 4,
				server.ContentChange{Range: rng(0, 0, 0, 0), Text: "// one\n"},
				server.ContentChange{Range: rng(1, 6, 1, 7), Text: "C"},
				server.ContentChange{Range: rng(2, 0, 2, 0), Text: "// end\n"}); err != nil {
				t.Fatal(err)
			}
			if got := string(doc.Text()); got != "// one\nclass C {}\n// end\n" || doc.Version() != 4 {
				t.Fatalf("three edits: %q version %d", got, doc.Version())
			}
			_ = change(docs, uri, 5, server.ContentChange{Range: rng(7, 0, 7, 0), Text: "x"})
			if err := change(docs, uri, 6, server.ContentChange{Text: "class D {}"}, server.ContentChange{Range: rng(0, 6, 0, 7), Text: "E"}); err != nil ||
				doc.OutOfStep() != nil || string(doc.Text()) != "class E {}" || doc.Version() != 6 {
				t.Fatalf("a full-text change out of step: %v, %v, %q", err, doc.OutOfStep(), doc.Text())
			}
			// An empty full text, then an edit of it.
			if err := change(docs, uri, 7, server.ContentChange{Text: ""}, server.ContentChange{Range: rng(0, 0, 0, 0), Text: "x"}); err != nil || string(doc.Text()) != "x" {
				t.Fatalf("an edit after an empty full text: %v, %q", err, doc.Text())
			}
			_ = change(docs, uri, 8, server.ContentChange{Range: rng(7, 0, 7, 0), Text: "x"})
			if doc = docs.Open(protocol.DocumentURI(uri), lang, 8, text); doc.OutOfStep() != nil {
				t.Fatal("a new didOpen is out of step")
			}
		})
	}
}
