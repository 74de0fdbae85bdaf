// Package flags holds the global flags of rubi's programs that take
// flags of their own (rubi, rubi-full, rubi-mcp): rubi passes them on to
// the program it runs in its place (rubi mcp runs rubi-mcp, a command
// that opens a plugin runs rubi-full), so they mean the same everywhere.
// It is apart from internal/programs because the flag package links net,
// which rubi-hook, a static program, must not.
package flags

import (
	"errors"
	"io"
	"os"

	"github.com/hashicorp/go-hclog"
	"github.com/spf13/pflag"

	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/internal/profile"
)

// Global are the global flags.
type Global struct {
	Root     string
	JSON     bool
	LogLevel string
	Configs  []string
	// CPUProfile names a file for a CPU profile of the command,
	// MemProfile one for its heap profile at its largest (flags for
	// performance reports).
	CPUProfile, MemProfile string
	cpu                    profile.CPU
	heap                   profile.Heap
}

// Help is the help of the flags a program means in its own way.
type Help struct {
	// Root says where the project is when --root is not given; JSON what
	// --json prints; Config which configuration an extra file follows.
	Root, JSON, Config string
}

// Define declares the flags on fs.
func (g *Global) Define(fs *pflag.FlagSet, help Help) {
	fs.StringVar(&g.Root, "root", "", "project root (default: "+help.Root+")")
	fs.BoolVar(&g.JSON, "json", false, help.JSON)
	fs.StringVar(&g.LogLevel, "log-level", "warn", "log level on stderr: trace, debug, info, warn, error, off")
	fs.StringArrayVar(&g.Configs, "config", nil, "extra configuration file read after "+help.Config+" (repeatable)")
	fs.StringVar(&g.CPUProfile, "cpuprofile", "", "write a CPU profile of the command to this file")
	fs.StringVar(&g.MemProfile, "memprofile", "", "write the command's heap profile at its largest to this file")
	_ = fs.MarkHidden("cpuprofile")
	_ = fs.MarkHidden("memprofile")
}

// Logger is the program's logger, named name, on out at --log-level; an
// error, in the locale's language, when the level is not one.
func (g *Global) Logger(name string, out io.Writer) (hclog.Logger, error) {
	level := hclog.LevelFromString(g.LogLevel)
	if level == hclog.NoLevel {
		l, _ := messages.Locale(os.Getenv)
		return nil, errors.New(l.Format(messages.CLILogLevel, g.LogLevel))
	}
	return hclog.New(&hclog.LoggerOptions{Name: name, Level: level, Output: out}), nil
}

// StartProfile starts the profiles --cpuprofile and --memprofile ask
// for, if any.
func (g *Global) StartProfile() error {
	if err := g.cpu.Start(g.CPUProfile); err != nil {
		return err
	}
	if err := g.heap.Start(g.MemProfile); err != nil {
		g.cpu.Stop()
		return err
	}
	return nil
}

// StopProfile ends them and writes the heap profile; later calls do
// nothing.
func (g *Global) StopProfile() error {
	g.cpu.Stop()
	return g.heap.Stop()
}
