package org.parceltrack.service;

import java.util.Map;

import org.parceltrack.domain.Status;

/** Maps each carrier's raw status codes onto the common lifecycle. */
public final class StatusNormalizer {
    private static final Map<String, Map<String, Status>> CODES = Map.of(
            "swiftparcel", Map.of(
                    "LBL", Status.LABEL_CREATED, "PU", Status.IN_TRANSIT, "HUB", Status.IN_TRANSIT,
                    "OFD", Status.OUT_FOR_DELIVERY, "DLV", Status.DELIVERED, "RTS", Status.RETURNED),
            "nationalpost", Map.of(
                    "10", Status.LABEL_CREATED, "20", Status.IN_TRANSIT, "30", Status.IN_TRANSIT,
                    "40", Status.OUT_FOR_DELIVERY, "50", Status.DELIVERED, "91", Status.EXCEPTION, "99", Status.RETURNED));

    private StatusNormalizer() {}

    /** An unknown code is an EXCEPTION, so a human looks at it rather than the parcel looking stuck. */
    public static Status normalize(String carrier, String code) {
        Map<String, Status> codes = CODES.get(carrier);
        if (codes == null) {
            throw new IllegalArgumentException("no status codes for carrier " + carrier);
        }
        return codes.getOrDefault(code, Status.EXCEPTION);
    }
}
