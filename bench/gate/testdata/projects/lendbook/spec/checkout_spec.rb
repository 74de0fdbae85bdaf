require_relative "spec_helper"

RSpec.describe Lendbook::Services::Checkout do
  it "refuses a member with too many unpaid fees" do
    member = create_member(unpaid_fees_cents: 1200)
    expect { described_class.new.call(member: member, book: create_book) }.to raise_error(Lendbook::FeesBlocked)
  end

  it "lends a held book only to the member it is held for" do
    book = create_book
    create_hold(book: book, member: create_member)
    expect { described_class.new.call(member: create_member, book: book) }.to raise_error(Lendbook::NotAvailable)
  end
end
