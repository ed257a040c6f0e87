# frozen_string_literal: true

module ActiveStorage
  module Mediatool
    # What an app sets in `config.active_storage.mediatool` (all optional):
    #
    #   max_pixels  refuse pictures and frames of more pixels (mediatool's --max-pixels)
    #   max_memory  refuse files whose decoding needs more, in bytes or as "512M" (--max-memory)
    #   timeout     seconds a file may take before it fails (--timeout; default 60)
    #   gps         false to leave the place a photo or video was taken out of its metadata
    #   serve       false to run mediatool once a blob instead of keeping processes
    #   servers     how many of each kind a Rails process keeps, for its threads (default 2)
    #   digests     true to add placeholders (thumbhash, blurhash) and perceptual hashes (dhash,
    #               phash) of a picture, or of a video's poster, to its metadata: the picture is
    #               decoded (`mediatool ingest`), where a probe reads headers only
    #   web_video_deadline  seconds a web video (`WebVideoJob`) may take as a whole (default 3600;
    #               `timeout` ends one whose frames stop coming)
    #   strip_originals  true to remove where and by whom (position, serial numbers, owner,
    #               maker notes) from each uploaded photo and video before it is analysed, by
    #               `mediatool strip`: the blob's file is replaced by the stripped one (its pixels
    #               and samples the same bytes) and its checksum and size follow
    #   preview_format  "jpeg" (the default) or "avif": the pictures previews (of videos, and of
    #               the HEIC and AVIF photos Rails 6.1 cannot vary) are attached as; an app that
    #               asks for AVIF adds "image/avif" to `variable_content_types`, so that Active
    #               Storage makes their variants
    class Settings
      PREVIEW_FORMATS = { "jpeg" => "image/jpeg", "avif" => "image/avif" }.freeze

      attr_reader :max_pixels, :max_memory, :timeout, :gps, :serve, :servers, :digests, :web_video_deadline, :preview_format,
                  :strip_originals

      def initialize(options = {})
        options = options.to_h.transform_keys(&:to_sym)
        unknown = options.keys - %i[max_pixels max_memory timeout gps serve servers digests web_video_deadline preview_format
                                    strip_originals]
        raise ArgumentError, "config.active_storage.mediatool: unknown setting #{unknown.first}" if unknown.any?

        @max_pixels = options[:max_pixels] && Integer(options[:max_pixels])
        @max_memory = options[:max_memory]&.to_s
        @timeout = Float(options.fetch(:timeout, 60))
        raise ArgumentError, "config.active_storage.mediatool.timeout: seconds above 0, not #{@timeout}" unless @timeout.positive?

        @web_video_deadline = Float(options.fetch(:web_video_deadline, 3600))
        unless @web_video_deadline.positive?
          raise ArgumentError, "config.active_storage.mediatool.web_video_deadline: seconds above 0, not #{@web_video_deadline}"
        end

        @preview_format = options.fetch(:preview_format, "jpeg").to_s
        unless PREVIEW_FORMATS.key?(@preview_format)
          raise ArgumentError, "config.active_storage.mediatool.preview_format: jpeg or avif, not #{@preview_format}"
        end

        @gps = options.fetch(:gps, true) ? true : false
        @serve = options.fetch(:serve, true) ? true : false
        @digests = options.fetch(:digests, false) ? true : false
        @strip_originals = options.fetch(:strip_originals, false) ? true : false
        @servers = Integer(options.fetch(:servers, 2))
        raise ArgumentError, "config.active_storage.mediatool.servers: 1 or more, not #{@servers}" unless @servers.positive?
      end

      # The media type of the previews' pictures.
      def preview_content_type
        PREVIEW_FORMATS.fetch(preview_format)
      end

      # The options every run of mediatool is given.
      def arguments
        arguments = ["--timeout", format("%g", timeout)]
        arguments += ["--max-pixels", max_pixels.to_s] if max_pixels
        arguments += ["--max-memory", max_memory] if max_memory
        arguments
      end

      # The options `mediatool strip` is given: it decodes no pixels, so the limits are not its.
      def strip_arguments
        ["--timeout", format("%g", timeout)]
      end
    end
  end
end
