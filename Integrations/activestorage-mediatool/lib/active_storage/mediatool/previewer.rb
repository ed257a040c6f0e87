# frozen_string_literal: true

module ActiveStorage
  module Mediatool
    # Previews videos with `mediatool thumbnail --at auto`: a frame worth showing (not black, not
    # mid-fade), upright by the display matrix, HDR tone mapped to SDR, as a JPEG (or an AVIF:
    # the `preview_format` setting). Active Storage
    # attaches it and makes its variants as it does of its own previews. Photos that Active
    # Storage cannot make variants of (HEIC and AVIF on Rails 6.1) are previewed too, upright, so
    # that `blob.representation` works for a phone's photos.
    #
    # As the analyzer: a file of no kind mediatool reads goes to the previewer Active Storage
    # would have used without the gem; one it refused (now, or when it was analysed) or could not
    # be asked about raises PreviewError, naming the blob, and is never given to ffmpeg.
    class Previewer < ActiveStorage::Previewer
      def self.accept?(blob)
        (blob.video? || (Analyzer::PICTURE_TYPES.include?(blob.content_type) && !blob.variable?)) && !Mediatool.tool.nil?
      end

      def preview(**options, &block)
        # Refused once, refused again: not read a second time (a file that took all of --timeout).
        if (refusal = blob.metadata[:mediatool_refused])
          raise PreviewError, "mediatool refused #{blob.filename} (#{blob.key}) when it was analysed: #{refusal}"
        end

        # Gone since `accept?`: what an app without mediatool gets.
        tool = Mediatool.tool or return preview_by_next_previewer("there is no mediatool now", options, block)
        poster = Mediatool.with_local_path(blob) do |path|
          instrument(:preview, key: blob.key) { tool.poster(path) }
        end
        settings = Mediatool.settings
        extension = settings.preview_format == "jpeg" ? "jpg" : settings.preview_format
        # Not identified again: Marcel 1.0 (Debian 12's) takes an AVIF for video/quicktime by its
        # `ftyp`, and the picture was seen to be what it says (`Tool#picture`).
        yield io: poster, filename: "#{blob.filename.base}.#{extension}", content_type: settings.preview_content_type, identify: false, **options
      rescue NotMedia => error
        preview_by_next_previewer(error.message, options, block)
      rescue Error => error
        raise PreviewError, "mediatool could not preview #{blob.filename} (#{blob.key}): #{error.message}"
      ensure
        poster&.close
      end

      private
        # The previewer after this one that takes the blob, as Active Storage would have chosen
        # without the gem.
        def preview_by_next_previewer(why, options, block)
          following = ActiveStorage.previewers.drop_while { |previewer| previewer != self.class }.drop(1)
          fallback = following.detect { |previewer| previewer.accept?(blob) }
          unless fallback
            raise PreviewError, "mediatool could not preview #{blob.filename} (#{blob.key}): #{why}, and no other previewer takes it"
          end

          logger.warn "mediatool could not preview #{blob.filename} (#{blob.key}): #{why}; #{fallback.name} is asked instead"
          fallback.new(blob).preview(**options, &block)
        end
    end
  end
end
