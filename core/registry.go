package core

import (
	"fmt"
	"regexp"
	"sort"
	"sync"
)

// Factory makes a new, unconfigured stage. It has no side effects: setup
// happens in Configure.
type Factory func() Stage

// Builtin is a stage compiled into rubi.
type Builtin struct {
	Name    string
	Kind    Kind
	Factory Factory
}

var (
	registryMu sync.RWMutex
	registry   = map[string]Builtin{}
)

// stageName is a namespaced id: "rank.bm25", "lang.treesitter".
var stageName = regexp.MustCompile(`^[a-z][a-z0-9_-]*\.[a-z0-9][a-z0-9_.-]*$`)

// Namespaces maps the first part of a stage name to its kind.
var Namespaces = map[string]Kind{"source": KindSource, "lang": KindParser, "rank": KindRanker, "fuse": KindFuser, "rerank": KindReranker}

// ValidStageName reports whether name is a well-formed namespaced id whose
// namespace agrees with kind.
func ValidStageName(name string, kind Kind) error {
	if !stageName.MatchString(name) {
		return fmt.Errorf("stage name %q must be namespaced like \"rank.bm25\" (lowercase letters, digits, '-', '_')", name)
	}
	for ns, k := range Namespaces {
		if len(name) > len(ns) && name[:len(ns)+1] == ns+"." && k != kind {
			return fmt.Errorf("stage name %q is in the %q namespace, which is for %ss, not %ss", name, ns, k, kind)
		}
	}
	return nil
}

// Register adds a built-in stage. It is called from init functions and
// panics on a malformed or duplicate name, which is a programming error.
func Register(name string, kind Kind, f Factory) {
	if err := ValidStageName(name, kind); err != nil {
		panic(err)
	}
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := registry[name]; dup {
		panic(fmt.Sprintf("core: stage %q registered twice", name))
	}
	registry[name] = Builtin{Name: name, Kind: kind, Factory: f}
}

// LookupBuiltin returns the built-in stage called name.
func LookupBuiltin(name string) (Builtin, bool) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	b, ok := registry[name]
	return b, ok
}

// Builtins lists the registered stages sorted by kind then name.
func Builtins() []Builtin {
	registryMu.RLock()
	defer registryMu.RUnlock()
	out := make([]Builtin, 0, len(registry))
	for _, b := range registry {
		out = append(out, b)
	}
	order := map[Kind]int{KindSource: 0, KindParser: 1, KindRanker: 2, KindFuser: 3, KindReranker: 4}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Kind != out[j].Kind {
			return order[out[i].Kind] < order[out[j].Kind]
		}
		return out[i].Name < out[j].Name
	})
	return out
}
