package org.parceltrack.carrier;

import java.io.IOException;
import java.util.List;

import org.parceltrack.domain.TrackingEvent;

/** A carrier's tracking API. */
public interface CarrierClient {
    String name();

    /** Whether the tracking number has this carrier's format. */
    boolean recognizes(String trackingNumber);

    /** The carrier's events for the number, with their raw status codes normalized. */
    List<TrackingEvent> fetchEvents(String trackingNumber) throws IOException, InterruptedException;
}
