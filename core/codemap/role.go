package codemap

import (
	"bufio"
	"bytes"
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
)

// File roles: what a file is for in its project. Ranking weighs a file by
// what the question asks for (a bug report asks for code, "how do I
// install" for docs), and vendored and generated files are left out of
// search and centrality unless the configuration brings them back.
const (
	RoleCode      = "code"
	RoleTest      = "test"
	RoleDocs      = "docs"
	RoleConfig    = "config"
	RoleBuild     = "build"
	RoleData      = "data"
	RoleVendored  = "vendored"
	RoleGenerated = "generated"
)

// Roles lists every role, in the order the documentation gives them.
var Roles = []string{RoleCode, RoleTest, RoleDocs, RoleConfig, RoleBuild, RoleData, RoleVendored, RoleGenerated}

// RoleOf names the role of the file at slash path p, whose language rubi
// detected as lang ("" when none). attrs are the project's
// .gitattributes (nil when none); generated says its head reads as
// generated code (GeneratedHeader). The first of these that applies
// wins: the linguist attributes, a vendored folder, generated content or
// a generated name, tests, then the conventions of names and extensions.
func RoleOf(p, lang string, attrs *Attributes, generated bool) string {
	for _, r := range []string{RoleVendored, RoleGenerated, RoleDocs} {
		if attrs.state(p, r) > 0 {
			return r
		}
	}
	if inVendored(p) && attrs.state(p, RoleVendored) == 0 {
		return RoleVendored
	}
	base := path.Base(p)
	lower := strings.ToLower(base)
	if (generated || generatedNames[lower] || isGeneratedName(lower)) && attrs.state(p, RoleGenerated) == 0 {
		return RoleGenerated
	}
	if IsTest(p) || lower == "conftest.py" {
		return RoleTest
	}
	ext := path.Ext(lower)
	stem := strings.TrimSuffix(lower, ext)
	switch {
	case buildNames[lower] || buildExts[ext] || strings.HasPrefix(lower, "dockerfile") || underCI(p):
		return RoleBuild
	case (docNames[stem] || docExts[ext] || lang == "markdown" || inDocs(p) || inExamples(p)) && attrs.state(p, RoleDocs) == 0:
		return RoleDocs
	case configNames[lower] || configExts[ext] || strings.HasPrefix(lower, ".") && strings.Count(lower, ".") == 1 || strings.HasPrefix(lower, ".env") ||
		strings.Contains(lower, ".conf.") || strings.Contains(lower, ".config."):
		return RoleConfig
	case inLocale(p) || dataExts[ext] || isQueryFile(p, ext):
		return RoleData
	case lang != "" || codeExts[ext]:
		return RoleCode
	}
	return RoleData
}

// DirRole is the role a folder's path gives the files under it: docs for
// documentation and examples, vendored, test, else code (the files' own
// names and extensions decide the rest).
func DirRole(dir string) string {
	probe := dir + "/_"
	switch {
	case inVendored(probe):
		return RoleVendored
	case IsTest(dir):
		return RoleTest
	case inDocs(probe) || inExamples(probe):
		return RoleDocs
	}
	return RoleCode
}

// vendoredDirs are folder names that hold other projects' code copied in.
var vendoredDirs = map[string]bool{
	"vendor": true, "_vendor": true, "vendored": true, "third_party": true, "third-party": true,
	"thirdparty": true, "3rdparty": true, "node_modules": true, "bower_components": true, "site-packages": true,
	"extern": true, "cextern": true, "external": true,
}

func inVendored(p string) bool {
	dir := path.Dir(p)
	for dir != "." && dir != "/" {
		if vendoredDirs[path.Base(dir)] {
			return true
		}
		dir = path.Dir(dir)
	}
	return false
}

// docDirs hold documentation, code included (a Sphinx conf.py, the
// examples a guide shows), as GitHub's linguist counts them: a question
// about using the project finds them in full.
var docDirs = map[string]bool{"doc": true, "docs": true, "documentation": true, "man": true, "website": true}

// exampleDirs hold examples, tutorials and galleries: documentation
// written as code (GitHub's linguist counts examples/ as documentation
// too). They share the project's words and names, which is why a
// question about the project's own code would otherwise find them first.
var exampleDirs = map[string]bool{
	"example": true, "examples": true, "tutorial": true, "tutorials": true, "samples": true,
	"demo": true, "demos": true, "gallery": true, "galleries": true, "cookbook": true,
}

func inDocs(p string) bool {
	for _, part := range strings.Split(path.Dir(p), "/") {
		if docDirs[strings.ToLower(part)] {
			return true
		}
	}
	return false
}

func inExamples(p string) bool {
	for _, part := range strings.Split(path.Dir(p), "/") {
		if exampleDirs[strings.ToLower(part)] {
			return true
		}
	}
	return false
}

// inLocale reports translation catalogs: data, whatever their extension.
func inLocale(p string) bool {
	return strings.Contains("/"+p, "/locale/") || strings.Contains("/"+p, "/locales/") || strings.Contains(p, "/LC_MESSAGES/")
}

