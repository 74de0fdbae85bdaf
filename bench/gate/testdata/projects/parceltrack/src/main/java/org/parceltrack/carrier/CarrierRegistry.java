package org.parceltrack.carrier;

import java.util.List;
import java.util.Properties;

/** The carriers, asked in order which one a tracking number belongs to. */
public final class CarrierRegistry {
    private final List<CarrierClient> carriers;

    public CarrierRegistry(List<CarrierClient> carriers) { this.carriers = carriers; }

    public static CarrierRegistry fromProperties(Properties p) {
        return new CarrierRegistry(List.of(
                new SwiftParcelClient(p.getProperty("carrier.swiftparcel.apiKey")),
                new NationalPostClient(p.getProperty("carrier.nationalpost.baseUrl"))));
    }

    public CarrierClient forNumber(String trackingNumber) {
        for (CarrierClient c : carriers) {
            if (c.recognizes(trackingNumber)) {
                return c;
            }
        }
        throw new UnknownCarrierException(trackingNumber);
    }

    public CarrierClient byName(String name) {
        return carriers.stream().filter(c -> c.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no carrier named " + name));
    }

    public static final class UnknownCarrierException extends RuntimeException {
        public UnknownCarrierException(String number) {
            super("no carrier recognizes tracking number " + number);
        }
    }
}
