# frozen_string_literal: true

module ActiveStorage
  module Mediatool
    # A blob's metadata from mediatool probe's report: the keys Active Storage's own analyzers
    # write (Rails 7.1's), with the values as the file is shown, and what mediatool knows besides.
    module Metadata
      NUMBER = [Integer, Float].freeze
      # What each field read is: a value of another type is left out (a report describes a
      # stranger's file, and comes from a process outside Rails).
      TYPES = {
        "width" => [Integer], "height" => [Integer], "rotation" => [Integer], "duration" => NUMBER, "fps" => NUMBER,
        "bitrate" => [Integer], "audio" => [Array], "gps" => [Hash]
      }.freeze

      class << self
        def from(report)
          report = report.select { |key, value| value.nil? || TYPES.fetch(key, [String]).any? { |type| value.is_a?(type) } }
          case report["kind"]
          when "video" then video(report)
          when "audio" then audio(report)
          when "picture" then picture(report)
          else {}
          end
        end

        private
          def video(report)
            width, height = size(report)
            {
              width: width,
              height: height,
              duration: report["duration"],
              # Degrees clockwise the coded picture is turned to be shown, as the old rotate tag had it.
              angle: report["rotation"],
              display_aspect_ratio: ratio(width, height),
              audio: Array(report["audio"]).any?,
              video: true,
              frame_rate: report["fps"],
              codec: report["codec"],
              hdr: report["hdr"]
            }.merge(common(report)).compact
          end

          def audio(report)
            sound = Array(report["audio"]).first
            sound = {} unless sound.is_a?(Hash)
            {
              duration: report["duration"],
              bit_rate: report["bitrate"],
              sample_rate: (sound["sample_rate"] if sound["sample_rate"].is_a?(Integer)),
              channels: (sound["channels"] if sound["channels"].is_a?(Integer)),
              codec: (sound["codec"] if sound["codec"].is_a?(String))
            }.merge(common(report)).compact
          end

          def picture(report)
            width, height = size(report)
            {
              width: width,
              height: height,
              codec: report["codec"],
              hdr: report["hdr"]
            }.merge(common(report)).compact
          end

          def common(report)
            gps = report["gps"]&.slice("latitude", "longitude", "altitude")&.select { |_, value| value.is_a?(Numeric) }
            {
              created: report["created"],
              gps: gps&.transform_keys(&:to_sym).presence
            }
          end

          # Both sides, or neither: a size is two positive numbers.
          def size(report)
            sides = [report["width"], report["height"]]
            sides.all? { |side| side.is_a?(Integer) && side.positive? } ? sides : [nil, nil]
          end

          # Width to height as shown, in lowest terms ([9, 16] for a portrait phone video).
          def ratio(width, height)
            return nil unless width && height

            divisor = width.gcd(height)
            [width / divisor, height / divisor]
          end
      end
    end
  end
end
