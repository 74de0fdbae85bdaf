package pipeline

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codemap"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/store"
)

// maxFilePage bounds what is read of a file page the index wrote, to
// compare it: a page names a file, its module and the notes naming it.
const maxFilePage = 1 << 20

// writeVault makes .rubi/ an Obsidian vault whose links resolve
// (codemap.Vault): a page in files/ for each file a note of the project
// names, and the links section of each module's page, after the maps of
// this index are written (or kept) and the notes read. Pages are only
// rewritten when their text changes, and the file pages no note names
// any more are removed.
func (e *Engine) writeVault(m *manifest.Manifest, edges []core.Edge) error {
	c := e.maps
	dataDir := c.project.Dir()
	all, _ := e.nodes.All(0)
	var refs []codemap.NoteRef
	for _, n := range all {
		if n.Key == "" {
			continue // a conversation chunk
		}
		// The project's notes only: the personal vault's are elsewhere.
		rel, err := filepath.Rel(dataDir, n.Path)
		if err != nil || !filepath.IsLocal(rel) {
			continue
		}
		if page := codemap.NotePage(filepath.ToSlash(rel)); page != "" {
			refs = append(refs, codemap.NoteRef{Page: page, Files: n.About})
		}
	}
	cm := c.build(m, edges)
	v := cm.Vault(refs)
	dir := filepath.Join(dataDir, modulesDir)
	for _, mod := range cm.Modules {
		p := filepath.Join(dir, codemap.Slug(mod.Name)+".md")
		data, err := store.ReadWithin(c.cfg.Root, p, maxModulePage)
		if err != nil {
			continue // the maps' next full write makes it
		}
		if err := c.writeIfChanged(p, codemap.WithoutLinks(string(data))+v.Modules[mod.Name]); err != nil {
			return err
		}
	}
	files := filepath.Join(dataDir, codemap.FilesDir)
	for page, content := range v.Files {
		p := filepath.Join(dataDir, filepath.FromSlash(page))
		// A folder on the way may be a link the repository committed:
		// nothing is written outside .rubi/.
		if !store.Inside(dataDir, filepath.Dir(p)) || os.MkdirAll(filepath.Dir(p), 0o755) != nil {
			continue
		}
		if old, err := store.ReadWithin(dataDir, p, maxFilePage); err == nil && string(old) == content {
			continue
		}
		if err := store.WriteFile(p, []byte(content), 0o644); err != nil {
			return err
		}
	}
	// The pages no note names any more, then the folders they leave empty
	// (deepest first: WalkDir lists a folder before what it holds).
	var dirs []string
	err := filepath.WalkDir(files, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			dirs = append(dirs, p)
			return nil
		}
		rel, err := filepath.Rel(dataDir, p)
		if err == nil && d.Type().IsRegular() && strings.HasSuffix(p, ".md") && v.Files[filepath.ToSlash(rel)] == "" {
			os.Remove(p)
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		os.Remove(dirs[i]) // fails, as it should, on a folder not empty
	}
	return nil
}
