//go:build unix && !linux

package store

// populate is Linux's MAP_POPULATE; elsewhere pages fault in on use.
const populate = 0
