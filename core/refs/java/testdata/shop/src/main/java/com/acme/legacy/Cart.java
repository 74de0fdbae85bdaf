package com.acme.legacy;

/** The old cart: a same-named class in another package, whose total is not the shop's. */
public class Cart {
    public long total() {
        return 0;
    }

    public void add(Object item) {
    }
}
