import * as led from "./ledger";
import { Book, Cart } from "./index";
import { Order } from "./base";
import { Item as Product, makeCart } from "./cart";

export function run(cart: Cart, journal: any): void { // @ref src/cart.ts::Cart
  cart.total(); // @ref src/cart.ts::Cart.total
  journal.post(3);
  const book = new Book(); // @ref src/ledger.ts::Ledger
  book.post(1); // @ref src/ledger.ts::Ledger.post
  const c2 = makeCart(); // @ref src/cart.ts::makeCart
  c2.add(new Product("x", 1)).checkout(); // @ref src/cart.ts::Cart.add src/cart.ts::Item src/cart.ts::Cart.checkout
  new led.Journal().post(2); // @ref src/ledger.ts::Journal src/ledger.ts::Journal.post
  const c3: Cart = journal.cart; // @ref src/cart.ts::Cart
  c3.total(); // @ref src/cart.ts::Cart.total
  const msg = "makeCart() and Cart.total";
  const handler = (c: Cart) => c.checkout(); // @ref src/cart.ts::Cart src/cart.ts::Cart.checkout
  const shadow = (makeCart: () => void) => makeCart();
  const opts = { total: 1, checkout() { return 0; } };
  [new Cart()].forEach((c) => c.total()); // @ref src/cart.ts::Cart src/cart.ts::Cart.total
  return void [msg, handler, shadow, opts];
}

export function total(): number {
  return 0;
}

export class Shop {
  private order = new Order(); // @ref src/base.ts::Order

  constructor(private ledger: Book | null) {} // @ref src/ledger.ts::Ledger

  close(): number {
    this.order.submit(); // @ref src/base.ts::Order.submit
    this.ledger!.post(0); // @ref src/ledger.ts::Ledger.post
    return this.total(); // @ref src/app.ts::Shop.total
  }

  total(): number {
    return total(); // @ref src/app.ts::total
  }
}

export interface Priced {
  total(): number;
  price: number;
}

export enum Mode {
  Fast,
  Slow,
}

export function pick(m: Mode, p: Priced): Mode { // @ref src/app.ts::Mode src/app.ts::Priced src/app.ts::Mode
  p.total();
  return m === Mode.Fast ? Mode.Slow : m; // @ref src/app.ts::Mode src/app.ts::Mode
}

export class Registry {
  static create(): Registry { // @ref src/app.ts::Registry
    return new Registry(); // @ref src/app.ts::Registry
  }

  get size(): number {
    return 0;
  }

  list(): number {
    return this.size; // @ref src/app.ts::Registry.size
  }
}

export const registry = Registry.create().list(); // @ref src/app.ts::Registry src/app.ts::Registry.create src/app.ts::Registry.list
