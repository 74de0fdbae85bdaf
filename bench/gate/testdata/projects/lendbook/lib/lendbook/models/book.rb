module Lendbook
  class Book < Sequel::Model(DB.connection[:books])
    one_to_many :loans
    one_to_many :holds

    def on_loan?
      loans_dataset.where(returned_on: nil).any?
    end

    # The waiting list: holds in the order they were requested.
    def waiting_list
      holds_dataset.order(:requested_at)
    end
  end
end
