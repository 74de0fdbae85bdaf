package org.parceltrack.carrier;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.parceltrack.domain.TrackingEvent;
import org.parceltrack.service.StatusNormalizer;
import org.parceltrack.util.Retry;

/** National Post: local times without a zone, which are UTC+1 all year. */
public final class NationalPostClient implements CarrierClient {
    private static final Pattern NUMBER = Pattern.compile("[A-Z]{2}\\d{9}[A-Z]{2}");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("dd.MM.yyyy HH:mm");
    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();
    private final String baseUrl;

    public NationalPostClient(String baseUrl) { this.baseUrl = baseUrl; }

    @Override public String name() { return "nationalpost"; }

    @Override public boolean recognizes(String n) { return NUMBER.matcher(n).matches(); }

    @Override
    public List<TrackingEvent> fetchEvents(String number) throws IOException, InterruptedException {
        HttpRequest req = HttpRequest.newBuilder(URI.create(baseUrl + "?id=" + number)).build();
        HttpResponse<String> resp = Retry.withBackoff(3, () -> http.send(req, HttpResponse.BodyHandlers.ofString()));
        List<TrackingEvent> out = new ArrayList<>();
        for (JsonNode e : json.readTree(resp.body()).path("shipment").path("history")) {
            var local = LocalDateTime.parse(e.path("date").asText(), TIME);
            String code = e.path("statusCode").asText();
            out.add(new TrackingEvent(local.toInstant(ZoneOffset.ofHours(1)), code,
                    StatusNormalizer.normalize(name(), code), e.path("office").asText(""), e.path("status").asText("")));
        }
        return out;
    }
}
