package pipeline

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codemap"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/store"
)

// maxFilePage bounds what is read of a file page the index wrote, to
// compare it: a page names a file, its module and the notes naming it.
const maxFilePage = 1 << 20

// vaultSumFile, in the index folder, is what the vault's last write left:
// a first line "rubi-vault HASH", HASH that of the lines after it, then
// one line per page it holds, "HASH PAGE", PAGE a path under .rubi/ (a
// file page, or a module page whose links section HASH is), sorted. With
// it a write reads and writes only the pages whose text changed; without
// it (a first write, a full index, or the file lost or damaged) every
// page is read and compared, and the folder of file pages walked for
// pages no note names.
const vaultSumFile = "vault.sum"

// vaultBehindFile, in the index folder, says a notes' delta changed what
// the vault shows and left its write to the next index run.
const vaultBehindFile = "vault.behind"

// vaultBehind reports whether a notes' delta left the vault's write to
// this run.
func (e *Engine) vaultBehind() bool {
	return isRegular(filepath.Join(e.maps.indexDir, vaultBehindFile))
}

// markVaultBehind leaves the vault's write to the next index run.
func (e *Engine) markVaultBehind() error {
	if e.vaultBehind() {
		return nil
	}
	return store.WriteDerived(filepath.Join(e.maps.indexDir, vaultBehindFile), nil, 0o644)
}

// maxVaultSum bounds what is read of vault.sum: ~80 bytes a page.
const maxVaultSum = 64 << 20

