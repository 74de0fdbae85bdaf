package com.acme.shop;

/** The list price of an item, discounted. */
public class Pricing implements Priced { // @ref src/main/java/com/acme/shop/Priced.java::Priced
    private int percent;

    public long price(Item item) { // @ref src/main/java/com/acme/shop/Item.java::Item
        return item.cents() * (100 - percent) / 100; // @ref src/main/java/com/acme/shop/Item.java::Item.cents
    }

    public Pricing discounted(int percent) { // @ref src/main/java/com/acme/shop/Pricing.java::Pricing
        Pricing p = new Pricing(); // @ref src/main/java/com/acme/shop/Pricing.java::Pricing src/main/java/com/acme/shop/Pricing.java::Pricing
        p.percent = percent;
        return p;
    }
}
