package standard

import (
	"github.com/rubi-dev/rubi/core/refs"
	"github.com/rubi-dev/rubi/core/refs/golang"
	"github.com/rubi-dev/rubi/core/refs/java"
	"github.com/rubi-dev/rubi/core/refs/python"
	"github.com/rubi-dev/rubi/core/refs/scripts"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
)

// Resolvers are the resolvers of references every program hands its
// engines (pipeline.Options.Resolvers): Go through go/types, Python,
// JavaScript/TypeScript and Java over code the regex parser's lexer
// masked. Every
// program must hand the same list, since an index run by another set
// rebuilds the table of references whole.
func Resolvers() []refs.Resolver {
	return []refs.Resolver{
		golang.New(golang.Options{}),
		python.New(regex.MaskCode),
		scripts.New(regex.MaskCode),
		java.New(regex.MaskCode),
	}
}
