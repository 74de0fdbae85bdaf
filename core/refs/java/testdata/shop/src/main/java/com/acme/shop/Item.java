package com.acme.shop;

/** An item with a price in cents. */
public class Item {
    private final String name;
    private final long cents;

    public Item(String name, long cents) {
        this.name = name;
        this.cents = cents;
    }

    public long cents() {
        return cents;
    }

    public String name() {
        return name;
    }
}
