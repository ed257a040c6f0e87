# frozen_string_literal: true

# The gem's name as Bundler requires it (`gem "activestorage-mediatool"`).
require "active_storage/mediatool"
