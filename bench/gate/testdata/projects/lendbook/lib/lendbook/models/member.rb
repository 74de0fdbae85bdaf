module Lendbook
  class Member < Sequel::Model(DB.connection[:members])
    one_to_many :loans

    def blocked?
      unpaid_fees_cents > Settings[:fee_block_cents]
    end

    def open_loans
      loans_dataset.where(returned_on: nil)
    end
  end
end
