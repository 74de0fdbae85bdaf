//go:build unix

package programs

import "syscall"

// Exec runs the program at path in this process's place (argv[0] first):
// same process, standard streams, signals and exit status. It returns
// only when it cannot.
func Exec(path string, argv, env []string) error { return syscall.Exec(path, argv, env) }
