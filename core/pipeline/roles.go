package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"iter"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codemap"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/store"
)

// rolesFormat changes with the rules of codemap.RoleOf and of the
// modules (codemap.Roots: "3" made Python packages modules; "4" made
// tree-sitter's query files data), so that an index built with other
// rules is rebuilt.
const rolesFormat = "4"

// maxAttributesFile bounds what is read of one .gitattributes file.
const maxAttributesFile = 1 << 20

// attributes reads the project's .gitattributes files among the walked
// files, shallower first (a deeper file's lines come after and win), and
// returns them with the signature of what decides roles: their content,
// the hidden roles and the rules' format. An unreadable file has no
// lines: attributes never make an index fail.
func attributes(root string, ix *config.Index, files []*scanned) (*codemap.Attributes, string) {
	var found []string
	const name = ".gitattributes"
	for _, s := range files {
		// path.Base, for a walked path (no trailing slash), as every
		// refresh asks it of every file.
		if p := s.file.Path; strings.HasSuffix(p, name) && (len(p) == len(name) || p[len(p)-len(name)-1] == '/') {
			found = append(found, p)
		}
	}
	slices.SortFunc(found, func(a, b string) int {
		if da, db := strings.Count(a, "/"), strings.Count(b, "/"); da != db {
			return da - db
		}
		return strings.Compare(a, b)
	})
	h := sha256.New()
	h.Write([]byte(rolesFormat + "\x00" + strings.Join(ix.HiddenRoles, ",") + "\x00"))
	// The module rules too: the keep path of a run that changed no file
	// would leave every record in its old module.
	fmt.Fprintf(h, "modules %q %d\x00", ix.ModuleRoots, ix.ModuleDepth)
	attrs := &codemap.Attributes{}
	for _, p := range found {
		data, err := store.ReadWithin(root, filepath.Join(root, filepath.FromSlash(p)), maxAttributesFile)
		if err != nil {
			continue
		}
		attrs.Add(p, data)
		h.Write([]byte(p + "\x00"))
		h.Write(data)
		h.Write([]byte{0})
	}
	return attrs, hex.EncodeToString(h.Sum(nil)[:12])
}

// roles is index.hidden_roles at work: the files of those roles (vendored,
// generated) are indexed and mapped, but kept out of search and of
// centrality.
type roles struct {
	ix *config.Index
}

// hides reports whether a file's role keeps it out of search and
// centrality.
func (r roles) hides(rec *manifest.Record) bool {
	return rec != nil && rec.Role != "" && slices.Contains(r.ix.HiddenRoles, rec.Role)
}

// visible leaves out the edges that touch a hidden file.
func (r roles) visible(m *manifest.Manifest, edges []core.Edge) []core.Edge {
	if len(r.ix.HiddenRoles) == 0 {
		return edges
	}
	out := make([]core.Edge, 0, len(edges))
	for _, ed := range edges {
		if r.hidesID(m, ed.From) || r.hidesID(m, ed.To) {
			continue
		}
		out = append(out, ed)
	}
	return out
}

func (r roles) hidesID(m *manifest.Manifest, id string) bool {
	kind, key, err := core.SplitDocID(id)
	if err != nil || kind != core.DocFile {
		return false
	}
	return m.RoleIn(key, r.ix.HiddenRoles)
}

// linkGraphEdges adds to c, by number (core.Corpus.Link; at holds the
// places of c's documents by id), the edges of edges the rankers' graph
// gets: those r shows in m (visible; the zero roles show all), less those
// of test cases. A test imports what it tests and the helpers of half the
// project, so a walk through it links files that have nothing to do with
// each other ("imported by host_test.go"). Both filters go in one pass,
// no copy of the edges made on the way: each copy was as large as the
// corpus's own edges, a gigabyte on a large tree.
func linkGraphEdges(c *core.Corpus, at map[string]int, r roles, m *manifest.Manifest, edges iter.Seq[*core.Edge]) {
	hidden := r.ix != nil && len(r.ix.HiddenRoles) > 0
	for ed := range edges {
		if hidden && (r.hidesID(m, ed.From) || r.hidesID(m, ed.To)) {
			continue
		}
		if kind, key, err := core.SplitDocID(ed.From); err == nil && kind == core.DocFile && codemap.IsTestCase(key) {
			continue
		}
		c.Link(ed, placeOf(at, ed.From), placeOf(at, ed.To))
	}
}

// placeOf is the place of the document id among at's, -1 when it has
// none.
func placeOf(at map[string]int, id string) int {
	if k, ok := at[id]; ok {
		return k
	}
	return -1
}
