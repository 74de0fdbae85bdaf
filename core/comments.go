package core

// A CommentMasker blanks the comments of a source file: it returns a copy
// of src, of the same length and with the same line breaks, in which every
// byte of a comment is a space and every other byte is src's; ok is false
// for a language it does not know. The knowledge graph hashes code with it
// so that an edit to a comment does not make a note stale. The built-in
// regex parser's lexer is one (plugins/lang-regex's MaskComments); a
// program hands it to its engines (pipeline.Options.MaskComments), since
// the core cannot link a plugin. Every program of rubi hands the same one:
// a note's anchors are hashes that must not depend on which program
// computed them.
type CommentMasker func(lang string, src []byte) ([]byte, bool)

// A CodeMasker blanks the comments and the contents of the string
// literals of a source file: it returns a copy of src, of the same length
// and with the same line breaks, in which every byte of a comment or
// inside a string's quotes is a space, the quotes and string prefixes are
// kept, and every other byte is src's; ok is false for a language it does
// not know. What remains is code only, so a name in it is a name the
// program uses, never one a comment or a message mentions; the original
// is read at the same offsets for a string's contents (a quoted type
// annotation). The reference resolvers read code through it; the regex
// parser's lexer is one (plugins/lang-regex's MaskCode), handed in by the
// programs as a CommentMasker is.
type CodeMasker func(lang string, src []byte) ([]byte, bool)
