package org.parceltrack.api;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import org.parceltrack.carrier.CarrierRegistry.UnknownCarrierException;
import org.parceltrack.domain.Shipment;
import org.parceltrack.service.TrackingService;

/** GET /shipments/{number} and POST /shipments?number=..&webhook=.. */
public final class TrackingController {
    private final TrackingService service;

    public TrackingController(TrackingService service) { this.service = service; }

    public void listen(int port) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(port), 0);
        server.createContext("/shipments", this::handle);
        server.start();
    }

    private void handle(HttpExchange ex) throws IOException {
        try {
            if (ex.getRequestMethod().equals("POST")) {
                var q = Query.parse(ex.getRequestURI().getRawQuery());
                reply(ex, 201, json(service.register(q.get("number"), q.get("webhook"))));
            } else {
                String number = ex.getRequestURI().getPath().substring("/shipments/".length());
                reply(ex, 200, json(service.find(number)));
            }
        } catch (UnknownCarrierException | IllegalArgumentException e) {
            reply(ex, 400, "{\"error\":\"" + e.getMessage() + "\"}");
        }
    }

    private static String json(Shipment s) {
        return "{\"tracking_number\":\"" + s.trackingNumber() + "\",\"carrier\":\"" + s.carrier() + "\",\"status\":\"" + s.status() + "\"}";
    }

    private static void reply(HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }
}
