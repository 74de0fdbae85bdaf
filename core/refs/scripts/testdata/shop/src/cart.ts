// Cart.total() named in a comment: no reference.
export const TAX = 0.2;

export class Item {
  constructor(public name: string, public price: number) {}

  total(): number {
    // Same name as Cart.total: a decoy in the same module.
    return this.price;
  }
}

export class Cart {
  items: Item[] = []; // @ref src/cart.ts::Item

  add(item: Item): Cart { // @ref src/cart.ts::Item src/cart.ts::Cart
    this.items.push(item);
    return this;
  }

  total(): number {
    return this.items.reduce((s, i) => s + i.price, 0) * (1 + TAX); // @ref src/cart.ts::TAX
  }

  checkout(): number {
    const t = this.total(); // @ref src/cart.ts::Cart.total
    log("checkout of Cart.total()"); // @ref src/cart.ts::log
    return t;
  }
}

export function log(msg: string): void {
  console.log(msg);
}

export function makeCart(): Cart { // @ref src/cart.ts::Cart
  return new Cart(); // @ref src/cart.ts::Cart
}
