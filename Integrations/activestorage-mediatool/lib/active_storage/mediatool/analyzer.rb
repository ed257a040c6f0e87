# frozen_string_literal: true

module ActiveStorage
  module Mediatool
    # Analyses videos, audio and the pictures mediatool reads with `mediatool probe`, in its
    # sandbox. Only a file of no kind mediatool reads (`NotMedia`: no format it knows, a TIFF
    # layout it does not decode) is handed to the analyzer Active Storage would have used without
    # the gem. A file it knows and refused (damaged, over a limit, too slow) is never given to a
    # tool without its limits: it is analysed as refused, `mediatool_refused` saying why. When
    # mediatool gives no answer at all (it could not be started, it stalled or ended), the blob is
    # analysed as failed, `mediatool_failed` saying why. Never an exception.
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
        # Gone since `accept?`: what an app without mediatool gets.
        tool = Mediatool.tool or return metadata_by_next_analyzer("there is no mediatool now")
        stripped = strip_original(tool) if Mediatool.settings.strip_originals
        read(tool).merge(stripped ? { mediatool_stripped: stripped } : {})
      rescue NotMedia => error
        metadata_by_next_analyzer(error.message)
      rescue Refused => error
        logger.warn "mediatool refused #{blob.filename} (#{blob.key}): #{error.message}; analysed as refused"
        { mediatool_refused: error.message }
      rescue Error => error
        logger.warn "mediatool could not analyse #{blob.filename} (#{blob.key}): #{error.message}; analysed as failed"
        { mediatool_failed: error.message }
      end

      private
        # With `strip_originals`: the blob's file replaced by the stripped one before it is read,
        # under the same key, its checksum and size made again (`Blob#upload`), which `analyze`
        # saves with the metadata. What was removed; nil when nothing was.
        def strip_original(tool)
          Dir.mktmpdir("mediatool-strip") do |folder|
            output = File.join(folder, "stripped#{blob.filename.extension_with_delimiter}")
            report = Mediatool.with_local_path(blob) { |path| tool.strip(path, output) }
            next nil unless report["changed"]

            File.open(output, "rb") { |file| blob.upload(file, identify: false) }
            logger.info "mediatool stripped #{blob.filename} (#{blob.key}): #{report["removed"].join(", ")}"
            report["removed"]
          end
        end

        # What the file is, whatever its content type says: Marcel 1.0 takes an AVIF photo for
        # video/quicktime (both are ISO media files), and it is measured as the photo it is.
        def read(tool)
          if Mediatool.settings.digests
            Metadata.from(Mediatool.with_local_path(blob) { |path| tool.digests(path) })
          else
            Metadata.from(Mediatool.with_local_path(blob) { |path| tool.probe(path) })
          end
        end

        # The analyzer after this one that takes the blob, as Active Storage would have chosen
        # without the gem; none, or one that fails, leaves the blob analysed with nothing else.
        def metadata_by_next_analyzer(why)
          following = ActiveStorage.analyzers.drop_while { |analyzer| analyzer != self.class }.drop(1)
          fallback = following.detect { |analyzer| analyzer.accept?(blob) }
          logger.warn "mediatool could not read #{blob.filename} (#{blob.key}): #{why}; " +
                      (fallback ? "#{fallback.name} is asked instead" : "skipping its analysis")
          return {} unless fallback

          begin
            fallback.new(blob).metadata
          rescue StandardError => error
            logger.warn "#{fallback.name} could not analyse #{blob.filename} (#{blob.key}) either: #{error.message}"
            {}
          end
        end
    end
  end
end
