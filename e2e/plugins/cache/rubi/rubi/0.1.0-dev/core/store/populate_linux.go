package store

import "golang.org/x/sys/unix"

// populate asks Linux to fault the whole mapping in at once.
const populate = unix.MAP_POPULATE
