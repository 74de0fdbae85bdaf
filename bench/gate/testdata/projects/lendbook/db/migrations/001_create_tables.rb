Sequel.migration do
  change do
    create_table(:members) do
      primary_key :id
      String :name, null: false
      String :email, null: false, unique: true
      Integer :unpaid_fees_cents, default: 0
    end
    create_table(:books) do
      primary_key :id
      String :title, null: false
      String :isbn, unique: true
      Integer :replacement_cents, default: 2500
    end
    create_table(:loans) do
      primary_key :id
      foreign_key :book_id, :books
      foreign_key :member_id, :members
      Date :due_on, null: false
      Date :returned_on
      Integer :renewals, default: 0
    end
    create_table(:holds) do
      primary_key :id
      foreign_key :book_id, :books
      foreign_key :member_id, :members
      DateTime :requested_at, null: false
      Date :ready_until
    end
  end
end
