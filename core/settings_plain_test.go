package core

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

type plainProbe struct {
	S  string             `hcl:"s,optional"`
	B  bool               `hcl:"b,optional"`
	I  int                `hcl:"i,optional"`
	I6 int64              `hcl:"i6,optional"`
	F  float64            `hcl:"f,optional"`
	L  []string           `hcl:"l,optional"`
	MF map[string]float64 `hcl:"mf,optional"`
	MS map[string]string  `hcl:"ms,optional"`
	MI map[string]int     `hcl:"mi,optional"`
	R  int                `hcl:"r"`
}

// Settings read as they are (setPlain) are the settings HCL's conversion
// gives, for values of every form a setting can take, the awkward ones
// included (numbers as strings, fractions for integers, nulls, nested
// lists): where the plain reading takes a value, the conversion gives
// the same struct, and where it refuses one, nothing is set.
func TestPlainSettingsAreTheConvertedOnes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	scalars := []string{`"text"`, `"2"`, `"true"`, `""`, `"a\"b\u00e9"`, `true`, `false`, `0`, `-3`, `7`, `2.5`, `1e2`, `-0.125`, `1.0000000000000002`, `123456789012`, `9007199254740993`, `null`}
	value := func() string {
		switch rng.IntN(4) {
		case 0:
			n := rng.IntN(4)
			var items []string
			for range n {
				items = append(items, scalars[rng.IntN(len(scalars))])
			}
			return "[" + strings.Join(items, ",") + "]"
		case 1:
			n := rng.IntN(3)
			var items []string
			for k := range n {
				items = append(items, fmt.Sprintf("%q:%s", fmt.Sprint("k", k), scalars[rng.IntN(len(scalars))]))
			}
			return "{" + strings.Join(items, ",") + "}"
		default:
			return scalars[rng.IntN(len(scalars))]
		}
	}
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	nums := func() string {
		return pick(`0`, `-3`, `7`, `2.5`, `1e2`, `-0.125`, `1.0000000000000002`, `0.1`, `123456789012`, `9007199254740993`, `3.0`, `1E-7`)
	}
	strs := func() string { return pick(`"text"`, `"2"`, `""`, `"a\"b\u00e9"`, `"null"`, `"true"`) }
	good := map[string]func() string{
		"s": strs, "b": func() string { return pick(`true`, `false`) },
		"i": nums, "i6": nums, "f": nums, "r": nums,
		"l":  func() string { return "[" + strings.Join([]string{strs(), strs()}[:rng.IntN(3)], ",") + "]" },
		"mf": func() string { return `{"a":` + nums() + `,"b":` + nums() + `}` },
		"ms": func() string { return `{"a":` + strs() + `}` },
		"mi": func() string { return `{"a":` + nums() + `}` },
	}
	names := []string{"s", "b", "i", "i6", "f", "l", "mf", "ms", "mi", "r", "zz"}
	plain, tried := 0, 0
	for range 20000 {
		var parts []string
		for _, n := range names {
			if rng.IntN(3) == 0 || n == "r" && rng.IntN(8) != 0 {
				v := value()
				if g, ok := good[n]; ok && rng.IntN(10) < 8 {
					v = g()
				}
				parts = append(parts, fmt.Sprintf("%q:%s", n, v))
			}
		}
		raw := "{" + strings.Join(parts, ",") + "}"
		var given map[string]json.RawMessage
		if json.Unmarshal([]byte(raw), &given) != nil {
			t.Fatalf("bad probe %s", raw)
		}
		tried++
		a := plainProbe{S: "default", I: 4, F: 0.5, L: []string{"x"}}
		b := a
		if !setPlain(given, &a) {
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("%s: refused but set %+v", raw, a)
			}
			continue
		}
		plain++
		if err := setConverted(given, &b); err != nil {
			t.Fatalf("%s: read plainly as %+v, but HCL's conversion fails: %v", raw, a, err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: read plainly as\n%+v\nconverted as\n%+v", raw, a, b)
		}
	}
	if plain < tried/20 {
		t.Fatalf("only %d of %d probes were read plainly", plain, tried)
	}
}
