require "mail"

module Lendbook
  module Services
    # A book coming back: the fee is charged and the first member waiting is told it is held for them.
    class Returns
      def call(loan:, today: Date.today)
        DB.connection.transaction do
          loan.update(returned_on: today)
          Fees.charge!(loan, today)
          next_hold = loan.book.waiting_list.first
          if next_hold
            next_hold.update(ready_until: today + Settings[:hold_days])
            notify_ready(next_hold)
          end
        end
      end

      private

      def notify_ready(hold)
        smtp = Settings[:smtp]
        Mail.new do
          from smtp["from"]
          to hold.member.email
          subject "#{hold.book.title} is waiting for you"
          body "It is held for you until #{hold.ready_until}."
        end.deliver
      end
    end
  end
end
