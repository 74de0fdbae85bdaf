package config

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/owner"
	"github.com/rubi-dev/rubi/core/trust"
)

// fill sets every field a configuration carries (exported, not left out
// of JSON) to a value of its own, lists and maps to two items each.
func fill(t *testing.T, v reflect.Value, seed *int) {
	*seed++
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d", *seed))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(*seed))
	case reflect.Float64:
		v.SetFloat(float64(*seed) + 0.5)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(t, v.Index(i), seed)
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		for range 2 {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(t, k, seed)
			fill(t, e, seed)
			v.SetMapIndex(k, e)
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(t, v.Elem(), seed)
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() || f.Tag.Get("json") == "-" {
				continue
			}
			fill(t, v.Field(i), seed)
		}
	default:
		t.Fatalf("fill: a field of kind %s: teach the test and cachecodec.go", v.Kind())
	}
}

// Every field of a configuration, of its stages and of the entry is
// written and read back: a field added to Config and not to the entry's
// encoding fails here, with its value.
func TestEntryCodecCoversEveryField(t *testing.T) {
	seed := 0
	cfg := &Config{}
	fill(t, reflect.ValueOf(cfg).Elem(), &seed)
	want := &cacheEntry{Key: "key", Config: cfg, Names: []string{"a.hcl", "b.hcl"}}
	fill(t, reflect.ValueOf(&want.Safe).Elem(), &seed)
	fill(t, reflect.ValueOf(&want.Configs).Elem(), &seed)
	fill(t, reflect.ValueOf(&want.Files).Elem(), &seed)
	r := func(k int) words { return words{k % 2, k, k + 1, k + 2, k + 3, k + 4, k + 5} }
	for i := range cfg.Stages {
		c := cachedStage{Decl: r(i), Attrs: []cachedAttr{{Name: "a", Ranges: append(append(r(i+1), r(i+2)...), r(i+3)...)}}}
		if i == 0 {
			c.Plugin, c.Settings, c.Schema = r(9), json.RawMessage(`{"weight":2}`), "schema"
		}
		want.Stages = append(want.Stages, c)
	}
	data, err := encodeEntry(want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeEntry(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		gj, _ := json.MarshalIndent(got, "", " ")
		wj, _ := json.MarshalIndent(want, "", " ")
		t.Fatalf("read back:\n%s\nwritten:\n%s", gj, wj)
	}
	// Lists left nil stay nil, and empty ones empty.
	cfg.Index.Include, cfg.Index.Exclude = nil, []string{}
	want.Safe, want.Configs = owner.Safe(nil), []trust.File(nil)
	data, _ = encodeEntry(want)
	if got, err = decodeEntry(data); err != nil || got.Config.Index.Include != nil || got.Config.Index.Exclude == nil || len(got.Config.Index.Exclude) != 0 {
		t.Fatalf("nil and empty lists read back as %#v and %#v (%v)", got.Config.Index.Include, got.Config.Index.Exclude, err)
	}
	if !strings.HasPrefix(string(data), entryMagic) {
		t.Errorf("an entry starts %.20q", data)
	}
}

// An entry's fields, hashed again whatever they hold (as damage the hash
// missed, or a rubi writing another layout): decoding never panics, and
// what decodes is written in one form, which reads back as itself (a
// number may be written longer than encode writes it, and a map's key
// twice: the entry read is the same).
func FuzzCacheEntry(f *testing.F) {
	for _, src := range hclSeeds(f) {
		root := projectWith(f, src)
		opts := Options{Root: root, UserConfig: "-", TrustFile: "-"}
		dir := f.TempDir()
		if _, err := LoadCached(opts, dir); err != nil {
			continue
		}
		in, err := cacheInputs(opts)
		if err != nil {
			f.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(dir, in.entryName()))
		if err != nil {
			continue // not kept: a diagnostic
		}
		f.Add(data[:len(data)-8])
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		data := binary.LittleEndian.AppendUint64(slices.Clone(body), entrySum(body))
		e, err := decodeEntry(data)
		if err != nil {
			return
		}
		again, err := encodeEntry(e)
		if err != nil {
			t.Fatalf("a decoded entry does not encode: %v", err)
		}
		back, err := decodeEntry(again)
		if err != nil {
			t.Fatalf("an entry as encode writes it does not decode: %v", err)
		}
		if third, _ := encodeEntry(back); !bytes.Equal(third, again) {
			t.Fatalf("an entry reads back as another:\n%q\n%q", again, third)
		}
	})
}
