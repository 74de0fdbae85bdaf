//go:build !unix

package store

import (
	"errors"
	"os"
)

func mapFile(*os.File, int64, bool) ([]byte, func() error, error) {
	return nil, nil, errors.ErrUnsupported
}
