package cart

// windowsTotal is built on Windows only: go/types never sees it on this
// machine, so its references are found by name.
func windowsTotal() int {
	return New().Total() + Max + Sum()
}
