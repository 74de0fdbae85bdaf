package org.parceltrack.store;

import java.util.List;
import java.util.Optional;

import org.parceltrack.domain.Shipment;

public interface ShipmentRepository {
    void save(Shipment shipment);

    Optional<Shipment> find(String trackingNumber);

    /** Shipments whose status is not final: the ones still polled. */
    List<Shipment> findNotFinal();
}
