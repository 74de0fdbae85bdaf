package org.parceltrack.notify;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.parceltrack.domain.Shipment;

/**
 * Tells the shop about a status change: a POST of the shipment as JSON,
 * signed with HMAC-SHA256 of the body in the X-Parceltrack-Signature header.
 */
public final class WebhookNotifier {
    private final byte[] secret;
    private final HttpClient http;

    public WebhookNotifier(String secret, int timeoutSeconds) {
        this.secret = secret.getBytes(StandardCharsets.UTF_8);
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(timeoutSeconds)).build();
    }

    public void statusChanged(Shipment s) throws Exception {
        String body = "{\"tracking_number\":\"" + s.trackingNumber() + "\",\"status\":\"" + s.status() + "\",\"eta\":"
                + (s.estimatedDelivery() == null ? "null" : "\"" + s.estimatedDelivery() + "\"") + "}";
        HttpRequest req = HttpRequest.newBuilder(URI.create(s.webhookUrl()))
                .header("Content-Type", "application/json")
                .header("X-Parceltrack-Signature", sign(body))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        HttpResponse<Void> resp = http.send(req, HttpResponse.BodyHandlers.discarding());
        if (resp.statusCode() >= 300) {
            throw new IllegalStateException("webhook " + s.webhookUrl() + " answered " + resp.statusCode());
        }
    }

    String sign(String body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret, "HmacSHA256"));
        return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body.getBytes(StandardCharsets.UTF_8)));
    }
}
