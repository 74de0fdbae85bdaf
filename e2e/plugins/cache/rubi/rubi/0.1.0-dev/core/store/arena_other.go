//go:build !linux

package store

import "errors"

func anonymous(int) ([]byte, func(), error) { return nil, nil, errors.ErrUnsupported }
