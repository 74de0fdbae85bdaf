package store

import "os"

// Stamp identifies one version of a file, so a long-lived process notices
// that another one replaced it: rubi replaces files by rename, so a new
// version is a new file (os.SameFile), whatever the resolution of
// modification times; time and size catch the rest.
type Stamp struct {
	info os.FileInfo
}

// StampOf stamps the file at path; the zero Stamp when it cannot be read.
func StampOf(path string) (Stamp, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return Stamp{}, err
	}
	return Stamp{fi}, nil
}

// Valid reports whether the stamp is of a file that existed.
func (s Stamp) Valid() bool { return s.info != nil }

// Same reports whether two stamps are of the same version of a file.
func (s Stamp) Same(o Stamp) bool {
	return s.info != nil && o.info != nil && os.SameFile(s.info, o.info) &&
		s.info.ModTime().Equal(o.info.ModTime()) && s.info.Size() == o.info.Size()
}
