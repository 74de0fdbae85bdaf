require "date"

module Lendbook
  class Loan < Sequel::Model(DB.connection[:loans])
    many_to_one :book
    many_to_one :member

    def overdue_days(today = Date.today)
      end_day = returned_on || today
      [(end_day - due_on).to_i, 0].max
    end

    def renew!(today = Date.today)
      raise RenewalRefused, "renewed #{renewals} times already" if renewals >= Settings[:max_renewals]
      raise RenewalRefused, "someone is waiting for this book" if book.waiting_list.any?
      update(due_on: [due_on, today].max + Settings[:loan_days], renewals: renewals + 1)
    end
  end
end
