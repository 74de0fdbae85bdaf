package manifest

import "bytes"

// encode returns the manifest in its binary form, in memory: what
// encodeTo writes (Save writes it to the file as it is encoded).
func (m *Manifest) encode() ([]byte, error) {
	var buf bytes.Buffer
	if err := m.encodeTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
