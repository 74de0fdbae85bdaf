package com.acme.report;

import com.acme.shop.Item;
import java.util.ArrayList;

/** A list of items that extends a library class, its header over two lines. */
class Ledger
        extends ArrayList<Item> implements Sized { // @ref src/main/java/com/acme/shop/Item.java::Item src/main/java/com/acme/report/Ledger.java::Sized
    boolean add(Item item, int times) { // @ref src/main/java/com/acme/shop/Item.java::Item
        return times > 0 && add(item);
    }

    static long fill(Ledger ledger, Item item) { // @ref src/main/java/com/acme/report/Ledger.java::Ledger src/main/java/com/acme/shop/Item.java::Item
        ledger.add(item);
        ledger.add(item, 2); // @ref src/main/java/com/acme/report/Ledger.java::Ledger.add
        return ledger.size(); // ArrayList's size, which the project does not define
    }
}

/** What Ledger implements, which ArrayList's size fulfils. */
interface Sized {
    int size();
}

/** A report whose header spans lines: what it extends is read from the code. */
class Audit
        extends Base { // @ref src/main/java/com/acme/report/Base.java::Base
    String run() {
        return header(); // @ref src/main/java/com/acme/report/Base.java::Base.header
    }
}
