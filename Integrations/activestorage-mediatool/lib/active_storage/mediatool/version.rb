# frozen_string_literal: true

module ActiveStorage
  module Mediatool
    VERSION = "0.1.0"
  end
end
