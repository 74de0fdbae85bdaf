package browsertest

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// The tests run rubi as a user does, the binary built from this checkout,
// with HOME, the XDG folders and the personal vault in a temporary folder
// of the test process: nothing they run writes into the user's. (The
// test process keeps its own HOME: the go command builds rubi with the
// user's caches.)
func TestMain(m *testing.M) {
	home, err := os.MkdirTemp("", "rubi-browsertest-home-")
	if err != nil {
		panic(err)
	}
	rubiEnv = []string{"HOME=" + home, "RUBI_VAULT=" + filepath.Join(home, "vault")}
	for _, v := range []string{"XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"} {
		rubiEnv = append(rubiEnv, v+"=")
	}
	code := rubitest.Main(m)
	if own.dir != "" {
		os.RemoveAll(own.dir)
	}
	os.RemoveAll(home)
	os.Exit(code)
}

// rubiEnv is what the tests set in the environment of the rubi they run.
var rubiEnv []string

// rubiCommand is the rubi binary with args, in the tests' environment.
func rubiCommand(t testing.TB, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(rubitest.Binary(t), args...)
	cmd.Env = append(os.Environ(), rubiEnv...)
	return cmd
}

// rubi runs the rubi binary with args and returns its standard output,
// failing the test if it fails.
func rubi(t testing.TB, args ...string) string {
	t.Helper()
	cmd := rubiCommand(t, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("rubi %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// own is the copy of rubi's own repository the tests share: made and
// indexed once per test process, removed by TestMain.
var own struct {
	once sync.Once
	dir  string
	err  error
}

// ownRepository is a copy of this checkout's tracked files (rubi's own
// repository, its notes in .rubi/knowledge included), indexed by rubi:
// the tests read rubi's own project without writing into the checkout.
func ownRepository(t testing.TB) string {
	t.Helper()
	own.once.Do(func() {
		own.dir, own.err = copyCheckout()
		if own.err == nil {
			cmd := rubiCommand(t, "index", "--root", own.dir)
			if out, err := cmd.CombinedOutput(); err != nil {
				own.err = &indexError{err, out}
			}
		}
	})
	if own.err != nil {
		t.Fatalf("rubi's own repository: %v", own.err)
	}
	return own.dir
}

type indexError struct {
	err error
	out []byte
}

func (e *indexError) Error() string { return "rubi index: " + e.err.Error() + "\n" + string(e.out) }

// copyCheckout copies the files git tracks in this checkout (as they are
// in the work tree) into a new temporary folder: regular files only.
func copyCheckout() (string, error) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		return "", err
	}
	cmd := exec.Command("git", "ls-files", "-z")
	cmd.Dir = root
	list, err := cmd.Output()
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "rubi-own-")
	if err != nil {
		return "", err
	}
	for _, rel := range strings.Split(strings.TrimSuffix(string(list), "\x00"), "\x00") {
		src := filepath.Join(root, filepath.FromSlash(rel))
		info, err := os.Lstat(src)
		if err != nil || !info.Mode().IsRegular() {
			continue // deleted in the work tree, or a link
		}
		data, err := os.ReadFile(src)
		if err != nil {
			return dir, err
		}
		dst := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return dir, err
		}
		if err := os.WriteFile(dst, data, info.Mode().Perm()&fs.ModePerm); err != nil {
			return dir, err
		}
	}
	return dir, nil
}
