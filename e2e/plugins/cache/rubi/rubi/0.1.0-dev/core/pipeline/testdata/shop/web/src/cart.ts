import { postJSON } from "./api";
import { redeemCoupon } from "./coupon";

export interface CartLine {
  sku: string;
  qty: number;
}

/** Sends the cart to checkout and returns the order id. */
export async function submitCart(lines: CartLine[], coupon?: string): Promise<string> {
  if (coupon) {
    await redeemCoupon(coupon);
  }
  const res = await postJSON("/api/checkout", { lines });
  return (await res.json()).orderId;
}
