module Lendbook
  # A member waiting for a book; ready_until is set when the book is held for them.
  class Hold < Sequel::Model(DB.connection[:holds])
    many_to_one :book
    many_to_one :member

    def ready?
      !ready_until.nil?
    end

    def expired?(today = Date.today)
      ready? && today > ready_until
    end
  end
end
