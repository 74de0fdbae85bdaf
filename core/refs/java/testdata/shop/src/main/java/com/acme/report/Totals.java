package com.acme.report;

import com.acme.shop.Item;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Elements of containers: what a list, a stream or an Optional of a project type hands out. */
class Totals {
    private final List<Item> items = new ArrayList<>(); // @ref src/main/java/com/acme/shop/Item.java::Item

    long sum() {
        long s = 0;
        for (var it : items) {
            s += it.cents(); // @ref src/main/java/com/acme/shop/Item.java::Item.cents
        }
        items.forEach(it -> it.name()); // @ref src/main/java/com/acme/shop/Item.java::Item.name
        return s + items.get(0).cents(); // @ref src/main/java/com/acme/shop/Item.java::Item.cents
    }

    String first() {
        Optional<Item> o = items.stream().filter((it) -> it.cents() > 0).findFirst(); // @ref src/main/java/com/acme/shop/Item.java::Item src/main/java/com/acme/shop/Item.java::Item.cents
        return o.get().name() + this.items.stream().findAny().get().name(); // @ref src/main/java/com/acme/shop/Item.java::Item.name src/main/java/com/acme/shop/Item.java::Item.name
    }

    int decoys(Map<String, Item> byName) { // @ref src/main/java/com/acme/shop/Item.java::Item
        List<String> names = new ArrayList<>();
        names.forEach(n -> n.length());
        items.stream().map(it -> it.name()).forEach(n -> n.length()); // @ref src/main/java/com/acme/shop/Item.java::Item.name
        items.stream().map(it -> new Coupon()).forEach(c -> c.cents()); // @ref src/main/java/com/acme/report/Totals.java::Totals.Coupon src/main/java/com/acme/report/Totals.java::Coupon.cents
        List<Item> items = null; // @ref src/main/java/com/acme/shop/Item.java::Item
        Object it = items;
        return names.size() + it.hashCode();
    }

    /** Not an Item, though it has cents: what map turns the items into. */
    static class Coupon {
        long cents() {
            return 5;
        }
    }
}
