# frozen_string_literal: true

module ActiveStorage
  module Mediatool
    # Analyses videos, audio and the pictures mediatool reads with `mediatool probe`, in its
    # sandbox. A file it cannot read is analysed as Active Storage does it: a warning in the log
    # and the blob marked analysed, with no metadata but that.
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
        report = Mediatool.with_local_path(blob) { |path| tool.probe(path) }
        if report["kind"] == "picture" ? !blob.image? : blob.image?
          raise Error, "it is a #{report["kind"]}, not the #{blob.content_type} it was given as"
        end

        Metadata.from(report)
      rescue Error => error
        logger.warn "Skipping analysis of #{blob.filename} (#{blob.key}) because mediatool could not read it: #{error.message}"
        {}
      end
    end
  end
end
