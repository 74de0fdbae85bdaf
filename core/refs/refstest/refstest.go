// Package refstest builds a refs.Project over a folder, the way an index
// run sees it, for the resolvers' tests and benchmarks: the files the
// walker accepts (ignore files, default excludes), their languages, the
// package clause and imports of each Go file (go/parser, imports only),
// the other languages' facts from a parser the test gives (Parsed), and
// the imports core/resolve resolves between them. Contents are read
// as rubi reads any file a repository supplies (store.ReadWithin).
package refstest

import (
	"context"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/resolve"
	"github.com/rubi-dev/rubi/core/store"
	"github.com/rubi-dev/rubi/core/walk"
)

// maxRead caps a file read, as the index's default max_file_size does.
const maxRead = 8 << 20

// Project is a folder's files, facts and resolved imports.
type Project struct {
	root      string
	byLang    map[string][]string
	facts     map[string]core.FileFacts
	imports   map[string][]string
	importers map[string][]string
}

// Dir walks root and resolves its Go files' imports.
func Dir(ctx context.Context, root string) (*Project, error) { return Parsed(ctx, root, nil) }

// Parse is a parser's Parse: the facts of the files given.
type Parse func(ctx context.Context, files []core.SourceFile) ([]core.FileFacts, error)

// Parsed is Dir with the facts of the files of other languages than Go
// from parse (the regex parser's, in the resolvers' tests), and their
// imports resolved too.
func Parsed(ctx context.Context, root string, parse Parse) (*Project, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	p := &Project{root: root, byLang: map[string][]string{}, facts: map[string]core.FileFacts{}, imports: map[string][]string{}, importers: map[string][]string{}}
	var paths []string
	_, err = walk.Walk(ctx, root, walk.Options{MaxFileSize: maxRead}, func(f walk.File) error {
		paths = append(paths, f.Path)
		return nil
	})
	if err != nil {
		return nil, err
	}
	var facts []core.FileFacts
	var srcs []core.SourceFile
	for _, f := range paths {
		lang := core.DetectLanguage(f)
		if lang == "" {
			continue
		}
		p.byLang[lang] = append(p.byLang[lang], f)
		ff := core.FileFacts{Path: f, Language: lang}
		if lang == core.LangGo {
			ff = p.goFacts(f)
		}
		p.facts[f] = ff
		if lang != core.LangGo && parse != nil {
			src, err := p.Read(f)
			if err != nil {
				return nil, err
			}
			srcs = append(srcs, core.SourceFile{Path: f, Language: lang, Content: src})
			continue
		}
		facts = append(facts, ff)
	}
	if len(srcs) > 0 {
		parsed, err := parse(ctx, srcs)
		if err != nil {
			return nil, err
		}
		for _, ff := range parsed {
			p.facts[ff.Path] = ff
			facts = append(facts, ff)
		}
	}
	rp, err := resolve.NewProject(root, paths)
	if err != nil {
		return nil, err
	}
	for _, ff := range facts {
		for _, im := range ff.Imports {
			ts, _ := rp.Resolve(ff.Path, ff.Language, im)
			for _, t := range ts {
				if !slices.Contains(p.imports[ff.Path], t) {
					p.imports[ff.Path] = append(p.imports[ff.Path], t)
					p.importers[t] = append(p.importers[t], ff.Path)
				}
			}
		}
	}
	for _, m := range []map[string][]string{p.imports, p.importers} {
		for _, l := range m {
			slices.Sort(l)
		}
	}
	return p, nil
}

// goFacts reads a Go file's package clause and imports.
func (p *Project) goFacts(f string) core.FileFacts {
	ff := core.FileFacts{Path: f, Language: core.LangGo}
	src, err := p.Read(f)
	if err != nil {
		return ff
	}
	fset := token.NewFileSet()
	af, _ := parser.ParseFile(fset, f, src, parser.ImportsOnly|parser.SkipObjectResolution)
	if af == nil || af.Name == nil {
		return ff
	}
	ff.Package = af.Name.Name
	for _, im := range af.Imports {
		if spec, err := strconv.Unquote(im.Path.Value); err == nil {
			ff.Imports = append(ff.Imports, core.Import{Spec: spec, Line: fset.Position(im.Pos()).Line, Kind: core.ImportStatic})
		}
	}
	return ff
}

// Files lists the files of a language, sorted.
func (p *Project) Files(language string) []string { return p.byLang[language] }

// Facts returns a file's package and imports.
func (p *Project) Facts(path string) (core.FileFacts, bool) {
	ff, ok := p.facts[path]
	return ff, ok
}

// Imports lists the files path's imports resolve to.
func (p *Project) Imports(path string) []string { return p.imports[path] }

// Importers lists the files whose imports resolve to path.
func (p *Project) Importers(path string) []string { return p.importers[path] }

// Read returns a file's contents.
func (p *Project) Read(path string) ([]byte, error) {
	return store.ReadWithin(p.root, filepath.Join(p.root, filepath.FromSlash(path)), maxRead)
}
