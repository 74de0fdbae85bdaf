package config

import (
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/owner"
	"github.com/rubi-dev/rubi/core/store"
)

// SafeDirectoriesName is the attribute of the user's own config that names
// the folders of other users rubi may take projects from (owner.Safe), as
// git's safe.directory does. Only the user's layer sets it.
const SafeDirectoriesName = "safe_directories"

// SafeDirectories reads safe_directories from the user's own config
// (UserConfigPath) alone. A config that cannot be read or parsed names
// none: Load reports its errors.
func SafeDirectories() owner.Safe {
	path := UserConfigPath()
	if path == "" {
		return nil
	}
	src, err := store.ReadRegular(path, MaxFileSize)
	if err != nil {
		return nil
	}
	if CheckShape(path, src).HasErrors() {
		return nil
	}
	file, diags := hclsyntax.ParseConfig(src, path, hcl.InitialPos)
	if diags.HasErrors() {
		return nil
	}
	content, _, _ := file.Body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: SafeDirectoriesName}}})
	a, ok := content.Attributes[SafeDirectoriesName]
	if !ok {
		return nil
	}
	var dirs []string
	if decodeExpr(a.Expr, &dirs).HasErrors() {
		return nil
	}
	return dirs
}

// OwnerWarning is the one line that says a rubi.hcl or .rubi/ was ignored
// because another user owns it (or everyone may write its folder), and the
// way out, in the locale's language.
func OwnerWarning(p *owner.Problem) string {
	l, _ := messages.Locale(os.Getenv)
	if p.Shared {
		return l.Format(messages.OwnerSharedIgnored, p.Path, p.Dir, p.Dir, UserConfigPath())
	}
	return l.Format(messages.OwnerIgnored, p.Path, p.Owner(), p.Dir, UserConfigPath())
}

// OwnerRefusal is the one line that says a folder is not taken for a
// project because another user owns it (or everyone may write it), and
// the way out.
func OwnerRefusal(p *owner.Problem) string {
	l, _ := messages.Locale(os.Getenv)
	if p.Shared {
		return l.Format(messages.OwnerSharedRefused, p.Path, p.Dir, UserConfigPath())
	}
	return l.Format(messages.OwnerRefused, p.Path, p.Owner(), p.Dir, UserConfigPath())
}
