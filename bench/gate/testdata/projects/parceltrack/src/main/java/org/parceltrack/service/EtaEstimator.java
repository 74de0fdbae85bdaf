package org.parceltrack.service;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.ZoneId;

import org.parceltrack.domain.Shipment;
import org.parceltrack.domain.Status;

/**
 * Estimates the delivery date from the last status: in transit is two
 * working days, out for delivery is today. Weekends are skipped; holidays
 * are not known.
 */
public final class EtaEstimator {
    private final ZoneId zone;

    public EtaEstimator(ZoneId zone) { this.zone = zone; }

    public LocalDate estimate(Shipment s, LocalDate today) {
        return switch (s.status()) {
            case OUT_FOR_DELIVERY -> today;
            case IN_TRANSIT -> addWorkingDays(today, 2);
            case LABEL_CREATED -> addWorkingDays(today, 3);
            default -> null;
        };
    }

    static LocalDate addWorkingDays(LocalDate from, int days) {
        LocalDate d = from;
        while (days > 0) {
            d = d.plusDays(1);
            if (d.getDayOfWeek() != DayOfWeek.SATURDAY && d.getDayOfWeek() != DayOfWeek.SUNDAY) {
                days--;
            }
        }
        return d;
    }

    public ZoneId zone() { return zone; }

    public boolean isLate(Shipment s, LocalDate today) {
        return s.status() != Status.DELIVERED && s.estimatedDelivery() != null && today.isAfter(s.estimatedDelivery());
    }
}
