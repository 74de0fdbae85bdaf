package com.acme.shop;

import java.util.ArrayList;
import java.util.List;

import com.acme.util.Money;

/** A cart of items. */
public class Cart {
    private final List<Item> items = new ArrayList<>(); // @ref src/main/java/com/acme/shop/Item.java::Item
    private Pricing pricing; // @ref src/main/java/com/acme/shop/Pricing.java::Pricing

    public Cart(Pricing pricing) { // @ref src/main/java/com/acme/shop/Pricing.java::Pricing
        this.pricing = pricing;
    }

    public void add(Item item) { // @ref src/main/java/com/acme/shop/Item.java::Item
        items.add(item);
    }

    public long total() {
        long sum = 0;
        for (Item it : items) { // @ref src/main/java/com/acme/shop/Item.java::Item
            sum += pricing.price(it); // @ref src/main/java/com/acme/shop/Pricing.java::Pricing.price
        }
        return sum;
    }

    public String describe() {
        // total() in this comment and "total()" in a string are no use of it.
        String label = "total() of " + items.size();
        return label + Money.format(total()); // @ref src/main/java/com/acme/util/Money.java::Money src/main/java/com/acme/util/Money.java::Money.format src/main/java/com/acme/shop/Cart.java::Cart.total
    }

    public static Cart empty() { // @ref src/main/java/com/acme/shop/Cart.java::Cart
        return new Cart(new Pricing()); // @ref src/main/java/com/acme/shop/Cart.java::Cart src/main/java/com/acme/shop/Pricing.java::Pricing
    }

    public Pricing pricing() { // @ref src/main/java/com/acme/shop/Pricing.java::Pricing
        return pricing;
    }

    static class Line {
        private final Item item; // @ref src/main/java/com/acme/shop/Item.java::Item
        private final int qty;

        Line(Item item, int qty) { // @ref src/main/java/com/acme/shop/Item.java::Item
            this.item = item;
            this.qty = qty;
        }

        long total() {
            return item.cents() * qty; // @ref src/main/java/com/acme/shop/Item.java::Item.cents
        }
    }

    public long firstLine() {
        Line line = new Line(new Item("x", 1), 2); // @ref src/main/java/com/acme/shop/Cart.java::Cart.Line src/main/java/com/acme/shop/Cart.java::Cart.Line src/main/java/com/acme/shop/Item.java::Item
        return line.total(); // @ref src/main/java/com/acme/shop/Cart.java::Line.total
    }
}
