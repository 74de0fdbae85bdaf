package org.parceltrack.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.LocalDate;

import org.junit.jupiter.api.Test;

class EtaEstimatorTest {
    @Test
    void skipsTheWeekend() {
        // Friday + 2 working days is Tuesday.
        assertEquals(LocalDate.of(2024, 3, 12), EtaEstimator.addWorkingDays(LocalDate.of(2024, 3, 8), 2));
    }
}
