# frozen_string_literal: true

# A real Rails app in one file, as small as Active Storage allows: SQLite in memory, the Disk
# service in a temporary folder, Active Job inline, vips for variants. The gem is added as an app
# adds it, by requiring it before the app is defined. The tests and scripts/bench use it.
require "tmpdir"
require "logger"
require "stringio"
require "rails"
require "active_record/railtie"
require "active_job/railtie"
require "active_storage/engine"
require "activestorage/mediatool"

ENV["DATABASE_URL"] = "sqlite3::memory:"
# Removed by whoever requires this, once done (an at_exit here would run before minitest's tests).
STORAGE = Dir.mktmpdir("activestorage-mediatool-app-")
LOG = StringIO.new

class TestApp < Rails::Application
  config.root = STORAGE
  config.eager_load = false
  config.logger = Logger.new(LOG)
  config.active_storage.service = :test
  config.active_storage.service_configurations = { test: { service: "Disk", root: File.join(STORAGE, "blobs") } }
  config.active_storage.variant_processor = :vips
  config.active_job.queue_adapter = :inline
  config.secret_key_base = "test"
end
Rails.application.initialize!
ActiveRecord::Migration.verbose = false
require ActiveStorage::Engine.root.join("db/migrate/20170806125915_create_active_storage_tables.rb").to_s
CreateActiveStorageTables.migrate(:up)

# What an app attaches uploads to: a video, and the web video made of it (`WebVideoJob`).
ActiveRecord::Schema.define { create_table(:uploads) { |table| table.timestamps } }
class Upload < ActiveRecord::Base
  has_one_attached :video
  has_one_attached :web_video
end
