require "yaml"

module Lendbook
  # Settings from config/settings.yml, with LENDBOOK_* environment variables winning.
  module Settings
    FILE = File.expand_path("../../config/settings.yml", __dir__)

    def self.all
      @all ||= begin
        values = YAML.safe_load_file(FILE)
        values.each_key do |key|
          env = ENV["LENDBOOK_#{key.upcase}"]
          values[key] = Integer(env, exception: false) || env if env
        end
        values
      end
    end

    def self.[](key)
      all.fetch(key.to_s) { raise KeyError, "no setting #{key} in #{FILE}" }
    end
  end
end
