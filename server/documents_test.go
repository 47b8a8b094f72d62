package server_test

import (
	"errors"
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
