package com.acme.legacy;

class Legacy {
    long run() {
        Cart cart = new Cart(); // @ref src/main/java/com/acme/legacy/Cart.java::Cart src/main/java/com/acme/legacy/Cart.java::Cart
        cart.add(null); // @ref src/main/java/com/acme/legacy/Cart.java::Cart.add
        return cart.total(); // @ref src/main/java/com/acme/legacy/Cart.java::Cart.total
    }
}
