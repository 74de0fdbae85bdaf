package knowledge

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/core/store"
)

// ImportLegacy migrates the nodes of rubi's Node.js version into s: the
// .md files of dir/conhecimento (project nodes) and dir/pessoal/conhecimento
// (personal ones, when s has a vault), where dir is that version's .rubi/
// directory or vault (or a conhecimento folder itself). Their Portuguese
// keys, types and statuses (tipo, arquivos, liga {rel, alvo}, substitui,
// decisao, armadilha, ativo, substituido…) are read as rubi's, and each
// node is registered like a new one: ids are kept (so links between them
// still hold, and a node under knowledge/ shadows its legacy file), the
// creation date too, and superseded or retracted nodes keep that status.
// Importing twice merges into the same nodes. A file that cannot be read
// is an error Result naming the file and line.
func ImportLegacy(dir string, s *Store) ([]Result, error) {
	type source struct {
		dir      string
		personal bool
	}
	var sources []source
	if filepath.Base(dir) == "conhecimento" {
		sources = append(sources, source{dir, filepath.Base(filepath.Dir(dir)) == "pessoal"})
	} else {
		sources = append(sources, source{filepath.Join(dir, "conhecimento"), false})
		if s.vault != nil {
			sources = append(sources, source{filepath.Join(dir, "pessoal", "conhecimento"), true})
		}
	}
	var results []Result
	var inputs []Input
	var olds []*Node
	for _, src := range sources {
		des, err := os.ReadDir(src.dir)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return results, err
		}
		sort.Slice(des, func(i, j int) bool { return des[i].Name() < des[j].Name() })
		for _, de := range des {
			name := de.Name()
			if strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".md") || !de.Type().IsRegular() {
				continue
			}
			p := filepath.Join(src.dir, name)
			data, err := store.ReadWithin(dir, p, maxNoteFile)
			if err != nil {
				results = append(results, Result{Action: ActionError, Path: p, Error: err.Error()})
				continue
			}
			n, _, err := decodeNode(p, data)
			if err != nil {
				results = append(results, Result{Action: ActionError, Path: p, Error: errProblem(p, err).String()})
				continue
			}
			created := n.Created
			if created.IsZero() {
				if fi, err := de.Info(); err == nil {
					created = fi.ModTime().UTC()
				}
			}
			in := Input{
				ID: n.ID, Type: n.Type, Title: n.Title, Body: n.Body, Files: n.Files,
				Symbols: n.Symbols, Tags: n.Tags, Links: n.Links, Supersedes: n.Supersedes,
				Importance: n.Importance, Personal: src.personal,
			}
			if !created.IsZero() {
				in.Created = &created
			}
			inputs = append(inputs, in)
			n.Personal = src.personal
			olds = append(olds, n)
		}
	}
	if len(inputs) == 0 {
		return results, nil
	}
	res, err := s.Register(context.Background(), inputs)
	if err != nil {
		return append(results, res...), err
	}
	// Statuses Register did not set itself: a node retracted, or
	// superseded by a node that does not say so.
	for i, r := range res {
		old := olds[i]
		if r.Action == ActionError || old.Status == StatusActive {
			continue
		}
		sc := &s.project
		if old.Personal {
			sc = s.vault
		}
		err := s.update(sc, r.ID, func(_ *loaded, n *Node) (*Node, error) {
			if n.Status == old.Status {
				return nil, nil
			}
			c := n.Clone()
			c.Status = old.Status
			if old.Status == StatusSuperseded {
				if c.SupersededBy == "" {
					c.SupersededBy = old.SupersededBy
				}
				if c.ValidUntil == nil {
					v := old.Updated
					if old.ValidUntil != nil {
						v = *old.ValidUntil
					}
					if v.IsZero() {
						v = time.Now().UTC().Truncate(time.Second)
					}
					c.ValidUntil = &v
				}
			}
			return c, nil
		})
		if err != nil {
			res[i].Notes = append(res[i].Notes, fmt.Sprintf("could not restore status %s: %v", old.Status, err))
		}
	}
	return append(results, res...), nil
}
