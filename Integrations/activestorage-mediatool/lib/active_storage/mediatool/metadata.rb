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
        "bitrate" => [Integer], "audio" => [Array], "gps" => [Hash], "placeholder" => [Hash], "hash" => [Hash]
      }.freeze
      # What each placeholder and hash looks like (`digests`): anything else is left out.
      DIGESTS = {
        "thumbhash" => %r{\A[A-Za-z0-9+/]{4,80}={0,2}\z}, "blurhash" => /\A[0-9A-Za-z#$%*+,\-.:;=?@\[\]^_{|}~]{6,166}\z/,
        "dhash" => /\A\h{16}\z/, "phash" => /\A\h{16}\z/
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
            }.merge(digests(report))
          end

          # thumbhash, blurhash, dhash and phash, where the report has them (an ingest's manifest).
          def digests(report)
            found = report["placeholder"].to_h.merge(report["hash"].to_h)
            DIGESTS.to_h { |key, form| [key.to_sym, (found[key] if found[key].is_a?(String) && form.match?(found[key]))] }
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
