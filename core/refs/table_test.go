package refs

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/store"
)

// shop is a table with a decoy: Cart.Total and Invoice.Total, each
// called from files of their own.
func shop() *Table {
	return &Table{
		Resolvers: "go",
		Defs: map[string][]Def{
			"shop/cart.go":    {{Name: "Cart", Kind: "type", Line: 3, Exported: true}, {Name: "Cart.Total", Kind: "method", Line: 7, Exported: true}},
			"shop/invoice.go": {{Name: "Invoice", Kind: "type", Line: 3, Exported: true}, {Name: "Invoice.Total", Kind: "method", Line: 7, Exported: true}},
			"shop/report.go":  {{Name: "Report", Kind: "function", Line: 5, Exported: true}},
			"shop/unused.go":  {{Name: "helper", Kind: "function", Line: 2}},
		},
		Refs: map[string][]Ref{
			"shop/report.go": {
				{Line: 9, Col: 12, Path: "shop/cart.go", Name: "Cart.Total", From: "Report", Call: true},
				{Line: 6, Col: 4, Path: "shop/cart.go", Name: "Cart", From: "Report"},
				{Line: 11, Col: 3, Path: "shop/invoice.go", Name: "Invoice.Total", From: "Report", Call: true},
				{Line: 20, Col: 1, Path: "shop/cart.go", Name: "Cart.items"}, // a field the parser did not list
			},
			"shop/checkout.go": {
				{Line: 4, Col: 9, Path: "shop/cart.go", Name: "Cart.Total", From: "Checkout", Call: true},
				{Line: 30, Col: 9, Path: "shop/cart.go", Name: "Cart.Total", From: "Checkout.retry", Call: true},
			},
		},
	}
}