// isQueryFile reports the pattern files a parser loads, tree-sitter's
// queries (queries/highlights.scm, queries/ruby/tags.scm): data read by
// code, written in a Lisp-like syntax, not a program of the project. A
// Scheme file elsewhere stays code.
func isQueryFile(p, ext string) bool {
	return ext == ".scm" && strings.Contains("/"+path.Dir(p)+"/", "/queries/")
}

// underCI reports the folders of continuous integration set-ups.
func underCI(p string) bool {
	return strings.HasPrefix(p, ".github/workflows/") || strings.HasPrefix(p, ".circleci/") ||
		strings.HasPrefix(p, ".gitlab/") || strings.HasPrefix(p, ".buildkite/") || strings.HasPrefix(p, ".ci/")
}

var (
	docExts = map[string]bool{
		".md": true, ".markdown": true, ".rst": true, ".txt": true, ".adoc": true, ".asciidoc": true,
		".org": true, ".rdoc": true, ".pod": true, ".tex": true, ".texi": true, ".man": true, ".1": true,
		".ipynb": true, ".mdx": true,
	}
	// docNames are matched on the name without extension, lower case.
	docNames = map[string]bool{
		"readme": true, "changelog": true, "changes": true, "history": true, "news": true, "authors": true,
		"contributors": true, "contributing": true, "license": true, "licence": true, "copying": true,
		"notice": true, "code_of_conduct": true, "security": true, "todo": true, "releasing": true,
	}
	configExts = map[string]bool{
		".yml": true, ".yaml": true, ".toml": true, ".ini": true, ".cfg": true, ".conf": true,
		".properties": true, ".editorconfig": true, ".env": true, ".hcl": true, ".plist": true,
	}
	configNames = map[string]bool{
		"setup.cfg": true, "tox.ini": true, "pytest.ini": true, "mypy.ini": true, ".flake8": true,
		"pylintrc": true, ".pylintrc": true, "tsconfig.json": true, "jsconfig.json": true,
		".eslintrc": true, ".eslintrc.json": true, ".prettierrc": true, ".babelrc": true,
		"renovate.json": true, ".pre-commit-config.yaml": true, "codecov.yml": true,
	}
	buildExts  = map[string]bool{".mk": true, ".cmake": true, ".bzl": true, ".gradle": true, ".spec": true}
	buildNames = map[string]bool{
		"makefile": true, "gnumakefile": true, "cmakelists.txt": true, "setup.py": true, "noxfile.py": true,
		"setupext.py": true, "versioneer.py": true, "fabfile.py": true, "conanfile.py": true,
		"pyproject.toml": true, "manifest.in": true, "requirements.txt": true, "pipfile": true,
		"go.mod": true, "go.work": true, "package.json": true, "cargo.toml": true, "build.gradle": true,
		"build.gradle.kts": true, "settings.gradle": true, "pom.xml": true, "build": true, "build.bazel": true,
		"workspace": true, "module.bazel": true, "meson.build": true, "configure.ac": true, "configure": true,
		"jenkinsfile": true, ".gitlab-ci.yml": true, ".travis.yml": true, "appveyor.yml": true,
		"azure-pipelines.yml": true, "rakefile": true, "gemfile": true, "composer.json": true, "justfile": true,
		"taskfile.yml": true, "vagrantfile": true, "docker-compose.yml": true, "docker-compose.yaml": true,
	}
	// dataExts are data whatever folder they are in.
	dataExts = map[string]bool{
		".csv": true, ".tsv": true, ".po": true, ".pot": true, ".mo": true, ".svg": true,
		".dat": true, ".jsonl": true, ".ndjson": true,
	}
	// codeExts are source files rubi has no parser for.
	codeExts = map[string]bool{
		".sh": true, ".bash": true, ".zsh": true, ".fish": true, ".ps1": true, ".bat": true, ".cmd": true,
		".sql": true, ".lua": true, ".pl": true, ".pm": true, ".r": true, ".swift": true, ".m": true,
		".mm": true, ".scala": true, ".sc": true, ".ex": true, ".exs": true, ".erl": true, ".hs": true,
		".ml": true, ".mli": true, ".fs": true, ".clj": true, ".cljs": true, ".el": true, ".vim": true,
		".scm": true, ".tf": true, ".proto": true, ".graphql": true, ".zig": true, ".nim": true,
		".jl": true, ".groovy": true, ".pyx": true, ".pxd": true, ".cu": true, ".f90": true, ".asm": true,
		".s": true, ".html": true, ".htm": true, ".jinja": true, ".j2": true, ".tmpl": true, ".erb": true,
		".twig": true, ".hbs": true, ".wat": true, ".sol": true, ".v": true, ".sv": true, ".vhd": true,
	}
	// generatedNames are lock files and other files tools write.
	generatedNames = map[string]bool{
		"package-lock.json": true, "yarn.lock": true, "pnpm-lock.yaml": true, "go.sum": true,
		"cargo.lock": true, "poetry.lock": true, "pipfile.lock": true, "composer.lock": true,
		"gemfile.lock": true, "npm-shrinkwrap.json": true, "bun.lockb": true, "uv.lock": true,
		"pdm.lock": true, "flake.lock": true, "mix.lock": true, "pubspec.lock": true,
	}
)

