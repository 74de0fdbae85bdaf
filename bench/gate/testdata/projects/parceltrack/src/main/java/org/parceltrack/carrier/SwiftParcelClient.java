package org.parceltrack.carrier;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.parceltrack.domain.TrackingEvent;
import org.parceltrack.service.StatusNormalizer;
import org.parceltrack.util.Retry;

public final class SwiftParcelClient implements CarrierClient {
    private static final Pattern NUMBER = Pattern.compile("SP\\d{10}");
    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();
    private final String apiKey;

    public SwiftParcelClient(String apiKey) { this.apiKey = apiKey; }

    @Override public String name() { return "swiftparcel"; }

    @Override public boolean recognizes(String n) { return NUMBER.matcher(n).matches(); }

    @Override
    public List<TrackingEvent> fetchEvents(String number) throws IOException, InterruptedException {
        HttpRequest req = HttpRequest.newBuilder(URI.create("https://api.swiftparcel.example/v1/parcels/" + number + "/events"))
                .header("X-Api-Key", apiKey).build();
        HttpResponse<String> resp = Retry.withBackoff(3, () -> http.send(req, HttpResponse.BodyHandlers.ofString()));
        if (resp.statusCode() == 404) {
            return List.of();
        }
        List<TrackingEvent> out = new ArrayList<>();
        for (JsonNode e : json.readTree(resp.body()).path("events")) {
            String code = e.path("code").asText();
            out.add(new TrackingEvent(Instant.parse(e.path("timestamp").asText()), code,
                    StatusNormalizer.normalize(name(), code), e.path("facility").asText(""), e.path("text").asText("")));
        }
        return out;
    }
}
