package subprocess

import (
	"runtime"
	"strings"
)

// pluginEnvNames are the variables of rubi's environment a plugin process
// gets: where it runs (PATH, HOME, the user, the temporary folder), how
// it speaks (locale, time zone), where its cache goes, and how the
// machine reaches the network when a plugin is set up to (proxies,
// certificates). Nothing else of the user's shell passes: a plugin is a
// program the user trusted with the project, not with AWS_SECRET_ACCESS_KEY,
// GITHUB_TOKEN or SSH_AUTH_SOCK. go-plugin adds its own handshake
// variables (the magic cookie, protocol versions, the client's
// certificate) and rubi the socket folder's.
var pluginEnvNames = []string{
	"PATH", "HOME", "USER", "LOGNAME", "SHELL",
	"LANG", "LANGUAGE", "TZ", "TMPDIR",
	"XDG_CACHE_HOME", "XDG_RUNTIME_DIR",
	"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
	"SSL_CERT_FILE", "SSL_CERT_DIR",
}

// windowsEnvNames are what a Windows process cannot start or reach the
// network without (Windows' names are case-insensitive).
var windowsEnvNames = []string{
	"SYSTEMROOT", "WINDIR", "COMSPEC", "PATHEXT", "TEMP", "TMP",
	"USERPROFILE", "USERNAME", "LOCALAPPDATA", "APPDATA", "PROGRAMDATA", "HOMEDRIVE", "HOMEPATH",
}

// pluginEnv keeps of environ (os.Environ's form) the variables a plugin
// process gets: pluginEnvNames and the locale's LC_* ones.
func pluginEnv(environ []string) []string {
	var out []string
	for _, kv := range environ {
		name, _, ok := strings.Cut(kv, "=")
		if ok && keepVar(name) {
			out = append(out, kv)
		}
	}
	return out
}

func keepVar(name string) bool {
	if strings.HasPrefix(name, "LC_") {
		return true
	}
	for _, n := range pluginEnvNames {
		if name == n {
			return true
		}
	}
	if runtime.GOOS == "windows" {
		for _, n := range windowsEnvNames {
			if strings.EqualFold(name, n) {
				return true
			}
		}
	}
	return false
}
