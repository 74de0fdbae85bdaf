package org.parceltrack.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class WebhookNotifierTest {
    @Test
    void signatureIsHmacOfTheBody() throws Exception {
        var n = new WebhookNotifier("secret", 5);
        assertEquals("sha256=", n.sign("{}").substring(0, 7));
        assertEquals(71, n.sign("{}").length());
    }
}
