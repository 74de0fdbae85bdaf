package core

import "sync"

// A comment masker blanks the comments of a source file: it returns a copy
// of src, of the same length and with the same line breaks, in which every
// byte of a comment is a space and every other byte is src's; ok is false
// for a language it does not know. The knowledge graph hashes code with it
// so that an edit to a comment does not make a note stale. The built-in
// regex parser registers one (plugins/lang-regex) from init.
var (
	maskerMu sync.RWMutex
	masker   func(lang string, src []byte) ([]byte, bool)
)

// RegisterCommentMasker sets the comment masker.
func RegisterCommentMasker(f func(lang string, src []byte) ([]byte, bool)) {
	maskerMu.Lock()
	defer maskerMu.Unlock()
	masker = f
}

// MaskComments blanks the comments of src, a file of language lang, with
// the registered masker; ok is false without one or for a language it
// does not know.
func MaskComments(lang string, src []byte) ([]byte, bool) {
	maskerMu.RLock()
	f := masker
	maskerMu.RUnlock()
	if f == nil {
		return nil, false
	}
	return f(lang, src)
}