// writeVault makes .rubi/ an Obsidian vault whose links resolve
// (codemap.Vault): a page in files/ for each file a note of the project
// names, and the links section of each module's page, after the maps of
// this index are written (or kept) and the notes read. edges are the
// import edges, in every run, so that a notes' delta, which holds no
// other, draws the same links. What changed since the last write is told
// by vault.sum: a page is read only when its text must change, or when
// the maps just wrote its module page anew (codeMaps.rewrote); the file
// pages no note names any more are removed. It runs under the index's
// lock, on the hook's path too (a notes' delta): its cost follows the
// pages that change, not the project.
func (e *Engine) writeVault(m *manifest.Manifest, edges iter.Seq[*core.Edge], full bool) error {
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
	cm := c.build(m, nil, edges)
	v := cm.Vault(refs)
	sumPath := filepath.Join(c.indexDir, vaultSumFile)
	prev, known := readVaultSum(c.indexDir, sumPath)
	known = known && !full
	files := filepath.Join(dataDir, codemap.FilesDir)
	if _, err := os.Lstat(files); err != nil && len(v.Files) > 0 {
		known = false // the folder of file pages was removed: all of it again
	}
	next := make(map[string]string, len(v.Files)+len(cm.Modules))

	for _, mod := range cm.Modules {
		key := modulesDir + "/" + codemap.Slug(mod.Name) + ".md"
		links := v.Modules[mod.Name]
		h := pageHash(links)
		if known && prev[key] == h && !c.rewrote[mod.Name] {
			next[key] = h
			continue
		}
		p := filepath.Join(dataDir, filepath.FromSlash(key))
		data, err := store.ReadWithin(c.cfg.Root, p, maxModulePage)
		if err != nil {
			continue // the maps' next full write makes it; not recorded
		}
		if err := c.writeIfChanged(p, codemap.WithoutLinks(string(data))+links); err != nil {
			return err
		}
		next[key] = h
	}
	c.rewrote = nil

	for page, content := range v.Files {
		h := pageHash(content)
		if known && prev[page] == h {
			next[page] = h
			continue
		}
		p := filepath.Join(dataDir, filepath.FromSlash(page))
		// A folder on the way may be a link the repository committed:
		// nothing is written outside .rubi/.
		if !store.Inside(dataDir, filepath.Dir(p)) || os.MkdirAll(filepath.Dir(p), 0o755) != nil {
			continue
		}
		next[page] = h
		if !known {
			if old, err := store.ReadWithin(dataDir, p, maxFilePage); err == nil && string(old) == content {
				continue
			}
		}
		// Derived, as the sum is: a page a power cut loses comes back
		// with the next change of its text or the next full index.
		if err := store.WriteDerived(p, []byte(content), 0o644); err != nil {
			return err
		}
	}

	// The pages no note names any more, then the folders they leave empty.
	if known {
		var gone []string
		for page := range prev {
			if _, ok := next[page]; !ok && strings.HasPrefix(page, codemap.FilesDir+"/") {
				gone = append(gone, filepath.Join(dataDir, filepath.FromSlash(page)))
			}
		}
		removePages(c.cfg.Root, files, gone)
	} else if err := sweepFilePages(dataDir, files, v.Files); err != nil {
		return err
	}
	if err := writeVaultSum(sumPath, next); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(c.indexDir, vaultBehindFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// removePages removes the file pages given, regular files whose path
// stays inside the project root once its links are resolved (a folder of
// .rubi/files/ may have become a link out of the project since the pages
// were written), and then each folder on their way that they leave empty,
// up to folder (which stays).
func removePages(root, folder string, pages []string) {
	dirs := map[string]bool{}
	for _, p := range pages {
		if !store.Inside(root, p) {
			continue
		}
		if st, err := os.Lstat(p); err == nil && st.Mode().IsRegular() {
			os.Remove(p)
		}
		for d := filepath.Dir(p); d != folder && strings.HasPrefix(d, folder+string(filepath.Separator)) && store.Inside(root, d); d = filepath.Dir(d) {
			dirs[d] = true
		}
	}
	// Deepest first: a folder is removed only once empty.
	list := slices.SortedFunc(maps.Keys(dirs), func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	for _, d := range list {
		os.Remove(d) // fails, as it should, on a folder not empty
	}
}

// sweepFilePages removes, from the folder of file pages, the pages not in
// want (vault path → content), then the folders they leave empty: the
// write without vault.sum, which cannot tell which pages it wrote before.
func sweepFilePages(dataDir, files string, want map[string]string) error {
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
		if err == nil && d.Type().IsRegular() && strings.HasSuffix(p, ".md") && want[filepath.ToSlash(rel)] == "" {
			os.Remove(p)
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	// Deepest first: WalkDir lists a folder before what it holds.
	for i := len(dirs) - 1; i >= 0; i-- {
		os.Remove(dirs[i]) // fails, as it should, on a folder not empty
	}
	return nil
}

// pageHash is the hash vault.sum keeps of a page's text.
func pageHash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:12])
}

// readVaultSum reads vault.sum; known is false when there is none or it
// cannot be trusted (not a regular file, too large, damaged: its hash
// does not match, or a line is not of the form it writes), and the write
// then compares every page.
func readVaultSum(indexDir, path string) (map[string]string, bool) {
	data, err := store.ReadWithin(indexDir, path, maxVaultSum)
	if err != nil {
		return nil, false
	}
	head, body, _ := strings.Cut(string(data), "\n")
	if head != vaultSumHead+" "+pageHash(body) {
		return nil, false
	}
	out := map[string]string{}
	for line := range strings.Lines(body) {
		h, page, ok := strings.Cut(strings.TrimSuffix(line, "\n"), " ")
		if !ok || len(h) != 24 || page == "" || !filepath.IsLocal(filepath.FromSlash(page)) {
			return nil, false
		}
		out[page] = h
	}
	return out, true
}

// vaultSumHead starts vault.sum's first line.
const vaultSumHead = "rubi-vault"

// writeVaultSum writes vault.sum, sorted, atomically; derived, as the
// pages are.
func writeVaultSum(path string, sums map[string]string) error {
	var b strings.Builder
	for _, page := range slices.Sorted(maps.Keys(sums)) {
		b.WriteString(sums[page] + " " + page + "\n")
	}
	body := b.String()
	if err := store.WriteDerived(path, []byte(vaultSumHead+" "+pageHash(body)+"\n"+body), 0o644); err != nil {
		return fmt.Errorf("write the vault's record: %w", err)
	}
	return nil
}
