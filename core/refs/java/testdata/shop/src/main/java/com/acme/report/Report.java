package com.acme.report;

import com.acme.shop.*;
import java.util.function.LongSupplier;

import static com.acme.util.Money.format;

/** A report on a cart. */
public class Report extends Base { // @ref src/main/java/com/acme/report/Base.java::Base
    private final Cart cart; // @ref src/main/java/com/acme/shop/Cart.java::Cart

    public Report(Cart cart) { // @ref src/main/java/com/acme/shop/Cart.java::Cart
        this.cart = cart;
    }

    /** The report's own total: not the cart's. */
    public long total() {
        return cart.total(); // @ref src/main/java/com/acme/shop/Cart.java::Cart.total
    }

    public String render() {
        long t = total(); // @ref src/main/java/com/acme/report/Report.java::Report.total
        var pricing = new Pricing(); // @ref src/main/java/com/acme/shop/Pricing.java::Pricing
        Cart empty = Cart.empty(); // @ref src/main/java/com/acme/shop/Cart.java::Cart src/main/java/com/acme/shop/Cart.java::Cart src/main/java/com/acme/shop/Cart.java::Cart.empty
        long p = pricing.discounted(10).price(null); // @ref src/main/java/com/acme/shop/Pricing.java::Pricing.discounted src/main/java/com/acme/shop/Pricing.java::Pricing.price
        return header() + format(t + p) + empty.total(); // @ref src/main/java/com/acme/report/Base.java::Base.header src/main/java/com/acme/util/Money.java::Money.format src/main/java/com/acme/shop/Cart.java::Cart.total
    }

    public long shadowed() {
        java.util.concurrent.atomic.LongAdder cart = new java.util.concurrent.atomic.LongAdder();
        cart.add(this.cart.total()); // @ref src/main/java/com/acme/shop/Cart.java::Cart.total
        com.acme.legacy.Cart old = new com.acme.legacy.Cart(); // @ref src/main/java/com/acme/legacy/Cart.java::Cart src/main/java/com/acme/legacy/Cart.java::Cart
        return cart.sum() + old.total(); // @ref src/main/java/com/acme/legacy/Cart.java::Cart.total
    }

    public long matched(Object o) {
        if (o instanceof Cart c) { // @ref src/main/java/com/acme/shop/Cart.java::Cart
            return c.total(); // @ref src/main/java/com/acme/shop/Cart.java::Cart.total
        }
        return 0;
    }

    public LongSupplier supplier() {
        return cart::total; // @ref src/main/java/com/acme/shop/Cart.java::Cart.total
    }

    public Runnable task() {
        return new Runnable() {
            public void run() {
                total(); // @ref src/main/java/com/acme/report/Report.java::Report.total
                helper();
            }

            private void helper() {
            }
        };
    }

    public String anonymous() {
        Base b = new Base() { // @ref src/main/java/com/acme/report/Base.java::Base src/main/java/com/acme/report/Base.java::Base
            @Override
            protected String header() {
                return "custom";
            }

            String twice() {
                return header() + this.header();
            }
        };
        return b.header(); // @ref src/main/java/com/acme/report/Base.java::Base.header
    }

    public String heading() {
        Heading h = new Heading(); // @ref src/main/java/com/acme/report/Base.java::Base.Heading src/main/java/com/acme/report/Base.java::Base.Heading
        return h.text(); // @ref src/main/java/com/acme/report/Base.java::Heading.text
    }

    String tag() {
        return "report";
    }

    /** Extends Base, whose tag is private: tag() here is Report's. */
    class Tagged extends Base { // @ref src/main/java/com/acme/report/Base.java::Base
        String label() {
            return tag(); // @ref src/main/java/com/acme/report/Report.java::Report.tag
        }
    }

    public String secret() {
        Secret s = new Secret(); // @ref src/main/java/com/acme/report/Secret.java::Secret src/main/java/com/acme/report/Secret.java::Secret
        return s.tell(); // @ref src/main/java/com/acme/report/Secret.java::Secret.tell
    }

    public long lambdas(java.util.List<Cart> carts) { // @ref src/main/java/com/acme/shop/Cart.java::Cart
        return carts.stream().mapToLong(c -> c.total()).sum(); // @ref src/main/java/com/acme/shop/Cart.java::Cart.total
    }
}