func encode(t testing.TB, tb *Table) []byte {
	t.Helper()
	data, err := tb.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// sorted puts a table's lists in the order Decode gives them.
func sorted(tb *Table) *Table {
	out := &Table{Resolvers: tb.Resolvers, Defs: map[string][]Def{}, Refs: map[string][]Ref{}}
	for p, ds := range tb.Defs {
		out.Defs[p] = slices.SortedFunc(slices.Values(ds), func(a, b Def) int { return cmpString(a.Name, b.Name) })
	}
	for p, rs := range tb.Refs {
		out.Refs[p] = slices.SortedFunc(slices.Values(rs), func(a, b Ref) int {
			if a.Line != b.Line {
				return a.Line - b.Line
			}
			return a.Col - b.Col
		})
	}
	return out
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// What is written reads back whole: every file's definitions and
// references, the resolvers' signature.
func TestTableRoundTrip(t *testing.T) {
	tb := shop()
	got, err := Decode(encode(t, tb))
	if err != nil {
		t.Fatal(err)
	}
	if want := sorted(tb); !reflect.DeepEqual(got, want) {
		t.Errorf("decoded:\n%+v\nwant:\n%+v", got, want)
	}
	// Encoding is deterministic: the same table, the same bytes.
	if a, b := encode(t, tb), encode(t, got); !slices.Equal(a, b) {
		t.Error("encoding the decoded table gives other bytes")
	}
}

// A name is looked up by its last segment: Total finds both methods,
// and the references to one are its callers only, by file and line.
func TestLookupAndTo(t *testing.T) {
	r, err := NewReader(encode(t, shop()))
	if err != nil {
		t.Fatal(err)
	}
	if sig, _ := r.Resolvers(); sig != "go" {
		t.Errorf("resolvers %q", sig)
	}
	totals, err := r.Lookup("Total")
	if err != nil || len(totals) != 2 {
		t.Fatalf("Lookup(Total): %+v %v", totals, err)
	}
	cart := totals[0]
	if cart.Path != "shop/cart.go" || cart.Name != "Cart.Total" || cart.Kind != "method" || cart.Line != 7 || !cart.Defined || !cart.Exported || cart.Count != 3 {
		t.Errorf("Cart.Total: %+v", cart)
	}
	sites, err := r.To(cart)
	if err != nil {
		t.Fatal(err)
	}
	want := []Site{
		{File: "shop/checkout.go", Ref: Ref{Line: 4, Col: 9, Path: "shop/cart.go", Name: "Cart.Total", From: "Checkout", Call: true}},
		{File: "shop/checkout.go", Ref: Ref{Line: 30, Col: 9, Path: "shop/cart.go", Name: "Cart.Total", From: "Checkout.retry", Call: true}},
		{File: "shop/report.go", Ref: Ref{Line: 9, Col: 12, Path: "shop/cart.go", Name: "Cart.Total", From: "Report", Call: true}},
	}
	if !reflect.DeepEqual(sites, want) {
		t.Errorf("To(Cart.Total):\n%+v\nwant:\n%+v", sites, want)
	}
	if inv, _ := r.To(totals[1]); len(inv) != 1 || inv[0].File != "shop/report.go" || inv[0].Line != 11 {
		t.Errorf("To(Invoice.Total): %+v", inv)
	}
	// A definition nobody uses is found, with no references; a field
	// only a resolver named is found, not as defined; an unknown name
	// finds nothing.
	if h, _ := r.Lookup("helper"); len(h) != 1 || h[0].Count != 0 || h[0].Path != "shop/unused.go" {
		t.Errorf("Lookup(helper): %+v", h)
	}
	if f, _ := r.Lookup("items"); len(f) != 1 || f[0].Defined || f[0].Count != 1 {
		t.Errorf("Lookup(items): %+v", f)
	}
	if n, _ := r.Lookup("Tota"); len(n) != 0 {
		t.Errorf("Lookup(Tota): %+v", n)
	}
	// The references from a file, in line order.
	from, err := r.From("shop/report.go")
	if err != nil || len(from) != 4 || from[0].Name != "Cart" || from[1].Name != "Cart.Total" || from[2].Name != "Invoice.Total" || from[3].Name != "Cart.items" {
		t.Errorf("From(report.go): %+v %v", from, err)
	}
	if none, err := r.From("shop/nothing.go"); none != nil || err != nil {
		t.Errorf("From(a file not in the table): %+v %v", none, err)
	}
	if files, targets, refs := r.Counts(); files != 5 || targets != 7 || refs != 6 {
		t.Errorf("counts %d files, %d targets, %d refs", files, targets, refs)
	}
}

// Write names a generation; RemoveStale keeps only the one named.
func TestWriteAndRemoveStale(t *testing.T) {
	dir := t.TempDir()
	first, err := Write(dir, encode(t, shop()))
	if err != nil {
		t.Fatal(err)
	}
	second, err := Write(dir, encode(t, &Table{}))
	if err != nil || second == first {
		t.Fatalf("second generation %q (first %q): %v", second, first, err)
	}
	RemoveStale(dir, second)
	if _, err := os.Stat(File(dir, first)); !os.IsNotExist(err) {
		t.Errorf("the older generation is still there: %v", err)
	}
	if _, err := os.Stat(File(dir, first) + store.WrittenSuffix); !os.IsNotExist(err) {
		t.Errorf("the older generation's record is still there: %v", err)
	}
	r, err := Open(dir, second, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if files, targets, refs := r.Counts(); files+targets+refs != 0 {
		t.Errorf("an empty table holds %d files, %d targets, %d refs", files, targets, refs)
	}
}

// Damaged or foreign bytes are an error, never a panic: truncated,
// a byte flipped anywhere, another file's bytes.
func TestDamagedTable(t *testing.T) {
	data := encode(t, shop())
	for _, bad := range [][]byte{nil, []byte("rubi-manifest\n"), []byte(Magic), data[:len(data)-1], data[:fieldsLen+3]} {
		if _, err := Decode(bad); !errors.Is(err, ErrDamaged) {
			t.Errorf("Decode(%d bytes): %v", len(bad), err)
		}
		if _, err := NewReader(bad); !errors.Is(err, ErrDamaged) {
			t.Errorf("NewReader(%d bytes): %v", len(bad), err)
		}
	}
	intact := query(data)
	for i := range data {
		flipped := slices.Clone(data)
		flipped[i] ^= 0x55
		if _, err := Decode(flipped); !errors.Is(err, ErrDamaged) {
			t.Fatalf("byte %d flipped: Decode gives %v", i, err)
		}
		// A query checks what it reads: it answers as from the intact
		// table, or says the table is damaged; never something else.
		if got := query(flipped); got != intact && !strings.Contains(got, ErrDamaged.Error()) {
			t.Fatalf("byte %d flipped: the query answers\n%s\nwant\n%s", i, got, intact)
		}
		exercise(flipped) // must not panic
	}
}

// query is what `rubi refs Cart.Total` reads of a table, as text.
func query(data []byte) string {
	r, err := NewReader(data)
	if err != nil {
		return err.Error()
	}
	ts, err := r.Lookup("Total")
	if err != nil {
		return err.Error()
	}
	out := fmt.Sprintf("%+v\n", ts)
	for _, tg := range ts {
		sites, err := r.To(tg)
		if err != nil {
			return err.Error()
		}
		out += fmt.Sprintf("%+v\n", sites)
	}
	from, err := r.From("shop/report.go")
	if err != nil {
		return err.Error()
	}
	return out + fmt.Sprintf("%+v\n", from)
}

// exercise runs every lookup a query makes on data.
func exercise(data []byte) {
	r, err := NewReader(data)
	if err != nil {
		return
	}
	r.Resolvers()
	for _, name := range []string{"Total", "Cart", "helper", "items", ""} {
		ts, _ := r.Lookup(name)
		for _, tg := range ts {
			r.To(tg)
		}
	}
	for _, p := range []string{"shop/report.go", "shop/checkout.go", "x"} {
		r.From(p)
	}
}

func FuzzRefs(f *testing.F) {
	f.Add(encode(f, shop()))
	f.Add(encode(f, &Table{}))
	f.Add([]byte(Magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		exercise(data)
		tb, err := Decode(data)
		if err != nil {
			if !errors.Is(err, ErrDamaged) {
				t.Fatalf("an error that is not ErrDamaged: %v", err)
			}
			return
		}
		// What decodes encodes again to a table that decodes the same.
		again, err := Decode(encode(t, tb))
		if err != nil || !reflect.DeepEqual(sorted(tb), again) {
			t.Fatalf("round trip: %v\n%+v\n%+v", err, tb, again)
		}
		// And an update of it is the table with the update applied.
		p := Patch{Resolvers: tb.Resolvers, Refs: map[string][]Ref{"x.go": {{Line: 1, Col: 1, Path: "x.go", Name: "X"}}}}
		for f := range tb.Refs {
			p.Removed = append(p.Removed, f)
			break
		}
		updated, err := Update(data, p)
		if err != nil {
			t.Fatalf("update: %v", err)
		}
		got, err := Decode(updated)
		tb.apply(p)
		if err != nil || !reflect.DeepEqual(dropEmpty(got), dropEmpty(sorted(tb))) {
			t.Fatalf("update: %v\n%+v\n%+v", err, got, tb)
		}
	})
}

// synthetic is a table of files files, each defining defsPer methods and
// making refsPer references to methods of other files.
func synthetic(files, defsPer, refsPer int) *Table {
	tb := &Table{Defs: map[string][]Def{}, Refs: map[string][]Ref{}}
	path := func(i int) string { return fmt.Sprintf("pkg/mod%03d/file%05d.go", i%500, i) }
	// About 8 definitions a name, as in a large project where New,
	// String or Close are defined many times and most names a few.
	name := func(file, d int) string { return fmt.Sprintf("Type%d.Method%d", file, (file*defsPer+d)%50000) }
	for i := range files {
		p := path(i)
		for d := range defsPer {
			tb.Defs[p] = append(tb.Defs[p], Def{Name: name(i, d), Kind: "method", Line: 10 + 20*d, Exported: true})
		}
		refs := make([]Ref, refsPer)
		for k := range refs {
			to := (i*7919 + k*104729) % files
			refs[k] = Ref{Line: 5 + 3*k, Col: 2 + k%40, Path: path(to), Name: name(to, k%defsPer), From: name(i, k%defsPer), Call: k%3 != 0}
		}
		tb.Refs[p] = refs
	}
	return tb
}

// BenchmarkLookup is `rubi refs`' work on a table of a million
// references (20,000 files of 50 references and 8 definitions, about
// kubernetes' ratio): map
// the file, check its header, look a name up and decode its references.
// It reports the table's bytes per reference.
func BenchmarkLookup(b *testing.B) {
	tb := synthetic(20000, 8, 50)
	data := encode(b, tb)
	dir := b.TempDir()
	gen, err := Write(dir, data)
	if err != nil {
		b.Fatal(err)
	}
	names := []string{"Method7", "Method4000", "Method49999"}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		r, err := Open(dir, gen, true)
		if err != nil {
			b.Fatal(err)
		}
		ts, err := r.Lookup(names[i%len(names)])
		if err != nil || len(ts) == 0 {
			b.Fatal(len(ts), err)
		}
		// One definition's references, as `rubi refs Type123.Method7`
		// reads them.
		if _, err := r.To(ts[len(ts)/2]); err != nil {
			b.Fatal(err)
		}
		r.Close()
	}
	b.ReportMetric(float64(len(data))/1e6, "table-MB")
	b.ReportMetric(float64(len(data))/float64(20000*50), "bytes/ref")
}

// BenchmarkDecode is what an incremental index run pays to keep the
// other files' references of a million-reference table.
func BenchmarkDecode(b *testing.B) {
	data := encode(b, synthetic(20000, 8, 50))
	for b.Loop() {
		if _, err := Decode(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncode is what an index run pays to write a million-reference
// table (an incremental run writes it whole).
func BenchmarkEncode(b *testing.B) {
	tb := synthetic(20000, 8, 50)
	for b.Loop() {
		if _, err := tb.Encode(); err != nil {
			b.Fatal(err)
		}
	}
}

// Update gives the table Encode would give with the same changes: a
// file's references replaced, a file's definitions replaced (a method
// renamed: the references to the old name stay, to a definition no longer
// found), a file removed (its references, and those to it, go), and a
// patch that changes nothing gives the same bytes.
func TestUpdate(t *testing.T) {
	for name, p := range map[string]Patch{
		"references replaced": {Refs: map[string][]Ref{
			"shop/report.go": {{Line: 3, Col: 1, Path: "shop/invoice.go", Name: "Invoice", From: "Report"}, {Line: 12, Col: 5, Path: "shop/new.go", Name: "Fresh", Call: true}},
		}},
		"definitions replaced": {Defs: map[string][]Def{
			"shop/invoice.go": {{Name: "Invoice", Kind: "type", Line: 3, Exported: true}, {Name: "Invoice.Sum", Kind: "method", Line: 9}},
		}},
		"a file removed":  {Removed: []string{"shop/cart.go"}},
		"references gone": {Refs: map[string][]Ref{"shop/checkout.go": nil}, Defs: map[string][]Def{"shop/unused.go": nil}},
		"nothing":         {Refs: map[string][]Ref{"shop/checkout.go": shop().Refs["shop/checkout.go"]}},
	} {
		p.Resolvers = "go"
		old := encode(t, shop())
		got, err := Update(old, p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := shop()
		want.apply(p)
		back, err := Decode(got)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if w := sorted(want); !reflect.DeepEqual(dropEmpty(back), dropEmpty(w)) {
			t.Errorf("%s:\n%+v\nwant:\n%+v", name, back, w)
		}
		if name == "nothing" && !slices.Equal(got, old) {
			t.Errorf("a patch that changes nothing changed the bytes")
		}
	}
	if _, err := Update([]byte("rubi-refs\nnot a table"), Patch{}); !errors.Is(err, ErrDamaged) {
		t.Errorf("Update of a damaged table: %v", err)
	}
}

// dropEmpty leaves out the files with no definitions or no references.
func dropEmpty(tb *Table) *Table {
	out := &Table{Resolvers: tb.Resolvers, Defs: map[string][]Def{}, Refs: map[string][]Ref{}}
	for p, ds := range tb.Defs {
		if len(ds) > 0 {
			out.Defs[p] = ds
		}
	}
	for p, rs := range tb.Refs {
		if len(rs) > 0 {
			out.Refs[p] = rs
		}
	}
	return out
}

// BenchmarkUpdate is an incremental index run's one-file change to a
// table of a million references.
func BenchmarkUpdate(b *testing.B) {
	tb := synthetic(20000, 8, 50)
	old := encode(b, tb)
	p := Patch{Refs: map[string][]Ref{"pkg/mod007/file00007.go": tb.Refs["pkg/mod007/file00007.go"][:10]}}
	for b.Loop() {
		if _, err := Update(old, p); err != nil {
			b.Fatal(err)
		}
	}
}

// VerifyFile vouches for the table Write wrote as it wrote it, and finds
// a table changed since damaged, as Verify does.
func TestVerifyFile(t *testing.T) {
	dir := t.TempDir()
	gen, err := Write(dir, encode(t, shop()))
	if err != nil {
		t.Fatal(err)
	}
	file := File(dir, gen)
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	wantSig, wantN, err := Verify(good)
	if err != nil {
		t.Fatal(err)
	}
	if sig, n, err := VerifyFile(file, good); err != nil || sig != wantSig || n != wantN {
		t.Errorf("the table as written: %q, %d, %v; want %q, %d", sig, n, err, wantSig, wantN)
	}
	// A byte of the body flipped in place: the file is no longer the
	// version written, and its checksum fails.
	bad := bytes.Clone(good)
	bad[len(bad)-8] ^= 1
	if err := os.WriteFile(file, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := VerifyFile(file, bad); !errors.Is(err, ErrDamaged) {
		t.Errorf("a damaged table passed: %v", err)
	}
	// Good again, through another writer: checked whole, then recorded.
	if err := os.WriteFile(file, good, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := VerifyFile(file, good); err != nil || !store.Unchanged(file) {
		t.Errorf("a good table checked whole: %v, recorded %v", err, store.Unchanged(file))
	}
}

// TestEncoderFileByFile encodes the shop one file at a time, the files
// without definitions or references left out of the calls, and gets
// Encode's bytes; a file added out of order, or a reference to a file
// the encoder was not given, is an error rather than a wrong table.
func TestEncoderFileByFile(t *testing.T) {
	tb := shop()
	want := encode(t, tb)
	paths := []string{"shop/cart.go", "shop/checkout.go", "shop/invoice.go", "shop/report.go", "shop/unused.go"}
	enc := NewEncoder(tb.Resolvers, paths)
	for _, p := range paths {
		if len(tb.Defs[p]) == 0 && len(tb.Refs[p]) == 0 {
			continue
		}
		if err := enc.Add(p, tb.Defs[p], tb.Refs[p]); err != nil {
			t.Fatal(err)
		}
	}
	got, err := enc.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("file by file: %d bytes unlike Encode's %d", len(got), len(want))
	}

	enc = NewEncoder(tb.Resolvers, paths)
	if err := enc.Add("shop/report.go", nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := enc.Add("shop/cart.go", nil, nil); err == nil {
		t.Error("a file added after a later one: no error")
	}
	enc = NewEncoder(tb.Resolvers, []string{"shop/report.go"})
	if err := enc.Add("shop/report.go", nil, tb.Refs["shop/report.go"]); err == nil {
		t.Error("references to files the encoder was not given: no error")
	}
}
