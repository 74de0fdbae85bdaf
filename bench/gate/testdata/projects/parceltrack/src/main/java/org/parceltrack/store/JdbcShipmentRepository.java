package org.parceltrack.store;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.parceltrack.domain.Shipment;
import org.parceltrack.domain.Status;

/** Shipments in PostgreSQL; events are kept as JSON in a column. */
public final class JdbcShipmentRepository implements ShipmentRepository {
    private final String url;

    public JdbcShipmentRepository(String url) { this.url = url; }

    private Connection connect() throws SQLException { return DriverManager.getConnection(url); }

    @Override
    public void save(Shipment s) {
        String sql = "INSERT INTO shipments (tracking_number, carrier, webhook_url, status, eta) VALUES (?, ?, ?, ?, ?) "
                + "ON CONFLICT (tracking_number) DO UPDATE SET status = EXCLUDED.status, eta = EXCLUDED.eta";
        try (var c = connect(); var st = c.prepareStatement(sql)) {
            st.setString(1, s.trackingNumber());
            st.setString(2, s.carrier());
            st.setString(3, s.webhookUrl());
            st.setString(4, s.status().name());
            st.setObject(5, s.estimatedDelivery());
            st.executeUpdate();
        } catch (SQLException e) {
            throw new StoreException("saving " + s.trackingNumber(), e);
        }
    }

    @Override
    public Optional<Shipment> find(String trackingNumber) {
        try (var c = connect(); var st = c.prepareStatement("SELECT carrier, webhook_url FROM shipments WHERE tracking_number = ?")) {
            st.setString(1, trackingNumber);
            var rs = st.executeQuery();
            return rs.next() ? Optional.of(new Shipment(trackingNumber, rs.getString(1), rs.getString(2))) : Optional.empty();
        } catch (SQLException e) {
            throw new StoreException("reading " + trackingNumber, e);
        }
    }

    @Override
    public List<Shipment> findNotFinal() {
        List<Shipment> out = new ArrayList<>();
        try (var c = connect(); var st = c.prepareStatement("SELECT tracking_number, carrier, webhook_url FROM shipments WHERE status NOT IN (?, ?)")) {
            st.setString(1, Status.DELIVERED.name());
            st.setString(2, Status.RETURNED.name());
            var rs = st.executeQuery();
            while (rs.next()) {
                out.add(new Shipment(rs.getString(1), rs.getString(2), rs.getString(3)));
            }
        } catch (SQLException e) {
            throw new StoreException("listing open shipments", e);
        }
        return out;
    }

    public static final class StoreException extends RuntimeException {
        StoreException(String what, SQLException cause) { super(what + ": " + cause.getMessage(), cause); }
    }
}
