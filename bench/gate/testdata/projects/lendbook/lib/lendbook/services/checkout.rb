module Lendbook
  module Services
    # Lending a book to a member.
    class Checkout
      def call(member:, book:, today: Date.today)
        raise FeesBlocked, member if member.blocked?
        raise NotAvailable, "#{book.title} is on loan" if book.on_loan?

        hold = book.waiting_list.first
        if hold && hold.member_id != member.id
          raise NotAvailable, "#{book.title} is held for another member"
        end

        DB.connection.transaction do
          hold&.destroy
          Loan.create(book_id: book.id, member_id: member.id, due_on: today + Settings[:loan_days])
        end
      end
    end
  end
end
