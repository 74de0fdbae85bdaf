package org.parceltrack.service;

import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.parceltrack.carrier.CarrierClient;
import org.parceltrack.carrier.CarrierRegistry;
import org.parceltrack.domain.Shipment;
import org.parceltrack.notify.WebhookNotifier;
import org.parceltrack.store.ShipmentRepository;

/** Registers shipments and polls the carriers for the ones not yet delivered. */
public final class TrackingService {
    private static final Logger LOG = Logger.getLogger(TrackingService.class.getName());
    private final ShipmentRepository repository;
    private final CarrierRegistry carriers;
    private final WebhookNotifier notifier;
    private final EtaEstimator eta = new EtaEstimator(ZoneId.of("Europe/Berlin"));

    public TrackingService(ShipmentRepository repository, CarrierRegistry carriers, WebhookNotifier notifier) {
        this.repository = repository;
        this.carriers = carriers;
        this.notifier = notifier;
    }

    public Shipment register(String trackingNumber, String webhookUrl) {
        CarrierClient carrier = carriers.forNumber(trackingNumber);
        Shipment s = new Shipment(trackingNumber, carrier.name(), webhookUrl);
        repository.save(s);
        return s;
    }

    public void pollAll() {
        List<Shipment> open = repository.findNotFinal();
        for (Shipment s : open) {
            try {
                poll(s);
            } catch (Exception e) {
                LOG.log(Level.WARNING, "polling " + s.trackingNumber() + " failed", e);
            }
        }
    }

    void poll(Shipment s) throws Exception {
        var events = carriers.byName(s.carrier()).fetchEvents(s.trackingNumber());
        if (s.apply(events)) {
            s.estimatedDelivery(eta.estimate(s, LocalDate.now(eta.zone())));
            repository.save(s);
            notifier.statusChanged(s);
        }
    }

    public Shipment find(String trackingNumber) {
        return repository.find(trackingNumber).orElseThrow(() -> new IllegalArgumentException("unknown shipment " + trackingNumber));
    }
}
