package org.parceltrack.domain;

import java.time.Instant;

/** One scan or status update reported by a carrier. */
public record TrackingEvent(Instant at, String carrierCode, Status status, String location, String description) {
}
