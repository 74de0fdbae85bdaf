package com.acme.report;

/** The package's Secret: what Report's Secret is, Base's own being private. */
class Secret {
    String tell() {
        return "package";
    }
}
