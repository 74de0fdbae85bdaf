package com.acme.shop;

/** Something that prices items. */
public interface Priced {
    long price(Item item); // @ref src/main/java/com/acme/shop/Item.java::Item
}
