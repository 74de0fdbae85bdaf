require "sinatra/base"
require "json"

module Lendbook
  class App < Sinatra::Base
    error Lendbook::Error do
      status 422
      { error: env["sinatra.error"].message }.to_json
    end

    post "/loans" do
      member = Member[params[:member_id]] or halt 404
      book = Book[params[:book_id]] or halt 404
      loan = Services::Checkout.new.call(member: member, book: book)
      status 201
      { id: loan.id, due_on: loan.due_on }.to_json
    end

    post "/loans/:id/renew" do
      loan = Loan[params[:id]] or halt 404
      loan.renew!
      { id: loan.id, due_on: loan.due_on }.to_json
    end

    post "/loans/:id/return" do
      loan = Loan[params[:id]] or halt 404
      Services::Returns.new.call(loan: loan)
      { id: loan.id, fee_cents: Services::Fees.for_loan(loan) }.to_json
    end
  end
end
