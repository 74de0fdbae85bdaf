package org.parceltrack.domain;

/** The lifecycle every carrier's codes are normalized into. */
public enum Status {
    LABEL_CREATED, IN_TRANSIT, OUT_FOR_DELIVERY, DELIVERED, EXCEPTION, RETURNED;

    public boolean isFinal() {
        return this == DELIVERED || this == RETURNED;
    }
}