// isGeneratedName reports names that code generators and minifiers give
// their output.
func isGeneratedName(lower string) bool {
	for _, suf := range []string{
		".min.js", ".min.css", ".min.mjs", "-min.js", ".bundle.js", ".pb.go", "_pb2.py", "_pb2_grpc.py",
		".pb.h", ".pb.cc", "_generated.go", ".generated.go", ".g.dart", ".freezed.dart", ".designer.cs",
		".js.map", ".css.map", ".gen.go",
	} {
		if strings.HasSuffix(lower, suf) {
			return true
		}
	}
	return strings.HasPrefix(lower, "zz_generated")
}

// generatedMarker matches the comments generators put at the top of what
// they write: Go's "Code generated … DO NOT EDIT." and the usual
// variants of other tools.
var generatedMarker = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(code generated .{0,200}do not edit|@generated\b|this file (is|was) (auto(matically)?[- ]?)?generated|auto-?generated (file|code|by)|generated by .{0,80}\bdo not (edit|modify)|do not edit[,.]? (this file|it)\b.{0,40}generated)`)
})

// headLines is how many lines of a file's head GeneratedHeader reads.
const headLines = 12

// GeneratedHeader reports whether the head of a file says a tool wrote
// it (a marker in its first lines), or it is minified: a line of more
// than 2,000 bytes among its first lines, in a file of few lines.
func GeneratedHeader(head []byte) bool {
	rest := head
	long := 0
	for i := 0; i < headLines && len(rest) > 0; i++ {
		line := rest
		if j := bytes.IndexByte(rest, '\n'); j >= 0 {
			line, rest = rest[:j], rest[j+1:]
		} else {
			rest = nil
		}
		if len(line) > 2000 {
			long++
			line = line[:2000]
		}
		// Every marker says "generated" (any case): lines without it
		// skip the regular expression, which every file's head would
		// otherwise pay for.
		if (bytes.Contains(line, []byte("enerat")) || bytes.Contains(line, []byte("ENERAT"))) && generatedMarker().Match(line) {
			return true
		}
	}
	return long > 0 && bytes.Count(head, []byte{'\n'}) < 20
}

// Attributes are the linguist attributes of a project's .gitattributes
// files, as far as they set roles: linguist-vendored,
// linguist-generated and linguist-documentation, each set (`attr`,
// `attr=true`) or unset (`-attr`, `attr=false`). A nil *Attributes has
// none.
type Attributes struct {
	rules []attrRule
}

type attrRule struct {
	dir      string // the folder of the .gitattributes file, "" at the root
	pattern  string
	anchored bool
	role     string // the role a set attribute gives
	set      bool   // false: the attribute is unset, so the path is not of that role
}

var linguistRoles = map[string]string{
	"linguist-vendored": RoleVendored, "linguist-generated": RoleGenerated, "linguist-documentation": RoleDocs,
}

// Add reads one .gitattributes file found at slash path p (relative to
// the project root). Lines it cannot use are skipped: attributes never
// make an index fail.
func (a *Attributes) Add(p string, data []byte) {
	dir := path.Dir(p)
	if dir == "." {
		dir = ""
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 || strings.HasPrefix(fields[0], "#") || strings.HasPrefix(fields[0], "[attr]") {
			continue
		}
		pattern := strings.TrimPrefix(fields[0], "/")
		anchored := strings.Contains(strings.TrimSuffix(fields[0], "/"), "/")
		if strings.HasSuffix(pattern, "/") {
			pattern += "**" // a folder: what it holds
			anchored = true
		}
		if !doublestar.ValidatePattern(pattern) {
			continue
		}
		for _, attr := range fields[1:] {
			name, val, hasVal := strings.Cut(attr, "=")
			set := true
			if strings.HasPrefix(name, "-") || strings.HasPrefix(name, "!") {
				name, set = name[1:], false
			} else if hasVal {
				set = val == "true" || val == "1"
			}
			if role, ok := linguistRoles[name]; ok {
				a.rules = append(a.rules, attrRule{dir: dir, pattern: pattern, anchored: anchored, role: role, set: set})
			}
		}
	}
}

// state says what the attributes make of p for role: 1 when they set
// it, -1 when they unset it (the convention that would give it does not
// apply), 0 when they say nothing. The last matching line wins, deeper
// files after shallower ones (Add's order).
func (a *Attributes) state(p, role string) int {
	if a == nil {
		return 0
	}
	for i := len(a.rules) - 1; i >= 0; i-- {
		r := &a.rules[i]
		if r.role != role {
			continue
		}
		sub := p
		if r.dir != "" {
			if !strings.HasPrefix(p, r.dir+"/") {
				continue
			}
			sub = p[len(r.dir)+1:]
		}
		target := sub
		if !r.anchored {
			target = path.Base(sub)
		}
		if !doublestar.MatchUnvalidated(r.pattern, target) {
			continue
		}
		if r.set {
			return 1
		}
		return -1
	}
	return 0
}

// Empty reports attributes that set no role.
func (a *Attributes) Empty() bool { return a == nil || len(a.rules) == 0 }
