ENV["DATABASE_URL"] = "sqlite:/"
require_relative "../lib/lendbook/db"
Sequel.extension :migration
Sequel::Migrator.run(Lendbook::DB.connection, File.expand_path("../db/migrations", __dir__))
require_relative "../lib/lendbook"

module Factories
  def create_member(**attrs) = Lendbook::Member.create({ name: "Ada", email: "ada#{rand(1e9)}@x.org" }.merge(attrs))
  def create_book(**attrs) = Lendbook::Book.create({ title: "Dune" }.merge(attrs))
  def create_hold(book:, member:) = Lendbook::Hold.create(book_id: book.id, member_id: member.id, requested_at: Time.now)

  def create_loan(due_on:, replacement_cents: 2500)
    Lendbook::Loan.create(book_id: create_book(replacement_cents: replacement_cents).id, member_id: create_member.id, due_on: due_on)
  end
end

RSpec.configure { |c| c.include Factories }
