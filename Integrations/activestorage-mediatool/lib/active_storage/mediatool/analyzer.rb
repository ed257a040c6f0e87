# frozen_string_literal: true

module ActiveStorage
  module Mediatool
    # Analyses videos, audio and the pictures mediatool reads with `mediatool probe`, in its
    # sandbox. A file it cannot read is handed to the analyzer Active Storage would have used
    # without the gem (a Lab TIFF vips reads, a video ffprobe still measures); where that one
    # fails too, it is analysed as Active Storage does it: a warning in the log and the blob
    # marked analysed, with no metadata but that, never an exception.
    class Analyzer < ActiveStorage::Analyzer
      # What Rails' image analyzers read besides (SVG, BMP, PSD...) is left to them.
      PICTURE_TYPES = %w[
        image/jpeg image/pjpeg image/png image/heic image/heif image/heic-sequence image/heif-sequence
        image/avif image/webp image/tiff image/gif
      ].freeze

      def self.accept?(blob)
        (blob.video? || blob.audio? || PICTURE_TYPES.include?(blob.content_type)) && !Mediatool.tool.nil?
      end

      def metadata
        tool = Mediatool.tool or return {}
        # What the file is, whatever its content type says: Marcel 1.0 takes an AVIF photo for
        # video/quicktime (both are ISO media files), and it is measured as the photo it is.
        if Mediatool.settings.digests
          Metadata.from(Mediatool.with_local_path(blob) { |path| tool.digests(path) })
        else
          Metadata.from(Mediatool.with_local_path(blob) { |path| tool.probe(path) })
        end
      rescue Error => error
        fallback = ActiveStorage.analyzers.drop_while { |analyzer| analyzer != self.class }.drop(1).detect { |analyzer| analyzer.accept?(blob) }
        logger.warn "mediatool could not read #{blob.filename} (#{blob.key}): #{error.message}; " +
                    (fallback ? "#{fallback.name} is asked instead" : "skipping its analysis")
        fallback ? metadata_by(fallback) : {}
      end

      private
        def metadata_by(fallback)
          fallback.new(blob).metadata
        rescue StandardError => error
          logger.warn "#{fallback.name} could not analyse #{blob.filename} (#{blob.key}) either: #{error.message}"
          {}
        end
    end
  end
end
