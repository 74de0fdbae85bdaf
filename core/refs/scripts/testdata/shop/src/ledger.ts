export class Ledger {
  post(amount: number): number {
    return amount;
  }

  total(): number {
    return 0;
  }
}

export class Journal {
  post(amount: number): number {
    return -amount;
  }
}
