require "mail"

module Lendbook
  module Services
    # Reminder e-mails: reminder_days_before the due date, and once a week while overdue.
    class Reminders
      def send_all(today = Date.today)
        soon = today + Settings[:reminder_days_before]
        Loan.where(returned_on: nil).each do |loan|
          if loan.due_on == soon
            deliver(loan, "due on #{loan.due_on}")
          elsif loan.overdue_days(today).positive? && (loan.overdue_days(today) % 7).zero?
            deliver(loan, "#{loan.overdue_days(today)} days overdue")
          end
        end
      end

      private

      def deliver(loan, what)
        smtp = Settings[:smtp]
        Mail.defaults { delivery_method :smtp, address: smtp["address"], port: smtp["port"] }
        Mail.new do
          from smtp["from"]
          to loan.member.email
          subject "#{loan.book.title}: #{what}"
        end.deliver
      end
    end
  end
end
