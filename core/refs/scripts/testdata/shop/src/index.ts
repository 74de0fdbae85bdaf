export { Cart } from "./cart";
export { Ledger as Book } from "./ledger";
