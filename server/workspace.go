package server

import (
	"os"
	"path/filepath"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// SetWorkspaceFolders replaces the workspace folders (local paths), as initialize's
// workspaceFolders or rootUri name them.
func (s *Session) SetWorkspaceFolders(paths []string) {
	s.foldersMu.Lock()
	defer s.foldersMu.Unlock()
	s.folders = cleanPaths(paths)
}

// ChangeWorkspaceFolders applies workspace/didChangeWorkspaceFolders: removed folders go,
// added ones join at the end.
func (s *Session) ChangeWorkspaceFolders(added, removed []string) {
	s.foldersMu.Lock()
	defer s.foldersMu.Unlock()
	gone := map[string]bool{}
	for _, p := range cleanPaths(removed) {
		gone[p] = true
	}
	kept := s.folders[:0:0]
	for _, p := range s.folders {
		if !gone[p] {
			kept = append(kept, p)
		}
	}
	s.folders = append(kept, cleanPaths(added)...)
}

// WorkspaceFolders returns a copy of the workspace folders, in the client's order.
func (s *Session) WorkspaceFolders() []string {
	s.foldersMu.Lock()
	defer s.foldersMu.Unlock()
	return append([]string(nil), s.folders...)
}

// CheckDocument is the rule for work that builds or runs a project: it may start for a
// document the editor has open, or for a file inside a workspace folder, and for nothing
// else, so that a command naming some other file on the machine cannot make the server
// build and run the project around it. The answer is nil, or an InvalidParams error that
// says which rule failed. Symbolic links are resolved: a link inside a folder to a file
// outside it is outside. An open document whose text is out of step with the editor's
// (Document.OutOfStep) is refused too, with the message the client was shown, until it is
// back in step.
func (s *Session) CheckDocument(command string, uri protocol.DocumentURI) error {
	if doc, open := s.documents.Get(uri); open {
		if oos := doc.OutOfStep(); oos != nil {
			return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %v", command, oos)
		}
		return nil
	}
	if p := URIPath(uri); p != "" && s.insideFolder(p) {
		return nil
	}
	folders := s.WorkspaceFolders()
	where := "there are no workspace folders"
	if len(folders) > 0 {
		where = "the workspace folders are " + strings.Join(folders, ", ")
	}
	return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %s is outside the workspace folders and not open in the editor (%s)", command, uri, where)
}

func (s *Session) insideFolder(path string) bool {
	real, ok := resolvePath(path)
	if !ok {
		return false
	}
	for _, folder := range s.WorkspaceFolders() {
		if dir, ok := resolvePath(folder); ok && within(dir, real) {
			return true
		}
	}
	return false
}

// within reports whether path is dir or lies below it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// resolvePath resolves the symbolic links of path's longest existing prefix; the rest
// (a file not written yet) is kept as it is. A link that points nowhere cannot be
// resolved: false.
func resolvePath(path string) (string, bool) {
	path = filepath.Clean(path)
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real, true
	}
	if _, err := os.Lstat(path); err == nil {
		return "", false // it exists, yet cannot be resolved: a dangling or looping link
	}
	parent := filepath.Dir(path)
	if parent == path {
		return path, true
	}
	dir, ok := resolvePath(parent)
	return filepath.Join(dir, filepath.Base(path)), ok
}

func cleanPaths(paths []string) []string {
	var out []string
	for _, p := range paths {
		if p != "" {
			out = append(out, filepath.Clean(p))
		}
	}
	return out
}
