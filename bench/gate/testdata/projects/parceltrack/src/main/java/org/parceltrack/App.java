package org.parceltrack;

import java.io.InputStream;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.parceltrack.api.TrackingController;
import org.parceltrack.carrier.CarrierRegistry;
import org.parceltrack.notify.WebhookNotifier;
import org.parceltrack.service.TrackingService;
import org.parceltrack.store.JdbcShipmentRepository;

public final class App {
    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        try (InputStream in = App.class.getResourceAsStream("/application.properties")) {
            props.load(in);
        }
        var repository = new JdbcShipmentRepository(props.getProperty("db.url"));
        var carriers = CarrierRegistry.fromProperties(props);
        var notifier = new WebhookNotifier(props.getProperty("webhook.secret"),
                Integer.parseInt(props.getProperty("webhook.timeout.seconds", "10")));
        var service = new TrackingService(repository, carriers, notifier);
        var scheduler = Executors.newSingleThreadScheduledExecutor();
        long every = Long.parseLong(props.getProperty("poll.interval.minutes", "30"));
        scheduler.scheduleAtFixedRate(service::pollAll, 0, every, TimeUnit.MINUTES);
        new TrackingController(service).listen(Integer.parseInt(props.getProperty("server.port", "8090")));
    }
}
