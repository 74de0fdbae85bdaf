package auth

import "crypto/subtle"

// Check reports whether the API token given matches the one configured.
func Check(given, want string) bool {
	return subtle.ConstantTimeCompare([]byte(given), []byte(want)) == 1
}
