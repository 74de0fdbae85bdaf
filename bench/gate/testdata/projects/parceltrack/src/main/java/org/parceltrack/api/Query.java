package org.parceltrack.api;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** A URL's query string as a map. */
final class Query {
    private final Map<String, String> values;

    private Query(Map<String, String> values) { this.values = values; }

    static Query parse(String raw) {
        Map<String, String> m = new HashMap<>();
        if (raw != null) {
            for (String pair : raw.split("&")) {
                String[] kv = pair.split("=", 2);
                m.put(URLDecoder.decode(kv[0], StandardCharsets.UTF_8), kv.length > 1 ? URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "");
            }
        }
        return new Query(m);
    }

    String get(String key) {
        String v = values.get(key);
        if (v == null || v.isEmpty()) {
            throw new IllegalArgumentException("missing query parameter " + key);
        }
        return v;
    }
}
