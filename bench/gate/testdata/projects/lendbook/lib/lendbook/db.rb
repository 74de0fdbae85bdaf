require "sequel"
require_relative "settings"

module Lendbook
  module DB
    def self.connection
      @connection ||= Sequel.connect(ENV.fetch("DATABASE_URL") { Settings[:database_url] })
    end
  end
end
