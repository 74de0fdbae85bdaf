import { Ledger } from "./ledger";

export class Base {
  ledger = new Ledger(); // @ref src/ledger.ts::Ledger

  save(): boolean {
    this.ledger.post(1); // @ref src/ledger.ts::Ledger.post
    return this.validate(); // @ref src/base.ts::Base.validate
  }

  validate(): boolean {
    return true;
  }
}

export class Order extends Base { // @ref src/base.ts::Base
  validate(): boolean {
    const ok = super.validate(); // @ref src/base.ts::Base.validate
    return ok;
  }

  submit(): boolean {
    return this.save(); // @ref src/base.ts::Base.save
  }
}
