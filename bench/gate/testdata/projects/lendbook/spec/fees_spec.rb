require_relative "spec_helper"

RSpec.describe Lendbook::Services::Fees do
  it "charges per overdue day" do
    loan = create_loan(due_on: Date.new(2024, 3, 1))
    expect(described_class.for_loan(loan, Date.new(2024, 3, 5))).to eq(100)
  end

  it "never charges more than the replacement price" do
    loan = create_loan(due_on: Date.new(2023, 1, 1), replacement_cents: 1500)
    expect(described_class.for_loan(loan, Date.new(2024, 1, 1))).to eq(1500)
  end
end
