package regex

import (
	"context"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/rubi-dev/rubi/core"
)

// TestParseConcurrent parses every language from several goroutines at once
// and expects exactly the facts of a sequential parse. This file sorts
// before regex_test.go, so in a run of the package's tests (or of this test
// alone) it is also the first use of every language's patterns: under -race
// it checks that their one-time compilation is safe.
func TestParseConcurrent(t *testing.T) {
	files := benchFiles()
	const workers = 8
	got := make([][]core.FileFacts, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			// Each worker starts with a different language, so the first
			// uses of the patterns overlap.
			k := w % len(files)
			order := slices.Concat(files[k:], files[:k])
			facts, err := New().Parse(context.Background(), order)
			if err != nil {
				errs[w] = err
				return
			}
			got[w] = slices.Concat(facts[len(files)-k:], facts[:len(files)-k])
		})
	}
	wg.Wait()
	want, err := New().Parse(context.Background(), files)
	if err != nil {
		t.Fatal(err)
	}
	for w := range workers {
		if errs[w] != nil {
			t.Fatalf("worker %d: %v", w, errs[w])
		}
		if !reflect.DeepEqual(got[w], want) {
			t.Errorf("worker %d: facts differ from a sequential parse", w)
		}
	}
}

// TestPatterns compiles every language's patterns: compiled lazily, a
// broken one would otherwise only show when a file of that language is
// parsed, as an internal error in its facts.
func TestPatterns(t *testing.T) {
	sets := map[string]any{
		"c": cRE(), "css": cssRE(), "dart": dartRE(), "go": goRE(), "java": javaRE(),
		"js": jsRE(), "kotlin": ktRE(), "php": phpRE(), "python": pyRE(), "ruby": rubyRE(),
	}
	for name, set := range sets {
		v := reflect.ValueOf(set).Elem()
		for i := range v.NumField() {
			if v.Field(i).IsNil() {
				t.Errorf("%s: pattern %s is not compiled", name, v.Type().Field(i).Name)
			}
		}
	}
}
