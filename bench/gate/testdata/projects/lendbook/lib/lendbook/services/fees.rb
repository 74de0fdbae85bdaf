module Lendbook
  module Services
    # Late fees: fee_per_day_cents per overdue day, capped at the book's replacement price.
    module Fees
      def self.for_loan(loan, today = Date.today)
        [loan.overdue_days(today) * Settings[:fee_per_day_cents], loan.book.replacement_cents].min
      end

      def self.charge!(loan, today = Date.today)
        fee = for_loan(loan, today)
        return 0 if fee.zero?

        loan.member.update(unpaid_fees_cents: loan.member.unpaid_fees_cents + fee)
        fee
      end
    end
  end
end
