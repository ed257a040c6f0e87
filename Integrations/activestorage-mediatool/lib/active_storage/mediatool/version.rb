module ActiveStorage
  module Mediatool
    VERSION = "0.1.0"
  end
end
