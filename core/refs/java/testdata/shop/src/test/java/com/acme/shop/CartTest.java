package com.acme.shop;

class CartTest {
    void totals() {
        Cart cart = Cart.empty(); // @ref src/main/java/com/acme/shop/Cart.java::Cart src/main/java/com/acme/shop/Cart.java::Cart src/main/java/com/acme/shop/Cart.java::Cart.empty
        cart.add(new Item("a", 100)); // @ref src/main/java/com/acme/shop/Cart.java::Cart.add src/main/java/com/acme/shop/Item.java::Item
        assert cart.total() == 100 : "total"; // @ref src/main/java/com/acme/shop/Cart.java::Cart.total
    }
}
