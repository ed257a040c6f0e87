# frozen_string_literal: true

require "rails/railtie"
require "active_storage/engine"

module ActiveStorage
  module Mediatool
    # Adding the gem is all an app does: its analyzer and previewer go first in Active Storage's
    # lists (Rails' own stay behind them, for the files mediatool does not take or when it is
    # missing), and `config.active_storage.mediatool` holds its settings.
    class Railtie < ::Rails::Railtie
      config.active_storage.mediatool = ActiveSupport::OrderedOptions.new

      initializer "active_storage_mediatool.analyzers_and_previewers", before: "active_storage.configs" do |app|
        settings = app.config.active_storage
        Mediatool.settings = Settings.new(settings.mediatool)
        settings.analyzers = [Analyzer] + Array(settings.analyzers).reject { |analyzer| analyzer == Analyzer }
        settings.previewers = [Previewer] + Array(settings.previewers).reject { |previewer| previewer == Previewer }
      end
    end
  end
end
