import { postJSON } from "./api";

/** Redeems a coupon code for the current cart. */
export async function redeemCoupon(code: string): Promise<number> {
  const res = await postJSON("/api/coupon", { code });
  return (await res.json()).discount;
}
