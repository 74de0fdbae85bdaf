package cli

import "github.com/rubi-dev/rubi/core/messages"

// note is a message of the catalog (core/messages) with its arguments,
// kept unrendered: a report renders it in the user's language for a
// terminal and in English for --json, whose text is the same in every
// language. An argument that is itself a note or a count is rendered in
// the same language.
type note struct {
	kind uint8 // 0: none, 1: a message, 2: raw text
	key  messages.Key
	args []any
	raw  string
}

// say is the message k with args.
func say(k messages.Key, args ...any) note { return note{kind: 1, key: k, args: args} }

// raw is text of no language: a command, a path, a version.
func raw(s string) note { return note{kind: 2, raw: s} }

// count is n with a counted noun, rendered in the note's language.
type count struct {
	n int
	w messages.Noun
}

func (n note) isZero() bool { return n.kind == 0 }

// in renders the note in l.
func (n note) in(l messages.Lang) string {
	switch n.kind {
	case 1:
		args := make([]any, len(n.args))
		for i, a := range n.args {
			switch v := a.(type) {
			case note:
				args[i] = v.in(l)
			case count:
				args[i] = l.Count(v.n, v.w)
			default:
				args[i] = a
			}
		}
		return l.Format(n.key, args...)
	case 2:
		return n.raw
	}
	return ""
}
