package org.parceltrack.domain;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

public final class Shipment {
    private final String trackingNumber;
    private final String carrier;
    private final String webhookUrl;
    private final List<TrackingEvent> events = new ArrayList<>();
    private Status status = Status.LABEL_CREATED;
    private LocalDate estimatedDelivery;

    public Shipment(String trackingNumber, String carrier, String webhookUrl) {
        this.trackingNumber = trackingNumber;
        this.carrier = carrier;
        this.webhookUrl = webhookUrl;
    }

    /** Adds events not seen before and returns whether the status changed. */
    public boolean apply(List<TrackingEvent> fresh) {
        Status before = status;
        for (TrackingEvent e : fresh) {
            if (!events.contains(e)) {
                events.add(e);
            }
        }
        events.sort(Comparator.comparing(TrackingEvent::at));
        if (!events.isEmpty()) {
            status = events.get(events.size() - 1).status();
        }
        return status != before;
    }

    public String trackingNumber() { return trackingNumber; }
    public String carrier() { return carrier; }
    public String webhookUrl() { return webhookUrl; }
    public List<TrackingEvent> events() { return List.copyOf(events); }
    public Status status() { return status; }
    public LocalDate estimatedDelivery() { return estimatedDelivery; }
    public void estimatedDelivery(LocalDate date) { this.estimatedDelivery = date; }
}
