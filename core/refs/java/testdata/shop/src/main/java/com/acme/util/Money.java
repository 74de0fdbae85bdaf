package com.acme.util;

/** Amounts of money in cents. */
public final class Money {
    private Money() {
    }

    public static String format(long cents) {
        return cents / 100 + "." + cents % 100;
    }
}
