# frozen_string_literal: true

module ActiveStorage
  module Mediatool
    # A blob's metadata from mediatool probe's report: the keys Active Storage's own analyzers
    # write (Rails 7.1's), with the values as the file is shown, and what mediatool knows besides.
    module Metadata
      class << self
        def from(report)
          case report["kind"]
          when "video" then video(report)
          when "audio" then audio(report)
          when "picture" then picture(report)
          else {}
          end
        end

        private

          def video(report)
            width, height = report["width"], report["height"]
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
            sound = Array(report["audio"]).first || {}
            {
              duration: report["duration"],
              bit_rate: report["bitrate"],
              sample_rate: sound["sample_rate"],
              channels: sound["channels"],
              codec: sound["codec"]
            }.merge(common(report)).compact
          end

          def picture(report)
            {
              width: report["width"],
              height: report["height"],
              codec: report["codec"],
              hdr: report["hdr"]
            }.merge(common(report)).compact
          end

          def common(report)
            gps = report["gps"]
            {
              created: report["created"],
              gps: gps && { latitude: gps["latitude"], longitude: gps["longitude"], altitude: gps["altitude"] }.compact
            }
          end

          # Width to height as shown, in lowest terms ([9, 16] for a portrait phone video).
          def ratio(width, height)
            return nil unless width.is_a?(Integer) && height.is_a?(Integer) && width.positive? && height.positive?

            divisor = width.gcd(height)
            [width / divisor, height / divisor]
          end
      end
    end
  end
end
