# frozen_string_literal: true

require_relative "test_helper"

# The fields the analyzer reads of probe's line, against docs/probe-schema.json, which mediatool's
# own tests make from the line (ProbeSchemaTests): a field renamed or retyped there fails here,
# rather than leaving blobs without their width or duration.
class ProbeSchemaTest < ActiveSupport::TestCase
  SCHEMA = File.expand_path("../../../docs/probe-schema.json", __dir__)
  # What `mediatool ingest`'s manifest adds to probe's fields (its own schema: docs/ingest.md).
  INGEST_ONLY = %w[placeholder hash].freeze
  RUBY_TYPES = { "integer" => [Integer], "number" => [Integer, Float], "string" => [String], "boolean" => [TrueClass] }.freeze

  def schema
    JSON.parse(File.read(SCHEMA)).fetch("fields").to_h { |field| [field.fetch("name"), field.fetch("type")] }
  end

  # The Ruby types the schema's type allows: an array or an object by its shape.
  def ruby_types(type)
    return [Array] if type.start_with?("array of ")
    return [Hash] if type.start_with?("{")

    RUBY_TYPES.fetch(type)
  end

  test "every field the analyzer reads is in probe's line" do
    source = File.read(File.expand_path("../lib/active_storage/mediatool/metadata.rb", __dir__))
    read = source.scan(/report\["([a-z_]+)"\]/).flatten.uniq - INGEST_ONLY
    assert_operator read.size, :>=, 10, "the analyzer's reads were not found"
    assert_empty read - schema.keys, "read by the analyzer, not in docs/probe-schema.json"
  end

  test "the types the analyzer accepts are the line's" do
    ActiveStorage::Mediatool::Metadata::TYPES.each do |name, accepted|
      next if INGEST_ONLY.include?(name)

      assert schema.key?(name), "#{name} is not in docs/probe-schema.json"
      assert_equal ruby_types(schema.fetch(name)).sort_by(&:name), accepted.sort_by(&:name), name
    end
  end
end
