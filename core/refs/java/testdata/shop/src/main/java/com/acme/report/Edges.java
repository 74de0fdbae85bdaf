package com.acme.report;

import com.acme.shop.Cart;
import com.acme.shop.Item;
import java.util.List;
import java.util.Map;

/** What the resolver must read past: generics, comparisons, text blocks, records, enums. */
public class Edges extends Report { // @ref src/main/java/com/acme/report/Report.java::Report
    enum Mode { FAST, SLOW }

    record Pair(Cart left, Item right) { // @ref src/main/java/com/acme/shop/Cart.java::Cart src/main/java/com/acme/shop/Item.java::Item
    }

    private final Map<String, List<Item>> byName = null; // @ref src/main/java/com/acme/shop/Item.java::Item

    public Edges(Cart cart) { // @ref src/main/java/com/acme/shop/Cart.java::Cart
        super(cart);
    }

    @Override
    public long total() {
        int a = 1, b = 2;
        boolean less = a < b && b > a;
        String text = """
            Cart.empty().total() is text, "quoted" inside
            """;
        return super.total() + Cart.empty().total() + text.length(); // @ref src/main/java/com/acme/report/Report.java::Report.total src/main/java/com/acme/shop/Cart.java::Cart src/main/java/com/acme/shop/Cart.java::Cart.empty src/main/java/com/acme/shop/Cart.java::Cart.total
    }

    public long qualified() {
        com.acme.shop.Cart c = com.acme.shop.Cart.empty(); // @ref src/main/java/com/acme/shop/Cart.java::Cart src/main/java/com/acme/shop/Cart.java::Cart src/main/java/com/acme/shop/Cart.java::Cart.empty
        return c.total(); // @ref src/main/java/com/acme/shop/Cart.java::Cart.total
    }

    public long inherited(Edges other) { // @ref src/main/java/com/acme/report/Edges.java::Edges
        Mode m = Mode.FAST; // @ref src/main/java/com/acme/report/Edges.java::Edges.Mode src/main/java/com/acme/report/Edges.java::Edges.Mode
        return other.total() + other.header().length() + this.render().length(); // @ref src/main/java/com/acme/report/Edges.java::Edges.total src/main/java/com/acme/report/Base.java::Base.header src/main/java/com/acme/report/Report.java::Report.render
    }

    class Inner {
        long outer() {
            return Edges.this.total(); // @ref src/main/java/com/acme/report/Edges.java::Edges src/main/java/com/acme/report/Edges.java::Edges.total
        }
    }
}
