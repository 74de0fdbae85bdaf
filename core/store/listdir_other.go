//go:build !linux

package store

import "os"

// listNames lists the regular files of dir that keep accepts, in no
// particular order (maybe is all false: os.ReadDir found each type).
func listNames(dir string, keep func(name string) bool) (names []string, maybe []bool, err error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	for _, de := range des {
		if de.Type().IsRegular() && keep(de.Name()) {
			names = append(names, de.Name())
			maybe = append(maybe, false)
		}
	}
	return names, maybe, nil
}
