module Lendbook
  class Error < StandardError; end

  # The member owes more than fee_block_cents.
  class FeesBlocked < Error
    def initialize(member)
      super("#{member.name} owes #{format('%.2f', member.unpaid_fees_cents / 100.0)} in late fees and cannot borrow")
    end
  end

  class NotAvailable < Error; end
  class RenewalRefused < Error; end
end
