package walk

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// binaryExts are extensions (lower case, with the dot) of formats that are
// never useful as text. Skipping them by name keeps the walk free of reads;
// anything else is sniffed by the caller with IsBinary. Ambiguous extensions
// that are often text (.svg, .obj for Wavefront, .pdb for proteins) are
// deliberately absent.
var binaryExts = setOf(
	// Images.
	".png", ".jpg", ".jpeg", ".gif", ".bmp", ".ico", ".icns", ".tif", ".tiff",
	".webp", ".avif", ".heic", ".psd", ".xcf",
	// Archives and packages.
	".zip", ".tar", ".gz", ".tgz", ".bz2", ".xz", ".zst", ".lz4", ".lzma",
	".7z", ".rar", ".jar", ".war", ".ear", ".apk", ".aab", ".ipa", ".deb",
	".rpm", ".dmg", ".iso", ".whl", ".egg", ".nupkg", ".crx", ".xpi",
	// Executables, libraries, objects and bytecode.
	".exe", ".dll", ".so", ".dylib", ".a", ".o", ".lib", ".ko",
	".node", ".class", ".dex", ".pyc", ".pyo", ".pyd", ".wasm", ".rlib",
	".beam", ".pch", ".gch", ".bin",
	// Fonts.
	".ttf", ".otf", ".woff", ".woff2", ".eot",
	// Audio and video.
	".mp3", ".wav", ".flac", ".ogg", ".oga", ".opus", ".aac", ".m4a", ".mid",
	".midi", ".mp4", ".m4v", ".mov", ".avi", ".mkv", ".webm", ".wmv", ".flv",
	".ogv",
	// Documents.
	".pdf", ".doc", ".docx", ".xls", ".xlsx", ".ppt", ".pptx", ".odt",
	".ods", ".odp", ".epub",
	// Databases, data and model files.
	".sqlite", ".sqlite3", ".db", ".parquet", ".npy", ".npz", ".pkl",
	".h5", ".hdf5", ".onnx", ".pt", ".pth", ".ckpt", ".safetensors",
	".tflite",
	// Misc binary assets.
	".swf", ".blend", ".fbx", ".glb",
)

func setOf(items ...string) map[string]struct{} {
	m := make(map[string]struct{}, len(items))
	for _, s := range items {
		m[s] = struct{}{}
	}
	return m
}

func hasBinaryExt(name string) bool {
	i := strings.LastIndexByte(name, '.')
	if i <= 0 { // no extension, or a dotfile such as ".a"
		return false
	}
	_, ok := binaryExts[strings.ToLower(name[i:])] // ToLower allocates only for upper case
	return ok
}

// sniffLen is how much of a file IsBinary looks at; git uses the same.
const sniffLen = 8000

// IsBinary reports whether head, the start of a file, looks binary: a NUL
// byte in the first 8000 bytes (git's test), or more than 30% of those bytes
// invalid UTF-8 or control characters. The ratio, rather than any bad byte,
// keeps Latin-1 text with a few accents readable. Empty input is text.
func IsBinary(head []byte) bool {
	if len(head) > sniffLen {
		head = head[:sniffLen]
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	bad, n := 0, len(head)
	for i := 0; i < len(head); {
		c := head[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && !textControl(c) || c == 0x7f {
				bad++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(head[i:])
		if r == utf8.RuneError && size == 1 {
			if !utf8.FullRune(head[i:]) {
				n = i // a rune cut by the sniff window is not evidence
				break
			}
			bad++
		}
		i += size
	}
	return bad*10 > n*3
}

// textControl reports control characters common in text: tab, newline,
// vertical tab, form feed, carriage return, backspace and escape (ANSI
// colours in logs).
func textControl(c byte) bool {
	switch c {
	case '\t', '\n', '\v', '\f', '\r', '\b', 0x1b:
		return true
	}
	return false
}
