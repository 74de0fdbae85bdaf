package org.parceltrack.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.parceltrack.domain.Status;

class StatusNormalizerTest {
    @Test
    void knownCodes() {
        assertEquals(Status.OUT_FOR_DELIVERY, StatusNormalizer.normalize("swiftparcel", "OFD"));
        assertEquals(Status.DELIVERED, StatusNormalizer.normalize("nationalpost", "50"));
    }

    @Test
    void unknownCodeIsAnException() {
        assertEquals(Status.EXCEPTION, StatusNormalizer.normalize("nationalpost", "77"));
    }
}
