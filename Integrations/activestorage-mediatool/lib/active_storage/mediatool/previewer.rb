# frozen_string_literal: true

module ActiveStorage
  module Mediatool
    # Previews videos with `mediatool thumbnail --at auto`: a frame worth showing (not black, not
    # mid-fade), upright by the display matrix, HDR tone mapped to SDR, as a JPEG. Active Storage
    # attaches it and makes its variants as it does of its own previews. Photos that Active
    # Storage cannot make variants of (HEIC and AVIF on Rails 6.1) are previewed too, upright, so
    # that `blob.representation` works for a phone's photos.
    class Previewer < ActiveStorage::Previewer
      def self.accept?(blob)
        (blob.video? || (Analyzer::PICTURE_TYPES.include?(blob.content_type) && !blob.variable?)) && !Mediatool.tool.nil?
      end

      def preview(**options)
        tool = Mediatool.tool or raise PreviewError, "no mediatool to preview #{blob.filename} with"
        poster = Mediatool.with_local_path(blob) do |path|
          instrument(:preview, key: blob.key) { tool.poster(path) }
        end
        yield io: poster, filename: "#{blob.filename.base}.jpg", content_type: "image/jpeg", **options
      rescue Error => error
        raise PreviewError, "mediatool could not preview #{blob.filename} (#{blob.key}): #{error.message}"
      ensure
        poster&.close
      end
    end
  end
end
